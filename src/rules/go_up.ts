/** Rules of `go_up(tool)`: the named tool held. */
import type { Action } from '../schemas/action.js'
import { toolNeed } from './tool.js'
import type { ActionRules } from './types.js'

export const goUpRules: ActionRules<Extract<Action, { type: 'go_up' }>> = {
  requires: (a) => toolNeed(a.tool, 'climb up'),
  changes: () => ({ inventory: {} }),
}
