/**
 * Rules of `give(object, count, to)`: `count` of the item held and the player online and known; afterwards the bot
 * holds `count` fewer (they are in the player's inventory).
 */
import type { Action } from '../schemas/action.js'
import type { ActionRules } from './types.js'

export const giveRules: ActionRules<Extract<Action, { type: 'give' }>> = {
  describe: (a) => `giving ${a.count} ${a.object} to ${a.to}`,
  budget: { steps: 20, timeMs: 60_000 },
  tracked: true,
  requires: (a) => [
    { kind: 'items', items: { [a.object]: a.count }, doing: `give ${a.count} ${a.object} to ${a.to}` },
    { kind: 'player', name: a.to },
  ],
  changes: (a) => ({ inventory: { [a.object]: -a.count } }),
}
