/** Rules of `equip(object)`: the item must be held in the inventory; nothing in the inventory changes. */
import type { Action } from '../schemas/action.js'
import type { ActionRules } from './types.js'

export const equipRules: ActionRules<Extract<Action, { type: 'equip' }>> = {
  describe: (a) => `equipping ${a.object}`,
  budget: { steps: 2, timeMs: 5_000 },
  requires: (a) => [{ kind: 'hold', anyOf: [a.object], doing: 'hold', as: 'item' }],
  changes: () => ({ inventory: {} }),
}
