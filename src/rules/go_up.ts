/** Rules of `go_up(tool)`: the named tool held. */
import type { Action } from '../schemas/action.js'
import { toolNeed } from './tool.js'
import type { ActionRules } from './types.js'

export const goUpRules: ActionRules<Extract<Action, { type: 'go_up' }>> = {
  describe: (_a) => 'going back up',
  // a step per level pillared and per block dug on the way: from a diamond level (y -53) to the surface (y ~70) is
  // 120 levels, one every 0.5–0.7 s in the bot's own shaft, up to three steps a level through rock (it was 50 steps:
  // every climb from below y 20 ran out, bench:mp5 p1)
  budget: { steps: 400, timeMs: 240_000 },
  requires: (a) => toolNeed(a.tool, 'climb up'),
  changes: () => ({ inventory: {} }),
}
