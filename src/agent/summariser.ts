/**
 * The LLM summariser for memory (after GITM): when a goal has 5 new successful plans, the LLM merges them into one
 * reference plan that keeps the necessary steps and drops the lucky or redundant ones. The memory store falls back
 * to its deterministic offline merge when this fails. Lives in the agent because it joins the LLM and memory.
 */
import { loadPrompt, PROMPT_SLOTS, quoteData, SummaryReply, type Llm } from '../llm/index.js'
import { summariserFrom, type Summariser } from '../memory/index.js'

export function llmSummariser(llm: Llm): Summariser {
  const template = loadPrompt('summarise', PROMPT_SLOTS.summarise)
  return summariserFrom(`llm:${llm.model}`, async (input) => {
    const prompt = template.render({ goal: quoteData(input.goalText), plans: quoteData({ plans: input.plans, previous: input.previous }) })
    const reply = await llm.complete(SummaryReply, prompt, { player: null, goalKey: input.goalKey, requestId: null })
    return reply.actions
  })
}
