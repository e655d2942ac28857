/**
 * Tasks as every channel sees them: the `Outcome` every command handler and the agent return (`ok` is true only for
 * real success, `text` is the reply), the progress events a running task reports (sub-goal tree with counts, action
 * results, the final outcome) and the sink they are reported to. The router publishes them on one emitter so chat,
 * Discord embeds and ws subscribers show the same thing.
 */
import { z } from 'zod'

/** What a command or the agent ends with: whether it really succeeded, and the sentence to tell the asker. */
export const Outcome = z.object({ ok: z.boolean(), text: z.string() })
export type Outcome = z.infer<typeof Outcome>
/** A successful outcome. */
export function succeeded(text: string): Outcome {
  return { ok: true, text }
}
/** An outcome that did not reach its goal (the text says why). */
export function failed(text: string): Outcome {
  return { ok: false, text }
}

export const SubGoalProgress = z.object({
  id: z.string(),
  label: z.string(),
  status: z.enum(['pending', 'running', 'done', 'failed', 'skipped']),
  depth: z.number().int().min(0),
})
export type SubGoalProgress = z.infer<typeof SubGoalProgress>

export const TaskEvent = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('queued'),
    taskId: z.string(),
    player: z.string(),
    command: z.string(),
    position: z.number().int(),
  }),
  z.object({
    kind: z.literal('started'),
    taskId: z.string(),
    player: z.string(),
    command: z.string(),
    text: z.string(),
  }),
  z.object({
    kind: z.literal('progress'),
    taskId: z.string(),
    message: z.string(),
    subgoals: z.array(SubGoalProgress),
    done: z.number().int(),
    total: z.number().int(),
  }),
  z.object({
    kind: z.literal('action'),
    taskId: z.string(),
    action: z.string(),
    ok: z.boolean(),
    reason: z.string().nullable(),
    message: z.string(),
  }),
  /** `ok` is the command's `Outcome.ok` (false when it failed, was stopped or threw); `message` is its text. */
  z.object({
    kind: z.literal('finished'),
    taskId: z.string(),
    ok: z.boolean(),
    message: z.string(),
    durationMs: z.number(),
  }),
])
export type TaskEvent = z.infer<typeof TaskEvent>

export type ProgressSink = (event: TaskEvent) => void
