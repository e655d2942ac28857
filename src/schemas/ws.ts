/**
 * WebSocket bridge messages (protocol version 1): every frame is one JSON object `{ v: 1, type, ... }`. `WsIn` is
 * what clients may send (auth, request, subscribe/unsubscribe, ping) and is zod-validated on every frame; `WsOut`
 * is everything the bridge sends (welcome, auth result, replies, chat, task events, status, memory changes,
 * subscriptions, pong, errors). Task events reuse `TaskEvent` from src/router/progress.ts so every channel shows
 * the same thing. Shared by src/io/ws (server), tests and any TypeScript client.
 */
import { z } from 'zod'
import { Role } from '../router/request.js'
import { TaskEvent } from '../router/progress.js'

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
  v, type: z.literal('auth'),
  token: z.string().min(1).max(512),
  /** Optional display name; requests are attributed to `ws:<name>` (else `ws:<clientId>`). */
  name: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, 'use 1-32 letters, digits, _ or -').optional(),
})

/** Either free text (`text`, parsed like a chat line) or a named command with its argument words. */
export const WsRequest = z.strictObject({
  v, type: z.literal('request'),
  id: WsRequestId,
  text: z.string().min(1).max(2000).optional(),
  command: z.string().regex(/^[a-z0-9_?-]{1,32}$/, 'a command name').optional(),
  args: z.string().max(2000).optional(),
})

export const WsSubscribe = z.strictObject({ v, type: z.literal('subscribe'), topics: z.array(WsTopic).min(1).max(4) })
export const WsUnsubscribe = z.strictObject({ v, type: z.literal('unsubscribe'), topics: z.array(WsTopic).min(1).max(4) })
export const WsPing = z.strictObject({ v, type: z.literal('ping'), id: WsRequestId.optional() })

export const WsIn = z.discriminatedUnion('type', [WsAuth, WsRequest, WsSubscribe, WsUnsubscribe, WsPing])
  .superRefine((m, ctx) => {
    if (m.type !== 'request') return
    if ((m.text === undefined) === (m.command === undefined)) ctx.addIssue({ code: 'custom', message: 'a request needs exactly one of "text" or "command"', path: ['text'] })
    if (m.args !== undefined && m.command === undefined) ctx.addIssue({ code: 'custom', message: '"args" goes with "command"', path: ['args'] })
  })
export type WsIn = z.infer<typeof WsIn>

// ---------------------------------------------------------------- out (bridge → client)

export const WsErrorCode = z.enum(['bad_json', 'invalid', 'too_large', 'unsupported_version', 'unauthorised', 'auth_failed', 'internal'])
export type WsErrorCode = z.infer<typeof WsErrorCode>

export const MemoryChange = z.object({
  kind: z.string().min(1).max(64).describe('e.g. plan_recorded, lesson_added, forgotten, imported'),
  goalKey: z.string().max(200).nullable().default(null),
  message: z.string().max(2000),
})
export type MemoryChange = z.infer<typeof MemoryChange>

export const WsStatus = z.object({
  v, type: z.literal('status'),
  connected: z.boolean(),
  health: z.number().nullable(),
  food: z.number().nullable(),
  position: z.object({ x: z.number(), y: z.number(), z: z.number() }).nullable(),
  dimension: z.string().nullable(),
  task: z.object({ id: z.string(), player: z.string(), command: z.string(), progress: z.string() }).nullable(),
  queued: z.number().int().min(0),
  at: z.number(),
})

export const WsOut = z.discriminatedUnion('type', [
  z.object({ v, type: z.literal('welcome'), server: z.literal('ghostcraft'), protocol: v, authRequired: z.literal(true), maxMessageBytes: z.number().int() }),
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
])
export type WsOut = z.infer<typeof WsOut>
