/**
 * Reply schemas for the critic and summariser prompts (prompts/critic.md, prompts/summarise.md). They live here
 * until the planner loop owns them; they are plain zod schemas, so moving them to src/schemas/ changes no behaviour.
 * The intent reply is src/schemas/intent.ts and the analyser's is in src/agent/analyser.ts.
 */
import { z } from 'zod'
import { Action } from '../schemas/action.js'

export const CriticReply = z.object({
  success: z.boolean(),
  reasoning: z.string().max(600),
  critique: z.string().max(600).describe('empty on success, otherwise what to change next'),
})
export type CriticReply = z.infer<typeof CriticReply>

export const SummaryReply = z.object({
  actions: z.array(Action).min(1).max(40),
  lessons: z.array(z.string().max(200)).max(3),
})
export type SummaryReply = z.infer<typeof SummaryReply>
