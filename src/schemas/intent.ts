/**
 * Intent: what a player's free-text request means — goals to pursue, a question back, or a refusal. This is the
 * only thing intent parsing (offline grammar or LLM) can produce: it has no way to express roles, permissions or
 * commands, so text in a request can never change those. `IntentReply` is the slimmer shape asked of an LLM
 * (object, count, conditions per goal); it is completed into full `Goal`s with the Goal schema's defaults.
 */
import { z } from 'zod'
import { Conditions, Goal } from './goal.js'

export const Intent = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('goals'), goals: z.array(Goal).min(1).max(8) }),
  z.object({ kind: z.literal('clarify'), question: z.string().min(1).max(300) }),
  z.object({ kind: z.literal('refuse'), reason: z.string().min(1).max(300) }),
])
export type Intent = z.infer<typeof Intent>

/** The LLM-facing form: same three kinds, goals reduced to what a request can say. */
export const IntentReply = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('goals'),
    goals: z
      .array(
        z.object({
          object: Goal.shape.object,
          count: Goal.shape.count.unwrap(),
          conditions: Conditions.nullable(),
        }),
      )
      .min(1)
      .max(8),
  }),
  z.object({ kind: z.literal('clarify'), question: z.string().min(1).max(300) }),
  z.object({ kind: z.literal('refuse'), reason: z.string().min(1).max(300) }),
])
export type IntentReply = z.infer<typeof IntentReply>
