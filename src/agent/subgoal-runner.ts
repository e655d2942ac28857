/**
 * Runs one sub-goal to verified completion (after GITM's per-sub-goal loop): take the reference plan from memory
 * when the exact goal was done before (zero LLM calls), else ask the planner; check every plan with the critic (at
 * most 3 rounds); execute action by action with the patroller's pre- and post-checks; stop at the first failure,
 * analyse it into a lesson, and re-plan from there with the failure as feedback — bounded by the query limit and the
 * goal's deadline. When the inputs the sub-goal started with have vanished (a `/clear`, a death), it returns at once
 * (`via: 'inputs_lost'`) so the executor decomposes the goal again. A success is stored in memory as a plan for this
 * sub-goal.
 */
import type { Knowledge } from '../knowledge/index.js'
import type { MemoryStore } from '../memory/index.js'
import { describeGoal } from '../memory/index.js'
import type { Action, FailureReason, Feedback, Plan } from '../schemas/action.js'
import { goalKey } from '../schemas/goal.js'
import type { SubGoal } from '../schemas/subgoal.js'
import { AbortedError, GhostError } from '../util/errors.js'
import { logger } from '../util/log.js'
import type { Analyser } from './analyser.js'
import { critiquePlan, type CriticOptions } from './critic.js'
import { missingInputs, stationsAhead } from './subgoal-needs.js'
import type { Patroller } from './patroller.js'
import type { Planner } from './planner.js'
import type { Hands } from './ports.js'
import { guardedUntilMet } from './guarded-search.js'

const log = logger('subgoal')
export const CRITIC_ROUNDS = 3
/**
 * Offline plans are deterministic per attempt; more attempts than this that make no progress would only repeat
 * themselves. Attempts that raised the count (8 kills of a rare drop) do not count against it.
 */
export const OFFLINE_ATTEMPTS = 3
/**
 * Attempts cut short `unsafe` (the bot ran from a mob or fought it) that do not count against OFFLINE_ATTEMPTS: a
 * flight says nothing about the route, the tree is still there (bench:mp5 c10 2-4 seed 1 at night: each flight from
 * a zombie used up a wood's only attempt and marked it costly, and all seven woods were gone in 15 s).
 */
export const UNSAFE_RETRIES = 3
/** `via` of an outcome whose inputs vanished mid-run: the executor decomposes the goal again instead of failing. */
export const INPUTS_LOST = 'inputs_lost'

export interface SubGoalDeps {
  kb: Knowledge
  planner: Planner
  patroller: Patroller
  hands: Hands
  analyser: Analyser
  memory: MemoryStore | null
  critic: CriticOptions
  queryLimit: number
  /** Told about every plan and lesson written to memory (ws `memory` events). */
  onMemoryChange?: (change: { kind: string; goalKey: string; message: string }) => void
}

export interface RunMeta {
  player: string
  requestId: string
  signal: AbortSignal
  deadline: number
  /** Every action result, for progress events and the failure analyser. */
  onAction(f: Feedback): void
  /** Every plan chosen for this sub-goal (attempt 0 is the first; later ones are re-plans), for progress events. */
  onPlan?(p: { attempt: number; via: string; actions: Action[] }): void
  history: Feedback[]
  /** Offline attempts without progress before giving up (default OFFLINE_ATTEMPTS); fewer when another route exists. */
  maxStalled?: number
  /** Stations standing within reach now (not carried): the critic and the lost-inputs check count them. */
  stationsNear?: () => string[]
  /** Stations the next sub-goals use (`stationsAhead`): the last action leaves them standing if it placed them. */
  keepAfter?: readonly string[]
  /** Items this sub-goal and the next consume or are to hold (`reservedFor`): no action spends them on its own account. */
  reserve?: Readonly<Record<string, number>>
}

export interface SubGoalOutcome {
  ok: boolean
  message: string
  llmCalls: number
  via: string
  /** Why the last action failed (`not_found`, `died` …), null when it did not fail or never ran. */
  reason?: FailureReason | null
}

