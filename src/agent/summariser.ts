/**
 * The LLM summariser for memory (after GITM): when a goal has 5 new successful plans, the LLM merges them into one
 * reference plan that keeps the necessary steps and drops the lucky or redundant ones. The memory store falls back
 * to its deterministic offline merge when this fails — also when the merged plan fails the critic or the safety
 * policy. Lives in the agent because it joins the LLM, the critic and memory.
 */
import type { Knowledge } from '../knowledge/index.js'
import { loadPrompt, PROMPT_SLOTS, quoteData, SummaryReply, type Llm } from '../llm/index.js'
import { summariserFrom, type Summariser } from '../memory/index.js'
import { GhostError } from '../util/errors.js'
import { vetStoredPlan, type CriticOptions } from './critic.js'

/** The merged plan must pass the critic and the safety policy (`vetStoredPlan`) before the store keeps it. */
export function llmSummariser(llm: Llm, kb: Knowledge, critic: CriticOptions): Summariser {
  const template = loadPrompt('summarise', PROMPT_SLOTS.summarise)
  return summariserFrom(`llm:${llm.model}`, async (input) => {
    const prompt = template.render({
      goal: quoteData(input.goalText),
      plans: quoteData({ plans: input.plans, previous: input.previous }),
    })
    const reply = await llm.complete(SummaryReply, prompt, { player: null, goalKey: input.goalKey, requestId: null })
    const c = vetStoredPlan(kb, reply.actions, critic)
    if (!c.ok)
      throw new GhostError(
        'llm_invalid',
        `the summarised plan for ${input.goalKey} failed review: ${c.problems.slice(0, 3).join(' ')}`,
      )
    return reply.actions
  })
}
