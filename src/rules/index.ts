/**
 * The rule book: one rules module per action type (this folder), each saying as data and small pure functions what
 * the action requires and what it changes, plus the safety policy (policy.ts). `RULES` is typed over every
 * ActionType, so a new action does not typecheck until it has a rules file. The critic, the patroller, the dry run,
 * the simulated test world and the sub-goal runner ask this book; each keeps only what is its own.
 */
import type { Knowledge } from '../knowledge/index.js'
import type { Action } from '../schemas/action.js'
import { applyRules } from './apply.js'
import { approachRules } from './approach.js'
import { attackRules } from './attack.js'
import { buildRules, shippedBlueprints } from './build.js'
import { depositRules, withdrawRules } from './chest.js'
import { craftRules, tableNeed } from './craft.js'
import { digDownRules } from './dig_down.js'
import { equipRules } from './equip.js'
import { exploreRules } from './explore.js'
import { giveRules } from './give.js'
import { goUpRules } from './go_up.js'
import { hideRules } from './hide.js'
import { gotoRules } from './goto.js'
import { guardRules } from './guard.js'
import { mineRules } from './mine.js'
import { placeRules } from './place.js'
import { furnaceNeed, smeltRules } from './smelt.js'
import {
  judge,
  judgeAll,
  shortfall,
  stationNames,
  type ActionRules,
  type Change,
  type Need,
  type PolicyView,
  type RuleBook,
  type RuleContext,
  type RuleWorld,
  type Verdict,
} from './types.js'

export const RULES: RuleBook = {
  equip: equipRules,
  explore: exploreRules,
  approach: approachRules,
  mine: mineRules,
  attack: attackRules,
  dig_down: digDownRules,
  go_up: goUpRules,
  hide: hideRules,
  craft: craftRules,
  smelt: smeltRules,
  apply: applyRules,
  place: placeRules,
  build: buildRules,
  give: giveRules,
  goto: gotoRules,
  deposit: depositRules,
  withdraw: withdrawRules,
  guard: guardRules,
}

/** The rule book's station needs, as a craft and a smelt have them. */
const STATION_NEEDS: readonly Need[] = [tableNeed(''), furnaceNeed('')]

/** The work stations of the rule book (crafting table, furnace): used where they stand, picked back up after. */
export const STATIONS: readonly string[] = stationNames(STATION_NEEDS)

/** The stations `w` holds none of but has at hand (its station need met where they stand). */
export function stationsAtHand(w: RuleWorld, kb: Knowledge): string[] {
  return STATION_NEEDS.flatMap((n) =>
    n.kind === 'station' && w.count(n.name) === 0 && shortfall(n, w, kb).length === 0 ? [n.name] : [],
  )
}

/** A rule context with the shipped blueprints (or only those named, e.g. the critic's configured list). */
export function ruleContext(
  kb: Knowledge,
  blueprints?: string[] | Record<string, Record<string, number>>,
): RuleContext {
  const all = shippedBlueprints()
  if (blueprints === undefined) return { kb, blueprints: all }
  if (Array.isArray(blueprints)) return { kb, blueprints: Object.fromEntries(blueprints.map((n) => [n, all[n] ?? {}])) }
  return { kb, blueprints }
}

function rulesOf<A extends Action>(a: A): ActionRules<A> {
  return RULES[a.type] as unknown as ActionRules<A>
}

/** The action's short phrase for messages ("mining 3 iron_ore"). */
export function describeAction(a: Action): string {
  return rulesOf(a).describe(a)
}

export function requires(a: Action, ctx: RuleContext): Need[] {
  return rulesOf(a).requires(a, ctx)
}
export function changes(a: Action, ctx: RuleContext): Change {
  return rulesOf(a).changes(a, ctx)
}

/** The first unmet requirement of `a` in world `w`, as a fixed reason and a sentence. */
export function check(a: Action, ctx: RuleContext, w: RuleWorld): Verdict {
  return judge(requires(a, ctx), w, ctx.kb)
}
/** The safety policy for `a`: why it must never run (reason `unsafe`), or null. */
export function policy(a: Action, view: PolicyView, ctx: RuleContext): string | null {
  return rulesOf(a).policy?.(a, view, ctx) ?? null
}

/** Every unmet requirement of `a` in world `w`. */
export function checkAll(a: Action, ctx: RuleContext, w: RuleWorld): ReturnType<typeof judgeAll> {
  return judgeAll(requires(a, ctx), w, ctx.kb)
}

export {
  LEFT_STATION_REACH,
  STATION_REACH,
  fmtItems,
  inventoryWorld,
  judge,
  judgeAll,
  noToolMessage,
  shortfall,
  stationNames,
} from './types.js'
export type { ActionRules, Change, Need, PlacedView, PolicyView, RuleContext, RuleWorld, Verdict } from './types.js'
export { planView } from './policy.js'
