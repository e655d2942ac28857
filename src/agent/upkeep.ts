/**
 * What a find does for the bot itself before it searches on: a weapon before searching in the dark (zombies walk the
 * surface at night and a fist does 1 of their 20 health), and food when it is hungry with nothing to eat (a long
 * search at a sprint empties the food bar in a few minutes, healing after a fight costs food too, and at 0 the bot
 * starves down to one heart, where the next zombie kills it). Each is a normal obtain goal with a share of the time
 * left, run through the `obtain` callback (the executor's runGoal; passed in, so this module does not import it).
 */
import type { Knowledge } from '../knowledge/index.js'
import { bestWeaponOf, eats, FIRST_WEAPON } from '../rules/policy.js'
import type { BotState } from '../schemas/action.js'
import { Goal, type Conditions } from '../schemas/goal.js'
import type { GoalContext, GoalDeps, GoalOutcome } from './executor.js'
import type { Senses } from './ports.js'
import { AbortedError, isAbort } from '../util/errors.js'
import { cutSignal } from '../util/async.js'

export const NO_CONDITIONS: Conditions = { biome: null, time: null, weather: null, near: null, brightness: null }
/** Upkeep leaves at least this much of a find's time for the search itself. */
const UPKEEP_SHARE = 1 / 3
const ARM_MAX_MS = 120_000
const FEED_MAX_MS = 60_000
const UPKEEP_MIN_MS = 10_000
/** How often an upkeep goal looks whether to stop early: a hunt whether the eating reflex has fed the bot, an arming
 * whether its caller gave it up. */
const CHECK_MS = 500
/**
 * Food (of 20) at or below which a bot with nothing to eat hunts before searching on: below 18 it no longer heals,
 * at SPRINT_FOOD (rules/policy.ts) it can no longer sprint. Half the bar leaves time for the hunt.
 */
export const HUNGRY_FOOD = 10
/**
 * Food at or below which a search is cut short for a hunt (hunger hurts at 0). Not sooner: with no sprinting at 6 or
 * less the bar hardly falls (walking costs nothing), and a hunt of about 60 s buys about 70 s of sprinting, which
 * saves some 16 s of walking (mp5 c7 2-3 seed 3 hunted at food 6 for 60 s and was back at 6 55 s later).
 */
export const STARVING_FOOD = 3
/** Food items hunted at a time: two of the meats restore 4–6 points. */
const FOOD_COUNT = 2
/** A mob is hunted for a food it drops at least this often per kill (not a zombie's rare carrot). */
const MIN_YIELD = 0.5

export type Obtain = (goal: Goal, deps: GoalDeps, ctx: GoalContext) => Promise<GoalOutcome>

function budgetMs(deadline: number, maxMs: number): number {
  const ms = Math.min(maxMs, (deadline - Date.now()) * UPKEEP_SHARE)
  return ms < UPKEEP_MIN_MS ? 0 : ms
}

/**
 * An unarmed bot about to search in the dark first makes the weapon any wood makes (logs, planks, a table, sticks),
 * so the combat reflex fights instead of running from every zombie until it dies. True when it tried. `giveUp`, asked
 * every CHECK_MS, cuts the arming short (zombies came while it went for wood: mp5 c21 2-2 seed 2 at a night start
 * fled from them for its whole 120 s of arming, then died as it dug in at 6 health); the caller hides or searches.
 */
export async function armForTheDark(
  object: string,
  deps: GoalDeps,
  ctx: GoalContext,
  deadline: number,
  obtain: Obtain,
  giveUp: () => boolean = () => false,
): Promise<boolean> {
  if (bestWeaponOf(Object.keys(deps.hands.state().inventory)) !== null) return false
  const dark = (['night', 'dusk'] as const).some(
    (time) => deps.senses.checkConditions({ ...NO_CONDITIONS, time }, object).met,
  )
  const ms = budgetMs(deadline, ARM_MAX_MS)
  if (!dark || ms === 0) return false
  const arming = cutSignal(ctx.signal, ms, new AbortedError('arming time budget'), {
    check: giveUp,
    everyMs: CHECK_MS,
    reason: new AbortedError('arming given up'),
  })
  try {
    const goal = Goal.parse({ object: FIRST_WEAPON, count: 1 })
    await obtain(goal, { ...deps, goalTimeBudgetMs: ms }, { ...ctx, signal: arming.signal })
  } catch (err) {
    if (ctx.signal.aborted || !isAbort(err)) throw err
  } finally {
    arming.done()
  }
  return true
}

