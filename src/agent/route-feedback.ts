/**
 * The executor's memory of how a goal's routes went (GITM's feedback for re-decomposition): which world routes failed
 * (a sub-goal that found nothing within its attempts), what is in sight, and how many deaths the goal has survived.
 * It decomposes with that bias (src/knowledge/routes.ts), so the next decomposition takes another way when the game
 * data offers one (charcoal for coal, another wood for oak); it gives a route a single attempt when a cheap other way
 * exists; it tells the executor to give up when a route that failed twice comes back first (there is no other); and
 * it reports the crafting table and furnace standing within reach, which the plan uses instead of making new ones.
 */
import type { Knowledge } from '../knowledge/index.js'
import { markFailed, type RouteBias, stepRouteKeys } from '../knowledge/routes.js'
import { stationsAtHand } from '../rules/index.js'
import type { Goal } from '../schemas/goal.js'
import type { Decomposition, SubGoal } from '../schemas/subgoal.js'
import { liveWorld } from './patroller.js'
import type { Hands, Senses } from './ports.js'
import { OFFLINE_ATTEMPTS, type SubGoalOutcome } from './subgoal-runner.js'

/** An other way costing at most this many more estimated steps is "cheap": the current route then gets one attempt. */
export const CHEAP_ALTERNATIVE_STEPS = 50
/** Route failures one goal may re-plan around before it reports the failure. */
export const MAX_ROUTE_FAILURES = 6
/** How often one route may fail before its coming back first (no better way known) ends the goal. */
export const ROUTE_TRIES = 2
/** Deaths one goal re-plans after (from the new inventory) before it reports the death. */
export const MAX_DEATHS = 3

const sameKeys = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((k, i) => k === b[i])

export class RouteFeedback {
  private readonly failed = new Map<string, number>()
  private lastFailed: { keys: string[]; out: SubGoalOutcome } | null = null
  private failures = 0
  private deaths = 0
  private bias: RouteBias = { failed: this.failed, seen: new Set(), stations: new Set() }

  constructor(
    private readonly kb: Knowledge,
    private readonly hands: Hands,
    private readonly senses: Senses,
    private readonly goal: Goal,
  ) {}

  /**
   * Stations not carried but standing within reach (the rule book's STATION_REACH), or left standing by the bot within
   * LEFT_STATION_REACH (the craft walks back to it), usable where they stand.
   */
  stationsNear(): string[] {
    return stationsAtHand(liveWorld(this.senses, this.hands.state().inventory), this.kb)
  }

  /** Decompose the goal from `inventory`: failed routes costly, blocks in sight cheap, stations within reach used. */
  decompose(inventory: Record<string, number>): Decomposition {
    const stations = new Set(this.stationsNear())
    this.bias = { failed: this.failed, seen: new Set(this.hands.nearbyBlocks()), stations }
    return this.kb.decompose(this.goal, inventory, this.bias)
  }

  /**
   * The failure to report when the route that just failed is again the first step (no better way is known) and has
   * used its tries; before that it is searched again, from wherever the bot now is.
   */
  noOtherWay(next: SubGoal | undefined): SubGoalOutcome | null {
    const last = this.lastFailed
    this.lastFailed = null
    if (!last || !next || !sameKeys(stepRouteKeys(next), last.keys)) return null
    return Math.max(...last.keys.map((k) => this.failed.get(k) ?? 0)) >= ROUTE_TRIES ? last.out : null
  }

  /** Attempts without progress `step` gets: one when a cheap way around it exists (tried next), else the default. */
  attemptsFor(step: SubGoal, dec: Decomposition, inventory: Record<string, number>): number {
    const keys = stepRouteKeys(step)
    if (keys.length === 0 || !dec.ok) return OFFLINE_ATTEMPTS
    const trial = new Map(this.failed)
    markFailed(trial, keys)
    const alt = this.kb.decompose(this.goal, inventory, { ...this.bias, failed: trial })
    if (!alt.ok || alt.steps.some((s) => sameKeys(stepRouteKeys(s), keys))) return OFFLINE_ATTEMPTS
    return alt.estimatedSteps - dec.estimatedSteps <= CHEAP_ALTERNATIVE_STEPS ? 1 : OFFLINE_ATTEMPTS
  }

  /**
   * After a failed sub-goal: true when decomposing again may help — a world route that ran out of attempts (now
   * marked costly) or a death (re-plan from what is held now) — within this goal's bounds; false to report it.
   */
  replanAfter(step: SubGoal, out: SubGoalOutcome): boolean {
    if (out.reason === 'died') return this.deaths++ < MAX_DEATHS
    const keys = stepRouteKeys(step)
    if (out.via !== 'limit' || keys.length === 0 || this.failures >= MAX_ROUTE_FAILURES) return false
    this.failures++
    markFailed(this.failed, keys)
    this.lastFailed = { keys, out }
    return true
  }
}
