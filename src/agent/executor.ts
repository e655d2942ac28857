/**
 * The goal executor: carries one goal to a verified end. Obtain-goals are decomposed from the *current* inventory,
 * the first sub-goal of the post-order list is run (subgoal-runner.ts), and the goal is decomposed again — so items
 * that vanish mid-task (a `/clear`, a death) show up as a shortfall and their sub-goals are re-planned without a
 * player's help. A world route that fails (nothing found within its attempts) is marked costly and the goal decomposed
 * again, so another way the game data offers is taken (src/agent/route-feedback.ts); so is a death, from what is held
 * after it. Find-goals (MP5's context-dependent goals) explore until the object is in sight and every condition
 * holds at once, or report which condition could not be met; between searches a find arms and feeds the bot
 * (upkeep.ts) and hides from a night it cannot use. "Done" is only reported with a verification line.
 */
import type { Knowledge } from '../knowledge/index.js'
import type { SubGoalProgress, ProgressSink } from '../schemas/task.js'
import type { Action, ActionResult, Feedback } from '../schemas/action.js'
import type { Goal } from '../schemas/goal.js'
import type { Decomposition, SubGoal } from '../schemas/subgoal.js'
import { AbortedError } from '../util/errors.js'
import { cutSignal, sleep } from '../util/async.js'
import type { Senses } from './ports.js'
import { RouteFeedback } from './route-feedback.js'
import { armForTheDark, feedIfHungry, foodToHunt, type Hunt, NO_CONDITIONS, STARVING_FOOD } from './upkeep.js'
import { bestWeaponOf } from '../rules/policy.js'
import { stationsAhead, subGoalStations } from './subgoal-needs.js'
import { INPUTS_LOST, runSubGoal, type SubGoalDeps, type SubGoalOutcome } from './subgoal-runner.js'

export interface GoalDeps extends SubGoalDeps {
  senses: Senses
  goalTimeBudgetMs: number
}
export interface GoalContext {
  player: string
  requestId: string
  taskId: string
  signal: AbortSignal
  progress: ProgressSink
}
export interface GoalOutcome {
  ok: boolean
  message: string
  verification: string | null
  llmCalls: number
  subGoalsRun: number
}

/** Safety bound on sub-goal runs per goal: re-planning after losses may add some, never without end. */
const MAX_SUBGOAL_RUNS = 60

const label = (s: SubGoal): string => `${s.kind} ${s.goal.count} ${s.goal.object}`

export function isFindGoal(goal: Goal, kb: Knowledge): boolean {
  return goal.conditions !== null || (kb.isEntity(goal.object) && !kb.isItem(goal.object))
}

