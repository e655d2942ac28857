/**
 * The planner (after GITM): one query per (re)plan of a sub-goal carrying the goal (object, count, material, tool,
 * info), the state (inventory, biome, y-level, on/under ground), a reference plan from memory when there is one,
 * lessons from earlier failures, and the feedback of the last action or the critic's critique. With an LLM the reply
 * is structured output validated by the Plan schema; without one (or when the LLM fails for good) the deterministic
 * offline planner answers — at once while the LLM client's circuit breaker is open after repeated server failures.
 * Each LLM query, answered or not, counts against the sub-goal's query limit (subgoal-runner.ts).
 */
import type { Llm } from '../llm/index.js'
import { LlmError, loadPrompt, PROMPT_SLOTS, quoteData, type PromptTemplate, type SlotsOf } from '../llm/index.js'
import { Plan, type BotState, type Feedback } from '../schemas/action.js'
import { goalKey } from '../schemas/goal.js'
import type { SubGoal } from '../schemas/subgoal.js'
import { GhostError } from '../util/errors.js'
import { logger } from '../util/log.js'
import { planOffline } from './offline-planner.js'

const log = logger('planner')

export interface PlannerQuery {
  step: SubGoal
  state: BotState
  reference: Plan['actions'] | null
  lessons: string[]
  feedback: Feedback | null
  critique: string[] | null
  attempt: number
  /** Stations standing within reach (not carried), usable where they stand: no table to place for a craft. */
  stationsNear?: readonly string[]
  player: string
  requestId: string
  signal: AbortSignal
}

export interface PlannerAnswer {
  plan: Plan
  via: 'llm' | 'offline' | 'offline-fallback'
  llmCalls: number
}

export interface Planner {
  readonly usesLlm: boolean
  plan(q: PlannerQuery): Promise<PlannerAnswer>
}

export function createPlanner(llm: Llm | null, promptsDir?: string): Planner {
  const template: PromptTemplate<SlotsOf<'planner'>> | null = llm
    ? loadPrompt('planner', PROMPT_SLOTS.planner, ...(promptsDir ? [promptsDir] : []))
    : null
  return {
    usesLlm: llm !== null,
    async plan(q) {
      if (!llm || !template) return { plan: planOffline(q), via: 'offline', llmCalls: 0 }
      const s = q.state
      const feedback = q.critique
        ? { critique: q.critique }
        : q.feedback
          ? {
              action: q.feedback.action,
              ok: q.feedback.result.ok,
              reason: q.feedback.result.reason,
              message: q.feedback.result.message,
            }
          : null
      const prompt = template.render({
        goal: quoteData({ ...q.step.goal, kind: q.step.kind }),
        inventory: quoteData(s.inventory),
        biome: quoteData(s.biome),
        y: String(s.y),
        ground: s.underground ? 'underground' : 'on the surface',
        reference_plan: quoteData(q.reference),
        lessons: quoteData(q.lessons),
        feedback: quoteData(feedback),
      })
      try {
        const plan = await llm.complete(Plan, prompt, {
          player: q.player,
          goalKey: goalKey(q.step.goal),
          requestId: q.requestId,
          signal: q.signal,
        })
        return { plan, via: 'llm', llmCalls: 1 }
      } catch (err) {
        if (!(err instanceof GhostError) || err.code === 'aborted' || err.code === 'llm_budget' || q.signal.aborted)
          throw err
        // while the breaker is open every query fails this way at once: the breaker already logged it
        if (err instanceof LlmError && err.kind === 'unavailable')
          log.debug('LLM unavailable; offline plan', { msg: err.message })
        else log.warn('LLM planner failed; using the offline planner', { code: err.code, msg: err.message })
        return { plan: planOffline(q), via: 'offline-fallback', llmCalls: 1 }
      }
    },
  }
}