/**
 * Fit a remembered plan to now: the action that makes the sub-goal's object gets today's count (and, for a craft or
 * smelt step, the step's own materials and fuel), and a plan that starts on the surface is preceded by go_up when
 * the bot is below ground (it was recorded from the surface).
 */
export function adaptPlan(
  actions: Action[],
  step: SubGoal,
  have: number,
  kb: Knowledge,
  underground = false,
): Action[] {
  const obj = step.goal.object
  const first = actions[0]
  const climb = underground && first?.type === 'explore' && first.strategy === 'surface'
  const fitted = actions.map((a): Action => {
    // the step's own materials and fuel, as the decomposition counted them for the whole goal: a remembered smelt of
    // one ingot with planks, scaled to three, burnt the planks a later craft needed (bench:mp5 p2 piston seed 3 then
    // climbed 50 levels for one more log)
    if (a.type === 'smelt' && a.object === obj && step.kind === 'smelt')
      return {
        ...a,
        count: step.goal.count,
        materials: { [step.smelt.input]: step.smelt.inputCount },
        fuel: step.smelt.fuel,
        furnaces: step.smelt.furnaces,
      }
    if (a.type === 'craft' && a.object === obj && step.kind === 'craft')
      return { ...a, count: step.goal.count, materials: { ...step.craft.materials } }
    if ((a.type === 'craft' || a.type === 'smelt') && a.object === obj && a.count !== step.goal.count) {
      const f = step.goal.count / a.count
      const materials = Object.fromEntries(
        Object.entries(a.materials).map(([m, k]) => [m, Math.max(1, Math.ceil(k * f))]),
      )
      return { ...a, count: step.goal.count, materials }
    }
    // and the step's tool: a remembered mine of 3 cobblestone with the wooden pickaxe dug the next 55 with it too,
    // though the decomposition had just made the stone one for them
    if (a.type === 'mine' && (a.object === obj || Object.keys(kb.dropsOf(a.object)).includes(obj)))
      return { ...a, count: have + step.goal.count, tool: step.kind === 'mine' ? (step.mine.tool ?? a.tool) : a.tool }
    return a
  })
  return climb ? [{ type: 'go_up', tool: null }, ...fitted] : fitted
}

/**
 * A catch handler for optional help (memory lookups, failure analysis): a known failure (`GhostError`: a model
 * error, a timeout, an abort) is logged and replaced by `fallback`; anything else is a bug and is rethrown.
 */
function tolerate<T>(what: string, fallback: T): (err: unknown) => T {
  return (err) => {
    if (!(err instanceof GhostError)) throw err
    log.warn(`${what} failed; going on without it`, { code: err.code, err: err.message })
    return fallback
  }
}