export async function runGoal(goal: Goal, deps: GoalDeps, ctx: GoalContext): Promise<GoalOutcome> {
  const deadline = Date.now() + deps.goalTimeBudgetMs
  const history: Feedback[] = []
  const onAction = (f: Feedback): void =>
    ctx.progress({
      kind: 'action',
      taskId: ctx.taskId,
      action: f.action.type,
      ok: f.result.ok,
      reason: f.result.reason,
      message: f.result.message,
    })
  const meta = { player: ctx.player, requestId: ctx.requestId, signal: ctx.signal, deadline, onAction, history }
  if (isFindGoal(goal, deps.kb)) return runFind(goal, deps, ctx, meta)

  const done: SubGoalProgress[] = []
  // Ids stay the same while a step waits, runs and ends (the web page follows each node's states by id).
  const idOf = (s: SubGoal): string => {
    const l = label(s)
    return `${l}#${done.filter((d) => d.label === l).length}`
  }
  let tree: SubGoalProgress[] = []
  const say = (message: string, subgoals: SubGoalProgress[], doneCount: number, total: number): void =>
    ctx.progress({ kind: 'progress', taskId: ctx.taskId, message, subgoals, done: doneCount, total })
  const goalMeta = {
    ...meta,
    onPlan: (p: { attempt: number; via: string; actions: Array<{ type: string }> }): void => {
      const what = tree.find((t) => t.status === 'running')?.label ?? goal.object
      const message = `${p.attempt === 0 ? 'plan' : `re-plan ${p.attempt}`} for ${what} (${p.via}): ${p.actions.map((a) => a.type).join(', ')}`
      say(message, tree, done.length, tree.length)
    },
  }
  let llmCalls = 0
  const routes = new RouteFeedback(deps.kb, deps.hands, deps.senses, goal)
  for (let runs = 0; runs < MAX_SUBGOAL_RUNS; runs++) {
    if (ctx.signal.aborted) throw new AbortedError('task')
    const state = deps.hands.state()
    const dec = routes.decompose(state.inventory)
    if (!dec.ok) return { ...cannotGet(goal, dec), llmCalls, subGoalsRun: runs }
    const refused = refusal(goal, dec, routes)
    if (refused) return { ...refused, llmCalls, subGoalsRun: runs }
    const next = dec.steps[0]
    tree = [
      ...done,
      ...dec.steps.map((s, i) => ({
        id: idOf(s),
        label: label(s),
        status: i === 0 ? ('running' as const) : ('pending' as const),
        depth: 0,
      })),
    ]
    say(next ? `working on ${label(next)}` : 'checking the result', tree, done.length, tree.length)
    if (!next) {
      const v = deps.patroller.verificationLine(goal.object, goal.count, state)
      const message = v.ok ? `Done: ${goal.count} ${goal.object}.` : `I could not confirm ${goal.object}: ${v.line}.`
      return { ok: v.ok, message, verification: v.line, llmCalls, subGoalsRun: runs }
    }
    const maxStalled = routes.attemptsFor(next, dec, state.inventory)
    const out = await runSubGoal(next, deps, {
      ...goalMeta,
      maxStalled,
      stationsNear: () => routes.stationsNear(),
      keepAfter: stationsAhead(dec.steps.slice(1), subGoalStations),
    })
    llmCalls += out.llmCalls
    done.push({ id: idOf(next), label: label(next), status: out.ok ? 'done' : 'failed', depth: 0 })
    if (!out.ok && out.via === INPUTS_LOST) continue // items vanished: decompose again from what is held now
    if (!out.ok && routes.replanAfter(next, out)) {
      // after a death, go back for the drops if worth it; the next decomposition counts whatever was regained
      const back = out.reason === 'died' ? await deps.hands.recoverDrops?.(ctx.signal) : undefined
      if (back) say(back.message, done, done.length, done.length)
      say(`${label(next)} failed (${out.reason ?? out.via}); planning another way`, done, done.length, done.length)
      continue
    }
    if (!out.ok) {
      say(`failed: ${label(next)}`, done, done.length - 1, done.length)
      return { ...failedOn(goal, out), llmCalls, subGoalsRun: runs + 1 }
    }
  }
  const message = `I gave up on ${goal.object}: more than ${MAX_SUBGOAL_RUNS} sub-goals were needed.`
  return { ok: false, message, verification: null, llmCalls, subGoalsRun: MAX_SUBGOAL_RUNS }
}

type GoalEnd = Omit<GoalOutcome, 'llmCalls' | 'subGoalsRun'>

function failedOn(goal: Goal, out: SubGoalOutcome): GoalEnd {
  const message = `I could not finish ${goal.count} ${goal.object}: ${out.message.replace(/\.+$/, '')}.`
  return { ok: false, message, verification: null }
}

function cannotGet(goal: Goal, dec: Extract<Decomposition, { ok: false }>): GoalEnd {
  return { ok: false, message: `I can't get ${goal.object}: ${dec.reason}`, verification: null }
}

/** Why the goal ends before its next step: it needs an enchanted tool, or the route that just failed is the only way. */
function refusal(goal: Goal, dec: Extract<Decomposition, { ok: true }>, routes: RouteFeedback): GoalEnd | null {
  const enchant = dec.steps.find((s) => s.kind === 'enchant')
  if (enchant?.kind === 'enchant')
    return { ok: false, message: cannotEnchant(goal.object, enchant.enchant), verification: null }
  const again = routes.noOtherWay(dec.steps[0])
  return again ? failedOn(goal, again) : null
}

/** The answer for a goal whose plan needs an enchanted tool: the bot has no enchanting action yet. */
function cannotEnchant(object: string, e: Extract<SubGoal, { kind: 'enchant' }>['enchant']): string {
  const what = e.enchantment.replace(/_/g, ' ')
  return (
    `I can't get ${object} yet: it needs a tool with ${what}, which takes an ${e.station} with ${e.bookshelves} bookshelves and ` +
    `about ${e.attempts} tries (${e.lapis} lapis, ${e.experience} experience points), and I cannot enchant yet.`
  )
}

