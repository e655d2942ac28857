/** Rules of `approach(object)`: the target must be in sight; pick-ups lying near it may come with going there. */
import type { Action } from '../schemas/action.js'
import { pickUpsNear } from './explore.js'
import type { ActionRules } from './types.js'

export const approachRules: ActionRules<Extract<Action, { type: 'approach' }>> = {
  describe: (a) => `approaching ${a.object}`,
  budget: { steps: 20, timeMs: 60_000 },
  tracked: true,
  requires: (a) => [{ kind: 'sight', object: a.object, anyOf: [a.object] }],
  changes: (a, ctx) => ({ inventory: {}, uncertain: pickUpsNear(ctx, a.object) }),
}