export async function runSubGoal(step: SubGoal, deps: SubGoalDeps, meta: RunMeta): Promise<SubGoalOutcome> {
  const { kb, planner, patroller, hands, memory } = deps
  const key = goalKey(step.goal)
  const text = describeGoal(step.goal)
  /** For messages: the embedding text above carries the info paragraph, too long for a reply. */
  const what = `${step.goal.count} ${step.goal.object}`
  const startedAt = Date.now()
  const startHave = hands.state().inventory[step.goal.object] ?? 0
  const target = startHave + step.goal.count
  let llmCalls = 0
  let feedback: Feedback | null = null
  let critique: string[] | null = null
  let lastReason = ''
  /** Offline attempts that did not raise the count (not counting the first UNSAFE_RETRIES cut short `unsafe`), and
   * the best count so far. */
  let stalled = 0
  let unsafeRetries = 0
  let best = startHave

  const retrieved = memory
    ? await memory.retrieve({ goalKey: key, goalText: text }).catch(tolerate('memory lookup', []))
    : []
  const exact = retrieved.find((r) => r.match === 'exact') ?? null
  const similar = retrieved.find((r) => r.match === 'similar') ?? null
  const lessons = memory
    ? (await memory.lessons(key, 3).catch(() => [])).map((l) => `${l.cause} ${l.suggestions.join(' ')}`.trim())
    : []
  let useMemory = exact !== null

  for (let attempt = 0; ; attempt++) {
    if (meta.signal.aborted) throw new AbortedError('task')
    // a craft from what is held still runs when the time is up: it takes under a second and puts the item in hand
    // (bench p4 compass seed 2 had its last redstone 5 s before the limit and stopped short of the craft)
    const ready = (): boolean =>
      attempt === 0 &&
      step.kind === 'craft' &&
      missingInputs(step, hands.state().inventory, kb, meta.stationsNear?.() ?? []).length === 0
    if (Date.now() > meta.deadline && !ready())
      return {
        ok: false,
        message: `ran out of time for ${what}${lastReason ? ` (${lastReason})` : ''}`,
        llmCalls,
        via: 'deadline',
      }
    if (planner.usesLlm ? llmCalls >= deps.queryLimit : stalled >= (meta.maxStalled ?? OFFLINE_ATTEMPTS)) {
      return {
        ok: false,
        message: `gave up on ${what} after ${attempt} plans${lastReason ? `: ${lastReason}` : ''}`,
        llmCalls,
        via: 'limit',
        reason: feedback?.result.reason ?? null,
      }
    }
    // 1. a plan: from memory (first try only), else from the planner, revised by the critic
    let plan: Plan | null = null
    let via = 'memory'
    const state = hands.state()
    const critic = { ...deps.critic, stationsNear: meta.stationsNear?.() ?? [] }
    if (useMemory && exact) {
      plan = {
        explanation: '',
        thoughts: `reference plan from memory (${exact.source})`,
        actions: adaptPlan(exact.actions, step, state.inventory[step.goal.object] ?? 0, kb, state.underground),
      }
      useMemory = false
      const c = critiquePlan(kb, plan, state.inventory, critic)
      if (!c.ok) {
        log.info('memory plan rejected by the critic', { key, problems: c.problems })
        plan = null
      }
    }
    // a re-plan asks only for what is still missing (the planner adds the count to what is carried now)
    const left = Math.max(1, target - (state.inventory[step.goal.object] ?? 0))
    const rest = left === step.goal.count ? step : { ...step, goal: { ...step.goal, count: left } }
    for (let round = 0; plan === null; round++) {
      const ans = await planner.plan({
        step: rest,
        state,
        reference: similar?.actions ?? exact?.actions ?? null,
        lessons,
        feedback,
        critique,
        attempt,
        stationsNear: meta.stationsNear?.() ?? [],
        player: meta.player,
        requestId: meta.requestId,
        signal: meta.signal,
      })
      llmCalls += ans.llmCalls
      via = ans.via
      const c = critiquePlan(kb, ans.plan, state.inventory, critic)
      if (c.ok) {
        plan = ans.plan
        critique = null
        break
      }
      critique = c.problems
      lastReason = `the plan failed review: ${c.problems.slice(0, 2).join(' ')}`
      if (round + 1 >= CRITIC_ROUNDS || !planner.usesLlm) {
        return {
          ok: false,
          message: `could not make a valid plan for ${what}: ${c.problems.slice(0, 3).join(' ')}`,
          llmCalls,
          via,
        }
      }
      if (llmCalls >= deps.queryLimit)
        return {
          ok: false,
          message: `query limit reached while revising the plan for ${what}: ${c.problems[0]}`,
          llmCalls,
          via,
        }
    }

    meta.onPlan?.({ attempt, via, actions: plan.actions })
    // what the plan was made from, for reading a bench run's choices afterwards (quiet unless debug)
    log.debug('plan', { what, attempt, via, inventory: state.inventory })
    // 2. execute with the patroller around every action; once the count is in the bag (a shaft dug through the
    // ore), the rest of the plan is not needed and a search under way stops
    feedback = null
    const met = (): boolean => (hands.state().inventory[step.goal.object] ?? 0) >= target
    for (const [i, action] of plan.actions.entries()) {
      if (meta.signal.aborted) throw new AbortedError('task')
      if (i > 0 && met()) break
      // a table or furnace this action places stays standing when the crafts and smelts right after it use it
      const keep = stationsAhead(plan.actions.slice(i + 1), (a) => patroller.stationsFor(a), meta.keepAfter ?? [])
      const opts = { keep, ...(meta.reserve ? { reserve: meta.reserve } : {}) }
      const { result, cut } = await guardedUntilMet(action, hands, patroller, meta.signal, met, opts, step.goal.object)
      const f: Feedback = { action, result, state: hands.state() }
      meta.history.push(f)
      meta.onAction(f)
      if (cut) break
      if (!result.ok) {
        feedback = f
        break
      }
    }
    if (meta.signal.aborted) throw new AbortedError('task')
    if (feedback?.result.reason === 'interrupted') throw new AbortedError('task')

    // 3. verified? else analyse and re-plan
    const have = hands.state().inventory[step.goal.object] ?? 0
    if (!feedback && have >= target) {
      if (memory) {
        const id = hands.identity()
        await memory
          .recordPlan({
            goalKey: key,
            goalText: text,
            state: `y=${state.y} ${state.biome} ${state.underground ? 'underground' : 'surface'}`,
            actions: plan.actions,
            outcome: 'success',
            durationMs: Date.now() - startedAt,
            llmCalls,
            player: meta.player,
            bot: id.bot,
            server: id.server,
          })
          .then(() =>
            deps.onMemoryChange?.({
              kind: 'plan_recorded',
              goalKey: key,
              message: `stored a ${plan!.actions.length}-action plan for ${text}`,
            }),
          )
          .catch((err: Error) => log.warn('could not store plan', { err: err.message }))
      }
      return { ok: true, message: `${have} ${step.goal.object} in inventory`, llmCalls, via }
    }
    if (!feedback) {
      const last = plan.actions.at(-1)!
      feedback = {
        action: last,
        result: {
          ok: false,
          reason: 'unverified',
          message: `the plan finished but I hold ${have} of ${target} ${step.goal.object}`,
          inventoryDelta: {},
          durationMs: 0,
        },
        state: hands.state(),
      }
    }
    lastReason = feedback.result.message
    // a mine's share for a spare tool is taken along the way only: short of it, the step is done (the executor's next
    // decomposition keeps the spare only when no more mining is needed for it)
    if (step.kind === 'mine' && step.spare && step.spare.count > 0 && have >= target - step.spare.count)
      return { ok: true, message: `${have} ${step.goal.object} in inventory, without the spare's`, llmCalls, via }
    if (have > best) best = have
    else if (feedback.result.reason !== 'unsafe' || unsafeRetries++ >= UNSAFE_RETRIES) stalled++
    const lost = missingInputs(step, hands.state().inventory, kb, meta.stationsNear?.() ?? [])
    if (lost.length > 0) {
      return {
        ok: false,
        message: `${what} lacks inputs it had when it started (${lost.join(', ')}): ${lastReason}`,
        llmCalls,
        via: INPUTS_LOST,
        reason: feedback.result.reason,
      }
    }
    const analysis = await deps.analyser
      .analyse(
        {
          goal: step.goal,
          steps: meta.history.slice(-32),
          state: hands.state(),
          nearbyBlocks: hands.nearbyBlocks(),
          progress: { startCount: startHave, currentCount: have, stepsSinceProgress: meta.history.length },
        },
        { player: meta.player, requestId: meta.requestId, signal: meta.signal },
      )
      .catch(tolerate('failure analysis', null))
    if (analysis) {
      if (analysis.via === 'llm' || analysis.via === 'offline-fallback') llmCalls += 1
      lessons.unshift(`${analysis.analysis.cause} ${analysis.analysis.suggestions.join(' ')}`)
      if (memory) {
        const id = hands.identity()
        await memory
          .addLesson({
            goalKey: key,
            cause: analysis.analysis.cause,
            suggestions: analysis.analysis.suggestions,
            player: meta.player,
            bot: id.bot,
          })
          .then(() => deps.onMemoryChange?.({ kind: 'lesson_added', goalKey: key, message: analysis.analysis.cause }))
          .catch((err: Error) => log.warn('could not store lesson', { err: err.message }))
      }
    }
    if (feedback.result.reason === 'died')
      return { ok: false, message: `I died while working on ${what}`, llmCalls, via, reason: 'died' }
  }
}