/** How often an action cut off by an `until` condition looks at it. */
const UNTIL_POLL_MS = 1000

/**
 * One action (a find's explore or hide) cut off at the goal's deadline (its own budget may be longer), or as soon as
 * `until` holds (polled every UNTIL_POLL_MS: something the find must see to first); a stop request still aborts.
 * Returns its result, or null when no time is left.
 */
async function actUntilDeadline(
  action: Action,
  deps: GoalDeps,
  ctx: GoalContext,
  meta: Parameters<typeof runSubGoal>[2],
  until: () => boolean = () => false,
): Promise<ActionResult | null> {
  const remainingMs = meta.deadline - Date.now()
  if (remainingMs <= 0) return null
  const cut = cutSignal(ctx.signal, remainingMs, new AbortedError('goal time budget'), {
    check: until,
    everyMs: UNTIL_POLL_MS,
    reason: new AbortedError('upkeep'),
  })
  let r
  try {
    r = await deps.hands.execute(action, cut.signal)
  } finally {
    cut.done()
  }
  if (ctx.signal.aborted) throw new AbortedError('task')
  meta.onAction({ action, result: r, state: deps.hands.state() })
  return r
}

/** What a find explores for: the object, and the thing it must be near and the biome to search in, if any. */
type Search = Pick<Extract<Action, { type: 'explore' }>, 'object' | 'near' | 'biome'>

/**
 * Explore until the deadline or until `until` holds; the message of an `invalid` failure (no search will ever find
 * it).
 */
async function exploreUntilDeadline(
  search: Search,
  deps: GoalDeps,
  ctx: GoalContext,
  meta: Parameters<typeof runSubGoal>[2],
  until?: () => boolean,
): Promise<string | null> {
  const r = await actUntilDeadline({ type: 'explore', strategy: 'surface', ...search }, deps, ctx, meta, until)
  return r && !r.ok && r.reason === 'invalid' ? r.message : null
}

/** A find arms itself (upkeep.ts) at most this often (a death loses the weapon), and hunts for food at most this often. */
const ARM_TRIES = 2
const FEED_TRIES = 3
/** A find tries to hide for the night at most this often (a failed hide, e.g. nothing to seal with, is retried once
 * after the search has gathered something). */
const HIDE_TRIES = 2
/**
 * Hides cut short `unsafe` (a zombie came at the bot as it dug in: the combat reflex fought it or ran) that do not
 * count against HIDE_TRIES, as a flight does not use up a route's try (UNSAFE_RETRIES): the night is still there, and
 * so are the zombies (mp5 c19 2-3 seed 1: both hides ended "I fought back against zombie" at 124 and 127 s, and
 * the search went on at night until the zombies killed it at 158 s).
 */
const HIDE_UNSAFE_RETRIES = 4
/**
 * In the dark at or below this health (of 20), a find that does not need the night hides too: the zombies that
 * gather at night kill a bot this low within seconds, a wooden sword does not hold them off and running does not
 * shake them (mp5 2-3 at night: from 20 to 6 health in 7 s among 4 zombies, dead 2 s later).
 */
const HIDE_HEALTH = 10

/**
 * A find that needs daylight in the dark, or one that does not need the night and is hurt, could not arm itself
 * (`armed` false: it tried to make a weapon and has none) or is unarmed with hostile mobs near (MOBS_NEAR): nothing
 * it finds now would count or it would not live to see it, and zombies walk the surface until morning, so it hides
 * in the ground until day (the `hide` action) instead of searching among them (mp5 2-2 seed 2 at night: every wood
 * it went for to make a sword "failed (unsafe): I ran from the zombie because I have no weapon", and it searched on
 * unarmed until a zombie killed it). False when no hide was due; else the hide's result (null: no time was left).
 */
async function hideUntilDay(
  goal: Goal,
  deps: GoalDeps,
  ctx: GoalContext,
  meta: Parameters<typeof runSubGoal>[2],
  armed: boolean,
): Promise<ActionResult | null | false> {
  if (!hideDue(goal, deps, armed)) return false
  return actUntilDeadline({ type: 'hide' }, deps, ctx, meta)
}

