/**
 * One connected WebSocket client as the bridge keeps it: its socket, the role its token gave it (null until it
 * authenticates), the player name the router sees (`ws:<role>` once authenticated, never a name the client chose),
 * its topics, its authentication attempts and timer, the heartbeat flag, and its two rate limits (requests, and a
 * looser one for views).
 */
import type { WebSocket } from 'ws'
import type { Role } from '../../schemas/role.js'
import type { WsTopic } from '../../schemas/ws.js'
import { TokenBucket } from '../../util/rate.js'

export interface WsClient {
  id: string
  socket: WebSocket
  role: Role | null
  player: string
  topics: Set<WsTopic>
  authFailures: number
  authTimer: NodeJS.Timeout | null
  alive: boolean
  /** Request rate limit (`requestBurst`, then one more every `requestIntervalMs`); views have a looser one of their own. */
  bucket: TokenBucket
  viewBucket: TokenBucket
}

/** Views a client may ask for back to back, then one more every `VIEW_INTERVAL_MS`. */
const VIEW_BURST = 20
const VIEW_INTERVAL_MS = 250

/** A client that has just connected: no role, no topics, named `ws:<id>` until it authenticates. */
export function newClient(
  id: string,
  socket: WebSocket,
  limits: { requestBurst?: number; requestIntervalMs?: number },
): WsClient {
  return {
    id,
    socket,
    role: null,
    player: `ws:${id}`,
    topics: new Set(),
    authFailures: 0,
    authTimer: null,
    alive: true,
    bucket: new TokenBucket(limits.requestBurst ?? 5, limits.requestIntervalMs ?? 1000),
    viewBucket: new TokenBucket(VIEW_BURST, VIEW_INTERVAL_MS),
  }
}
