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
import type { Feedback } from '../schemas/action.js'
import type { Goal } from '../schemas/goal.js'
import type { Decomposition, SubGoal } from '../schemas/subgoal.js'
import { AbortedError } from '../util/errors.js'
import type { Senses } from './ports.js'
import { RouteFeedback } from './route-feedback.js'
import { reservedFor, stationsAhead, subGoalStations } from './subgoal-needs.js'
import { runFind } from './find-runner.js'
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
  if (isFindGoal(goal, deps.kb)) return runFind(goal, deps, ctx, meta, runGoal)

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
      reserve: reservedFor(dec.steps),
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