/**
 * Hostile mobs within this many blocks of an unarmed bot in the dark put a find that does not need the night at risk
 * at once: it hides before it tries to make a weapon among them (bench:mp5 c13 2-2 seed 2 at night, five to seven
 * zombies within 8 blocks: every log it went for ended in a flight, and it died at 57 s before its arming gave up).
 */
const MOBS_NEAR = 16

/** No weapon in the bag and hostile mobs within MOBS_NEAR. */
function cornered(deps: GoalDeps): boolean {
  const state = deps.hands.state()
  return bestWeaponOf(Object.keys(state.inventory)) === null && (deps.senses.hostilesNear?.(MOBS_NEAR) ?? 0) > 0
}

/** Whether a find should hide until day now (see hideUntilDay): it is dark, and it needs daylight or is at risk. */
function hideDue(goal: Goal, deps: GoalDeps, armed: boolean): boolean {
  const time = goal.conditions?.time ?? null
  const state = deps.hands.state()
  // cornered is asked only for a find that does not need the night (this runs every second of a search)
  const atRisk = time !== 'night' && time !== 'dusk' && (state.health <= HIDE_HEALTH || !armed || cornered(deps))
  if (time !== 'day' && !atRisk) return false
  return !deps.senses.checkConditions({ ...NO_CONDITIONS, time: 'day' }, goal.object).met
}

