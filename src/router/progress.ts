/**
 * Task progress events: one shape for what a running task reports (sub-goal tree with counts, action results,
 * the final outcome), published by the router on one emitter so every channel (chat, Discord embeds, ws
 * subscribers) shows the same thing.
 */
import { z } from 'zod'

export const SubGoalProgress = z.object({
  id: z.string(),
  label: z.string(),
  status: z.enum(['pending', 'running', 'done', 'failed', 'skipped']),
  depth: z.number().int().min(0),
})
export type SubGoalProgress = z.infer<typeof SubGoalProgress>

export const TaskEvent = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('queued'), taskId: z.string(), player: z.string(), command: z.string(), position: z.number().int() }),
  z.object({ kind: z.literal('started'), taskId: z.string(), player: z.string(), command: z.string(), text: z.string() }),
  z.object({ kind: z.literal('progress'), taskId: z.string(), message: z.string(), subgoals: z.array(SubGoalProgress), done: z.number().int(), total: z.number().int() }),
  z.object({ kind: z.literal('action'), taskId: z.string(), action: z.string(), ok: z.boolean(), reason: z.string().nullable(), message: z.string() }),
  z.object({ kind: z.literal('finished'), taskId: z.string(), ok: z.boolean(), message: z.string(), durationMs: z.number() }),
])
export type TaskEvent = z.infer<typeof TaskEvent>

export type ProgressSink = (event: TaskEvent) => void
