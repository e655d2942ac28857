/** Rules of `approach(object)`: the target must be in sight; pick-ups lying near it may come with going there. */
import type { Action } from '../schemas/action.js'
import { pickUpsNear } from './explore.js'
import type { ActionRules } from './types.js'

export const approachRules: ActionRules<Extract<Action, { type: 'approach' }>> = {
  requires: (a) => [{ kind: 'sight', object: a.object, anyOf: [a.object] }],
  changes: (a, ctx) => ({ inventory: {}, uncertain: pickUpsNear(ctx, a.object) }),
}
