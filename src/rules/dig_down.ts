/**
 * Rules of `dig_down(ylevel, tool, watch)`: the named tool held; the inventory change (what is dug on the way) is the
 * world's.
 */
import type { Action } from '../schemas/action.js'
import { toolNeed } from './tool.js'
import { placedFloorProblem, protectedProblem } from './policy.js'
import type { ActionRules } from './types.js'

export const digDownRules: ActionRules<Extract<Action, { type: 'dig_down' }>> = {
  describe: (a) => `digging down to y ${a.ylevel}${a.watch ? ` (watching for ${a.watch})` : ''}`,
  budget: { steps: 200, timeMs: 120_000 },
  tracked: true,
  // stopped at a cave's edge on the way round it, the shaft tries another side or the pathfinder's way down
  detours: 2,
  requires: (a) => toolNeed(a.tool, 'dig down'),
  changes: () => ({ inventory: {} }),
  policy: (_a, view) => protectedProblem(view, 'dig') ?? placedFloorProblem(view),
}
