/**
 * WebSocket bridge messages (protocol version 1): every frame is one JSON object `{ v: 1, type, ... }`. `WsIn` is
 * what clients may send (auth, request, subscribe/unsubscribe, ping, view) and is zod-validated on every frame; `WsOut`
 * is everything the bridge sends (welcome, auth result, replies, chat, task events, status, memory changes,
 * subscriptions, pong, errors, view answers for the web page). Task events reuse `TaskEvent` from src/schemas/task.ts so every channel shows
 * the same thing. Shared by src/io/ws (server), tests and any TypeScript client.
 */
import { z } from 'zod'
import { GoalSummary, MemoryStats } from './memory.js'
import { Role } from './role.js'
import { TaskEvent } from './task.js'

export const WS_PROTOCOL_VERSION = 1
/** Largest accepted frame; bigger ones get an error and the connection stays open. */
export const WS_MAX_MESSAGE_BYTES = 64 * 1024

const v = z.literal(WS_PROTOCOL_VERSION)
/** A client-chosen id that replies and task events refer back to. */
export const WsRequestId = z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'use 1-64 letters, digits or _ . : -')
export const WsTopic = z.enum(['tasks', 'chat', 'status', 'memory'])
export type WsTopic = z.infer<typeof WsTopic>

// ---------------------------------------------------------------- in (client → bridge)

export const WsAuth = z.strictObject({
  v,
  type: z.literal('auth'),
  token: z.string().min(1).max(512),
  /** Optional label, accepted for compatibility but never used as identity: requests are attributed to the token's `ws:<role>`. */
  name: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,32}$/, 'use 1-32 letters, digits, _ or -')
    .optional(),
})

/** Either free text (`text`, parsed like a chat line) or a named command with its argument words. */
export const WsRequest = z.strictObject({
  v,
  type: z.literal('request'),
  id: WsRequestId,
  text: z.string().min(1).max(2000).optional(),
  command: z
    .string()
    .regex(/^[a-z0-9_?-]{1,32}$/, 'a command name')
    .optional(),
  args: z.string().max(2000).optional(),
})

export const WsSubscribe = z.strictObject({ v, type: z.literal('subscribe'), topics: z.array(WsTopic).min(1).max(4) })
export const WsUnsubscribe = z.strictObject({
  v,
  type: z.literal('unsubscribe'),
  topics: z.array(WsTopic).min(1).max(4),
})
export const WsPing = z.strictObject({ v, type: z.literal('ping'), id: WsRequestId.optional() })

/** The web page's (and any script's) read-only views; each has a minimum role (WS_VIEW_MIN_ROLE). `q` is a search text or goal key. */
export const WsViewName = z.enum(['queue', 'recent', 'memory', 'memory_search', 'memory_goal', 'usage', 'audit'])
export type WsViewName = z.infer<typeof WsViewName>
export const WS_VIEW_MIN_ROLE: Record<WsViewName, Role> = {
  queue: 'guest',
  recent: 'trusted',
  memory: 'trusted',
  memory_search: 'trusted',
  memory_goal: 'trusted',
  usage: 'trusted',
  audit: 'owner',
}
export const WsView = z.strictObject({
  v,
  type: z.literal('view'),
  id: WsRequestId,
  view: WsViewName,
  q: z.string().max(200).optional(),
})

export const WsIn = z
  .discriminatedUnion('type', [WsAuth, WsRequest, WsSubscribe, WsUnsubscribe, WsPing, WsView])
  .superRefine((m, ctx) => {
    if (m.type !== 'request') return
    if ((m.text === undefined) === (m.command === undefined))
      ctx.addIssue({ code: 'custom', message: 'a request needs exactly one of "text" or "command"', path: ['text'] })
    if (m.args !== undefined && m.command === undefined)
      ctx.addIssue({ code: 'custom', message: '"args" goes with "command"', path: ['args'] })
  })
export type WsIn = z.infer<typeof WsIn>

// ---------------------------------------------------------------- out (bridge → client)

export const WsErrorCode = z.enum([
  'bad_json',
  'invalid',
  'too_large',
  'unsupported_version',
  'unauthorised',
  'auth_failed',
  'forbidden',
  'rate_limited',
  'internal',
])
export type WsErrorCode = z.infer<typeof WsErrorCode>

export const MemoryChange = z.object({
  kind: z.string().min(1).max(64).describe('e.g. plan_recorded, lesson_added, forgotten, imported'),
  goalKey: z.string().max(200).nullable().default(null),
  message: z.string().max(2000),
})
export type MemoryChange = z.infer<typeof MemoryChange>