/** What a hunt gets, and from which animal. */
export interface Hunt {
  item: string
  mob: string
}

/** Food the eating reflex eats (rules/policy.ts `eats`, from the knowledge's food points). */
const edibleBy =
  (kb: Knowledge) =>
  (item: string): boolean =>
    eats(item, kb.foodPoints(item))

/** Hungry (food at or below HUNGRY_FOOD) with nothing edible carried (the eating reflex eats what is). */
function needsFood(kb: Knowledge, state: Pick<BotState, 'food' | 'inventory'>): boolean {
  return state.food <= HUNGRY_FOOD && !Object.keys(state.inventory).some(edibleBy(kb))
}

/**
 * The food to hunt now: none while food is above HUNGRY_FOOD or something edible is carried (the eating reflex eats
 * it); else the edible drop of the nearest animal in sight (cow → beef, pig → porkchop …, from the game data's loot
 * tables; one most kills give), never one the eating reflex will not eat, and never the `spare` creature (the one a
 * find is looking for). Null when no such animal is in sight: the bot does not wander
 * off for food, it looks again after the next search.
 */
export function foodToHunt(
  kb: Knowledge,
  state: Pick<BotState, 'food' | 'inventory'>,
  senses: Pick<Senses, 'nearestVisible'>,
  spare: string | null = null,
): Hunt | null {
  if (!needsFood(kb, state)) return null
  let best: (Hunt & { d: number }) | null = null
  for (const item of kb.foods().filter(edibleBy(kb)))
    for (const { mob, yieldPer } of kb.mobsFor(item)) {
      if (yieldPer < MIN_YIELD || mob === spare) continue
      const d = senses.nearestVisible(mob)
      if (d !== null && (best === null || d < best.d)) best = { item, mob, d }
    }
  return best && { item: best.item, mob: best.mob }
}

/**
 * A hungry bot with nothing to eat hunts the nearest animal in sight for food (foodToHunt), sparing `spare`. The hunt
 * ends once food is above HUNGRY_FOOD: the eating reflex eats each piece as it is picked up, so the hunt's count
 * of FOOD_COUNT in the bag is never met while the bot is hungry, and it would search on for more animals until its
 * time ran out; it also ends after FEED_MAX_MS (the obtain checks its budget between plans only, and an explore for
 * the next animal ran 103 s in mp5 4-3 seed 3). `spotted`: the hunt foodToHunt chose a moment ago, when a search
 * was cut short for it (the animal can have slipped out of sight as the bot stopped; the hunt's own explore finds it
 * again). True when it tried.
 */
export async function feedIfHungry(
  deps: GoalDeps,
  ctx: GoalContext,
  deadline: number,
  obtain: Obtain,
  spare: string | null = null,
  spotted: Hunt | null = null,
): Promise<boolean> {
  const state = deps.hands.state()
  const hunt = foodToHunt(deps.kb, state, deps.senses, spare) ?? (spotted && needsFood(deps.kb, state) ? spotted : null)
  const ms = budgetMs(deadline, FEED_MAX_MS)
  if (!hunt || ms === 0) return false
  ctx.progress({
    kind: 'progress',
    taskId: ctx.taskId,
    message: `hungry (food ${state.food}) with nothing to eat: getting ${hunt.item} from the ${hunt.mob} in sight`,
    subgoals: [{ id: 'food', label: `get ${FOOD_COUNT} ${hunt.item}`, status: 'running', depth: 0 }],
    done: 0,
    total: 1,
  })
  const fed = cutSignal(ctx.signal, ms, new AbortedError('hunt time budget'), {
    check: () => deps.hands.state().food > HUNGRY_FOOD,
    everyMs: CHECK_MS,
    reason: new AbortedError('fed'),
  })
  try {
    const goal = Goal.parse({ object: hunt.item, count: FOOD_COUNT })
    await obtain(goal, { ...deps, goalTimeBudgetMs: ms }, { ...ctx, signal: fed.signal })
  } catch (err) {
    if (ctx.signal.aborted || !isAbort(err)) throw err
  } finally {
    fed.done()
  }
  return true
}
