/**
 * Rules of `goto(x, y, z)`: nothing to hold and nothing changed in the inventory; the only thing that can make it
 * wrong is an unreachable spot, which only the walk itself finds out (`no_path` with the distance left).
 */
import type { Action } from '../schemas/action.js'
import type { ActionRules } from './types.js'

export const gotoRules: ActionRules<Extract<Action, { type: 'goto' }>> = {
  describe: (a) => `going to ${a.x} ${a.y} ${a.z}`,
  budget: { steps: 60, timeMs: 300_000 },
  tracked: true,
  requires: () => [],
  changes: () => ({ inventory: {} }),
}
