/** Rules of `go_up(tool)`: the named tool held. */
import type { Action } from '../schemas/action.js'
import { toolNeed } from './tool.js'
import type { ActionRules } from './types.js'

export const goUpRules: ActionRules<Extract<Action, { type: 'go_up' }>> = {
  describe: (_a) => 'going back up',
  budget: { steps: 50, timeMs: 90_000 },
  requires: (a) => toolNeed(a.tool, 'climb up'),
  changes: () => ({ inventory: {} }),
}
