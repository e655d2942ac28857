/**
 * Rules of `hide()`: nothing to hold (the seal block comes from the inventory or from the hole itself, checked when it
 * runs); it digs at the bot's feet, so the protected areas and blocks players placed under it are refused. Its budget
 * is a whole night: it waits for the morning.
 */
import type { Action } from '../schemas/action.js'
import { placedFloorProblem, protectedProblem } from './policy.js'
import type { ActionRules } from './types.js'

export const hideRules: ActionRules<Extract<Action, { type: 'hide' }>> = {
  describe: () => 'hiding in the ground until morning',
  budget: { steps: 60, timeMs: 660_000 },
  requires: () => [],
  changes: () => ({ inventory: {}, uncertain: ['dirt', 'cobblestone'] }),
  policy: (_a, view) => protectedProblem(view, 'dig') ?? placedFloorProblem(view),
}
