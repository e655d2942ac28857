/**
 * The one request shape every channel produces (in-game chat, whispers, Discord, WebSocket, console): who asked,
 * through what, what they typed, and how to answer them. Channels build it; the router never knows where it came from
 * beyond `source` and `principal`, which the permission check reads.
 */
import { z } from 'zod'

export const Role = z.enum(['guest', 'trusted', 'owner'])
export type Role = z.infer<typeof Role>
export const ROLE_RANK: Record<Role, number> = { guest: 0, trusted: 1, owner: 2 }
export function atLeast(role: Role, min: Role): boolean { return ROLE_RANK[role] >= ROLE_RANK[min] }

export type Source = 'chat' | 'whisper' | 'discord' | 'ws' | 'console'

/** Who is asking, as the channel can prove it. */
export type Principal =
  | { kind: 'minecraft'; name: string }
  | { kind: 'discord'; userId: string; roleIds: string[]; displayName: string }
  | { kind: 'ws'; clientId: string; role: Role }
  | { kind: 'console' }

export interface ReplyOptions { private?: boolean }

export interface Request {
  id: string
  source: Source
  principal: Principal
  /** Display name used in replies, queue fairness and memory (`player` column). */
  player: string
  /** What the person typed, with the channel's addressing (bot name or prefix) removed. Untrusted data. */
  text: string
  reply(text: string, opts?: ReplyOptions): Promise<void>
}

let seq = 0
export function newRequestId(): string { seq += 1; return `r${Date.now().toString(36)}${seq.toString(36)}` }
