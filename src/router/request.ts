/**
 * The one request shape every channel produces (in-game chat, whispers, Discord, WebSocket, console): who asked,
 * through what, what they typed, and how to answer them. Channels build it; the router never knows where it came from
 * beyond `source` and `principal`, which the permission check reads.
 */
import type { Role } from '../schemas/role.js'

export type Source = 'chat' | 'whisper' | 'discord' | 'ws' | 'console'

/** Who is asking, as the channel can prove it. */
export type Principal =
  /** `uuid` (no dashes) is the sender UUID from the server's player-chat packet; `name` is the server's name for it. */
  | { kind: 'minecraft'; name: string; uuid?: string }
  | { kind: 'discord'; userId: string; roleIds: string[]; displayName: string }
  | { kind: 'ws'; clientId: string; role: Role }
  | { kind: 'console' }

export interface ReplyOptions {
  private?: boolean
}

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
export function newRequestId(): string {
  seq += 1
  return `r${Date.now().toString(36)}${seq.toString(36)}`
}
