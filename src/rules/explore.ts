/**
 * Rules of `explore(object, strategy)`: nothing is required up front (the world decides whether the thing is out
 * there); what can be picked up near the found thing (eggs by chickens) may come with it.
 */
import { type Action, describeSearch } from '../schemas/action.js'
import type { ActionRules, RuleContext } from './types.js'

/** Items lying near `object` that going there may pick up (data/knowledge world.json `collect`). */
export function pickUpsNear(ctx: RuleContext, object: string): string[] {
  return ctx.kb.data.world.collect.filter((c) => c.near === object).map((c) => c.item)
}

export const exploreRules: ActionRules<Extract<Action, { type: 'explore' }>> = {
  describe: (a) => `exploring (${a.strategy}) for ${describeSearch(a)}`,
  // underground, a branch-mining search digs two blocks per step at about two seconds a step
  budget: { steps: 900, timeMs: 180_000 },
  tracked: true,
  // a search stopped at a drop or at lava turns another way (the corridor or cave walk counts as blocked)
  detours: 6,
  requires: () => [],
  changes: (a, ctx) => ({ inventory: {}, uncertain: pickUpsNear(ctx, a.object) }),
}