export const WsStatus = z.object({
  v,
  type: z.literal('status'),
  connected: z.boolean(),
  health: z.number().nullable(),
  food: z.number().nullable(),
  position: z.object({ x: z.number(), y: z.number(), z: z.number() }).nullable(),
  dimension: z.string().nullable(),
  biome: z.string().nullable().optional(),
  /** Minecraft time of day, 0-23999 (0 = sunrise). */
  timeOfDay: z.number().int().nullable().optional(),
  task: z.object({ id: z.string(), player: z.string(), command: z.string(), progress: z.string() }).nullable(),
  queued: z.number().int().min(0),
  at: z.number(),
})

// ---------------------------------------------------------------- views (answers to `view`)

const TaskRow = z.object({
  id: z.string(),
  player: z.string(),
  command: z.string(),
  text: z.string(),
  startedAt: z.number(),
  progress: z.string(),
})
const Totals = z.object({
  calls: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  totalTokens: z.number().int(),
})
export const AuditRow = z.object({
  t: z.string(),
  requestId: z.string(),
  source: z.string(),
  player: z.string(),
  command: z.string(),
  role: z.string(),
  allowed: z.boolean(),
  reason: z.string().optional(),
  text: z.string(),
})
/** An action as one line (`craft 4 oak_planks`), for showing plans. */
const ActionLine = z.string()

export const WsViewData = z.discriminatedUnion('view', [
  z.object({ view: z.literal('queue'), current: TaskRow.nullable(), pending: z.array(TaskRow) }),
  /** The last requests (from the audit log) with the replies each got. */
  z.object({
    view: z.literal('recent'),
    entries: z.array(
      AuditRow.extend({ replies: z.array(z.object({ text: z.string(), private: z.boolean(), at: z.number() })) }),
    ),
  }),
  z.object({
    view: z.literal('memory'),
    stats: MemoryStats.pick({
      plans: true,
      successes: true,
      failures: true,
      goals: true,
      references: true,
      lessons: true,
      knowledge: true,
    }),
    goals: z.array(GoalSummary.omit({ lastAt: true })),
  }),
  z.object({
    view: z.literal('memory_search'),
    query: z.string(),
    results: z.array(
      z.object({
        goalKey: z.string(),
        goalText: z.string(),
        match: z.string(),
        similarity: z.number(),
        source: z.string(),
        actions: z.array(ActionLine),
      }),
    ),
  }),
  z.object({
    view: z.literal('memory_goal'),
    goalKey: z.string(),
    found: z.boolean(),
    reference: z.object({ source: z.string(), actions: z.array(ActionLine) }).nullable(),
    lessons: z.array(
      z.object({
        cause: z.string(),
        suggestions: z.array(z.string()),
        player: z.string().nullable(),
        createdAt: z.number(),
      }),
    ),
    plans: z.array(
      z.object({
        id: z.number().int(),
        outcome: z.string(),
        player: z.string().nullable(),
        durationMs: z.number(),
        actions: z.array(ActionLine),
      }),
    ),
  }),
  z.object({
    view: z.literal('usage'),
    model: z.string().nullable(),
    budgetPerPlayer: z.number().int(),
    total: Totals,
    players: z.array(Totals.extend({ player: z.string(), remaining: z.number().int() })),
  }),
  z.object({ view: z.literal('audit'), entries: z.array(AuditRow) }),
])
export type WsViewData = z.infer<typeof WsViewData>

export const WsOut = z.discriminatedUnion('type', [
  z.object({
    v,
    type: z.literal('welcome'),
    server: z.literal('ghostcraft'),
    protocol: v,
    authRequired: z.literal(true),
    maxMessageBytes: z.number().int(),
  }),
  z.object({ v, type: z.literal('auth'), ok: z.literal(true), role: Role, clientId: z.string(), player: z.string() }),
  z.object({ v, type: z.literal('reply'), requestId: WsRequestId, text: z.string(), private: z.boolean() }),
  z.object({ v, type: z.literal('chat'), username: z.string(), message: z.string(), at: z.number() }),
  /** `requestId` is set on events of a task this client asked for. */
  z.object({ v, type: z.literal('task'), event: TaskEvent, requestId: WsRequestId.optional() }),
  WsStatus,
  z.object({ v, type: z.literal('memory'), change: MemoryChange }),
  z.object({ v, type: z.literal('subscribed'), topics: z.array(WsTopic) }),
  z.object({ v, type: z.literal('pong'), id: WsRequestId.optional(), at: z.number() }),
  z.object({ v, type: z.literal('error'), code: WsErrorCode, message: z.string(), requestId: WsRequestId.optional() }),
  z.object({ v, type: z.literal('view'), requestId: WsRequestId, data: WsViewData }),
])
export type WsOut = z.infer<typeof WsOut>
