/**
 * Reply schema for the summariser prompt (prompts/summarise.md). It lives here until the planner loop owns it; it is
 * a plain zod schema, so moving it to src/schemas/ changes no behaviour. The intent reply is src/schemas/intent.ts
 * and the analyser's is in src/agent/analyser.ts.
 */
import { z } from 'zod'
import { Action } from '../schemas/action.js'

export const SummaryReply = z.object({
  actions: z.array(Action).min(1).max(40),
  lessons: z.array(z.string().max(200)).max(3),
})
export type SummaryReply = z.infer<typeof SummaryReply>
