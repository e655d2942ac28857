/**
 * Route feedback for the planner (GITM's "mark the failed route costly"): a `RouteBias` says which world routes
 * failed during this goal (a mine, hunt, apply or collect source that found nothing within its budget) and which
 * blocks and mobs are in sight now. The cost model (src/knowledge/cost.ts) and the decomposer read it, so a failed
 * route loses to any alternative the game data offers (coal → charcoal from any log, oak → any other log: recipes and
 * smelting already list each accepted variant), a route whose block is in sight wins over one that must be searched,
 * and a crafting table or furnace within reach is used where it stands instead of being made again.
 * Keys are the same for sources (this module's `sourceRouteKeys`) and for the sub-goals they become (`stepRouteKeys`).
 */
import type { SubGoal } from '../schemas/subgoal.js'
import type { Source } from './sources.js'

export interface RouteBias {
  /** route key → how often it failed during this goal */
  failed: ReadonlyMap<string, number>
  /** block and mob names in sight now */
  seen: ReadonlySet<string>
  /** work stations (crafting table, furnace) standing within reach: used where they stand instead of obtained */
  stations: ReadonlySet<string>
}

export const NO_BIAS: RouteBias = { failed: new Map(), seen: new Set(), stations: new Set() }

/**
 * Extra estimated steps per failure of a route, about two furnaces from nothing (one is about 160): an alternative
 * that needs a furnace and a smelt (charcoal for coal) or another wood wins over a failed search, while a far costlier
 * one (hunting a rare drop for iron) loses to searching again; finite, so a failed route is tried again when nothing
 * else exists.
 */
export const FAILED_ROUTE_COST = 300
/** Steps to find one unit of a block or mob that is in sight: walking to it. */
export const SEEN_FIND_COST = 1

/** Route keys of a source: one per block a mine source digs (ore and its deepslate twin), mob, tool use or pick-up. */
export function sourceRouteKeys(s: Source): string[] {
  switch (s.kind) {
    case 'mine':
      return [s.block, ...s.also].map((b) => `mine:${b}`)
    case 'hunt':
      return [`hunt:${s.mob}`]
    case 'apply':
      return [`apply:${s.spec.tool}:${s.spec.target}`]
    case 'collect':
      return [`collect:${s.spec.near}`]
    default:
      return []
  }
}

/** Route keys of a decomposed sub-goal (the same keys as the source it came from). */
export function stepRouteKeys(step: SubGoal): string[] {
  switch (step.kind) {
    case 'mine':
      return step.mine.blocks.map((b) => `mine:${b}`)
    case 'hunt':
      return [`hunt:${step.hunt.mob}`]
    case 'apply':
      return [`apply:${step.apply.tool}:${step.apply.target}`]
    case 'collect':
      return [`collect:${step.collect.near}`]
    default:
      return []
  }
}

/** Extra cost of a source for its failures (the worst of its keys). */
export function failurePenalty(s: Source, bias: RouteBias): number {
  let worst = 0
  for (const k of sourceRouteKeys(s)) worst = Math.max(worst, bias.failed.get(k) ?? 0)
  return worst * FAILED_ROUTE_COST
}

/** Whether the block(s) or mob of a mine/hunt source are in sight. */
export function sourceSeen(s: Source, bias: RouteBias): boolean {
  if (s.kind === 'mine') return bias.seen.has(s.block) || s.also.some((b) => bias.seen.has(b))
  if (s.kind === 'hunt') return bias.seen.has(s.mob)
  return false
}

/** Add one failure of each key to a mutable failure map. */
export function markFailed(failed: Map<string, number>, keys: readonly string[]): void {
  for (const k of keys) failed.set(k, (failed.get(k) ?? 0) + 1)
}
