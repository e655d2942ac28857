/**
 * The agent pipeline behind `ask` and `goal`: a player's words → intent (goals, a question back, or a refusal) →
 * for each goal the executor (decomposer, planner, critic, patrolled actions, memory) → one reply that says what was
 * done and how it was verified. It implements the router's AgentPort; the router has already checked the role.
 * The outcome is `ok` only when every goal was reached: a question back, a refusal or a failed goal is `ok: false`.
 */
import type { Knowledge } from '../knowledge/index.js'
import type { Llm } from '../llm/index.js'
import type { AgentPort, AgentRun } from '../router/services.js'
import { Goal } from '../schemas/goal.js'
import { failed, type Outcome } from '../schemas/task.js'
import { GhostError } from '../util/errors.js'
import { runGoal, type GoalDeps } from './executor.js'
import type { IntentParser } from './intent.js'
import { requestKnowledge } from './request-knowledge.js'
import { createRequestRunner } from './request-runner.js'
import { createUnderstander } from './understand.js'
import type { Chatter } from './chatter.js'
import type { Ledger } from './ledger.js'

export interface AgentDeps extends GoalDeps {
  intent: IntentParser
  llm: Llm | null
  kb: Knowledge
  /** The delivery ledger and the quiet players, kept across restarts when the app gives stored ones. */
  ledger?: Ledger
  chatter?: Chatter
}

export function createAgent(deps: AgentDeps): AgentPort {
  // the request language (triage at arrival, perform from the queue): src/agent/request-runner.ts
  const rkb = requestKnowledge(deps.kb)
  const runner = createRequestRunner({
    goal: deps,
    rkb,
    llm: deps.llm !== null,
    understander: createUnderstander({ kb: rkb, llm: deps.llm }),
    ...(deps.ledger ? { ledger: deps.ledger } : {}),
    ...(deps.chatter ? { chatter: deps.chatter } : {}),
  })
  async function pursueGoals(goals: Goal[], run: AgentRun): Promise<Outcome> {
    const lines: string[] = []
    let ok = true
    for (const goal of goals) {
      let out
      try {
        out = await runGoal(goal, deps, {
          player: run.request.player,
          requestId: run.request.id,
          taskId: run.taskId,
          signal: run.signal,
          progress: run.progress,
        })
      } catch (err) {
        if (err instanceof GhostError && err.code === 'llm_budget') {
          lines.push(`I stopped: ${err.userMessage}`)
          ok = false
          break
        }
        throw err
      }
      const calls = deps.llm ? ` (${out.llmCalls} LLM call${out.llmCalls === 1 ? '' : 's'})` : ''
      lines.push(
        out.ok
          ? `${out.message} Verified: ${out.verification}.${calls}`
          : `${out.message}${out.verification ? ` Checked: ${out.verification}.` : ''}`,
      )
      if (!out.ok) {
        ok = false
        break
      }
    }
    return { ok, text: lines.join(' ') }
  }

  return {
    triage: runner.triage,
    perform: runner.perform,
    handOver: runner.handOver,
    async handle(text, run) {
      let parsed
      try {
        parsed = await deps.intent.parse(text, {
          player: run.request.player,
          requestId: run.request.id,
          signal: run.signal,
        })
      } catch (err) {
        if (err instanceof GhostError && err.code === 'llm_budget')
          return failed(`Sorry, you have used up your LLM budget: ${err.userMessage}`)
        throw err
      }
      const intent = parsed.intent
      if (intent.kind === 'clarify') return failed(intent.question)
      if (intent.kind === 'refuse') return failed(`I can't do that: ${intent.reason}`)
      return pursueGoals(intent.goals, run)
    },
    async pursue(g, run) {
      const name = deps.kb.resolveName(g.object)
      if (!name.ok)
        throw new GhostError(
          'bad_input',
          `unknown item ${g.object}`,
          `I don't know "${g.object}".${name.suggestions.length ? ` Did you mean ${name.suggestions.slice(0, 3).join(', ')}?` : ''}`,
        )
      const impossible = deps.kb.impossibleReason(name.name)
      if (impossible) return failed(`I can't get ${name.name}: ${impossible}`)
      return pursueGoals([Goal.parse({ object: name.name, count: g.count })], run)
    },
    usageLine() {
      if (!deps.llm) return 'Planning offline (no LLM configured).'
      const t = deps.llm.usage.snapshot().total
      const b = deps.llm.breaker()
      const cooling = b.open
        ? ` The model server stopped answering: planning offline for another ${Math.ceil(b.retryInMs / 1000)} s.`
        : ''
      return `LLM ${deps.llm.model}: ${t.calls} calls, ${t.totalTokens} tokens.${cooling}`
    },
  }
}