/** Explore until the object is seen with every condition met at once; never claims success with one unmet. */
async function runFind(
  goal: Goal,
  deps: GoalDeps,
  ctx: GoalContext,
  meta: Parameters<typeof runSubGoal>[2],
): Promise<GoalOutcome> {
  const c = goal.conditions ?? NO_CONDITIONS
  let lastUnmet: string[] = []
  let observed = ''
  let armings = 0
  let feedings = 0
  let hides = 0
  let unsafeHides = 0
  // a hide tried now, if one is due and tries are left; counted against HIDE_TRIES unless a reflex cut it short
  // (HIDE_UNSAFE_RETRIES)
  const hideIfDue = async (armedNow: boolean): Promise<void> => {
    if (hides >= HIDE_TRIES) return
    const r = await hideUntilDay(goal, deps, ctx, meta, armedNow)
    if (r === false) return
    if (r?.reason === 'unsafe' && unsafeHides++ < HIDE_UNSAFE_RETRIES) return
    hides++
  }
  // a search ends for a hunt once the bot is starving with food in sight: a biome search walks up to its whole
  // budget, and mp5 4-3 seed 3 starved there (hurt every 4 s from 192 s, sprinting) with the food only looked for
  // between searches; cut as soon as it was hungry (food 10), mp5 2-3 seed 2 hunted three times in 200 s and ran out
  // of time
  let spotted: Hunt | null = null
  const huntDue = (): boolean => {
    const state = deps.hands.state()
    if (feedings < FEED_TRIES && state.food <= STARVING_FOOD)
      spotted = foodToHunt(deps.kb, state, deps.senses, goal.object)
    return spotted !== null
  }
  // armed unless it tried to arm itself and still has no weapon
  const armed = (): boolean => armings === 0 || bestWeaponOf(Object.keys(deps.hands.state().inventory)) !== null
  // a search ends for a hide as soon as one is due, not at its end: the zombies took mp5 2-3 seed 3 from 20 to 6
  // health in one night walk to a desert, and at 6 the flee reflex ended the hide it tried then (dead at 140 s)
  const cutShort = (): boolean => huntDue() || (hides < HIDE_TRIES && hideDue(goal, deps, armed()))
  // the object in sight with every condition met: found (checked before anything else a round does, so that arming
  // or a hunt for food never walks away from, or kills, what the find was looking at)
  const foundNow = (round: number): GoalOutcome | null => {
    const seen = deps.senses.nearestVisible(goal.object, c.near)
    const check = deps.senses.checkConditions(c, goal.object)
    observed = check.observed
    lastUnmet = seen === null ? [`${goal.object} in sight`, ...check.unmet] : check.unmet
    if (seen === null || !check.met) return null
    return {
      ok: true,
      message: `Found ${goal.object}.`,
      verification: `${goal.object} in sight ${seen.toFixed(1)} blocks away; ${observed}`,
      llmCalls: 0,
      subGoalsRun: round + 1,
    }
  }
  for (let round = 0; Date.now() < meta.deadline; round++) {
    if (ctx.signal.aborted) throw new AbortedError('task')
    const before = foundNow(round)
    if (before) return before
    await hideIfDue(armed())
    // the object in sight with all but the biome met (most often: the bot stopped a block or two outside the biome's
    // edge): the biome search below goes in first, and an arming or a hunt for food now would walk away from the find
    // (bench mp5 c24 4-3 seed 1: a cow by water in sight at a desert's edge, a hunt at food 6 led the bot off, and the
    // run timed out). Not when starving: the biome search would be cut for the hunt at once, round after round
    const atEdge =
      c.biome !== null &&
      deps.hands.state().food > STARVING_FOOD &&
      deps.senses.nearestVisible(goal.object, c.near) !== null &&
      deps.senses.checkConditions({ ...c, biome: null }, goal.object).met
    // checked every round, since the night may fall during the search; a death loses the weapon, so twice at most
    // the arming ends once zombies come near (every log it goes for ends in a flight from them), or the bot is hurt
    // in the dark: a find that does not need the night hides then, one that needs it searches on
    const giveUp = (): boolean => cornered(deps) || (hides < HIDE_TRIES && hideDue(goal, deps, true))
    if (
      !atEdge &&
      armings < ARM_TRIES &&
      (await armForTheDark(goal.object, deps, ctx, meta.deadline, runGoal, giveUp))
    ) {
      armings++
      // no weapon came of it: hide now rather than search unarmed among the zombies
      if (!armed()) await hideIfDue(false)
    }
    if (
      !atEdge &&
      feedings < FEED_TRIES &&
      (await feedIfHungry(deps, ctx, meta.deadline, runGoal, goal.object, spotted))
    )
      feedings++
    spotted = null
    ctx.progress({
      kind: 'progress',
      taskId: ctx.taskId,
      message: `looking for ${goal.object}${lastUnmet.length ? ` (still unmet: ${lastUnmet.join(', ')})` : ''}`,
      subgoals: [{ id: 'find', label: `find ${goal.object}`, status: 'running', depth: 0 }],
      done: 0,
      total: 1,
    })
    const inBiome = (): boolean =>
      !c.biome || deps.senses.checkConditions({ ...NO_CONDITIONS, biome: c.biome }, goal.object).met
    // each search is decided after the one before it ended (a walk to the biome may bring the object into view);
    // with `near`, a pair is searched for (a pig in sight with no grass by it is walked past, not waited at), and
    // inside the biome asked for (a pig next to grass in a taiga is no find in a forest) — only once the bot stands
    // in it: outside, that search walks land where no sighting counts, and the biome search goes on first instead
    // (mp5 c16 2-3 seed 2: 180 s of a search for a cow in the desert, out of the desert, between two biome searches)
    const searches: Array<() => Search | null> = [
      () => (c.biome && !inBiome() ? { object: c.biome } : null),
      () =>
        deps.senses.nearestVisible(goal.object, c.near) === null && inBiome()
          ? { object: goal.object, near: c.near, biome: c.biome }
          : null,
    ]
    for (const next of searches) {
      const what = next()
      const invalid = what === null ? null : await exploreUntilDeadline(what, deps, ctx, meta, cutShort)
      if (invalid) return { ok: false, message: invalid, verification: null, llmCalls: 0, subGoalsRun: round }
    }
    const after = foundNow(round)
    if (after) return after
    // Time and weather change by themselves: wait a little rather than wander off.
    await sleep(
      !lastUnmet.includes(`${goal.object} in sight`) &&
        lastUnmet.every((u) => u.startsWith('time') || u.startsWith('weather') || u.startsWith('brightness'))
        ? 3000
        : 500,
      ctx.signal,
    )
  }
  return {
    ok: false,
    message: `I could not find ${goal.object} with every condition met in time; unmet: ${lastUnmet.join(', ') || 'none'}.`,
    verification: observed || null,
    llmCalls: 0,
    subGoalsRun: 0,
  }
}
