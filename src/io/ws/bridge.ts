/**
 * The WebSocket bridge: a third way in (after chat and Discord) for dashboards and scripts. Off unless
 * GHOST_WS_PORT is set; binds GHOST_WS_HOST (127.0.0.1 unless configured otherwise). Clients authenticate with a
 * configured token and get that token's role (Principal kind 'ws'); then they send requests (free text or a named
 * command) that go through the same Router, command set and permission check as chat, and subscribe to topics
 * (task events, chat, status snapshots, memory changes). Every frame is zod-validated (src/schemas/ws.ts); bad,
 * oversized or unauthorised frames get an `error` message and the connection stays usable. A client whose send
 * buffer passes `maxBufferedBytes` is dropped so a slow reader never holds the bot's memory hostage.
 */
import { EventEmitter } from 'node:events'
import type { Server as HttpServer } from 'node:http'
import { WebSocket, type RawData, type WebSocketServer } from 'ws'
import type { z } from 'zod'
import { newRequestId, type Request } from '../../router/request.js'
import type { Role } from '../../schemas/role.js'
import type { Router } from '../../router/router.js'
import type { TaskEvent } from '../../schemas/task.js'
import { GhostError } from '../../util/errors.js'
import { logger } from '../../util/log.js'
import {
  MemoryChange,
  WS_MAX_MESSAGE_BYTES,
  WS_PROTOCOL_VERSION,
  type WsErrorCode,
  type WsOut,
  type WsTopic,
  type WsViewName,
} from '../../schemas/ws.js'
import { TokenAuth, type WsTokens } from './auth.js'
import { newClient, type WsClient as Client } from './client.js'
import { decodeFrame } from './frames.js'
import { attachWss, listenWss } from './listen.js'
import { statusMessage, TaskOwners, taskMessage } from './tasks.js'
import { Views, type ViewSources } from './views.js'

const log = logger('ws')

export interface WsBridgeOptions {
  host: string
  /** 0 picks a free port (tests). */
  port: number
  tokens: WsTokens
  /** More tokens than the configured ones (the web page's loopback session token). */
  extraTokens?: Array<{ token: string; role: Role }>
  /** Memory and LLM usage for the `view` message (the web page's panels). */
  views?: ViewSources
  /** Frames above this get a `too_large` error (default 64 KiB). */
  maxMessageBytes?: number
  /** ws's own hard limit, which closes the socket; kept well above `maxMessageBytes` (default 1 MiB). */
  maxPayloadBytes?: number
  /** Drop a client whose unsent data passes this (default 1 MiB). */
  maxBufferedBytes?: number
  authTimeoutMs?: number
  maxAuthFailures?: number
  heartbeatMs?: number
  statusIntervalMs?: number
  /** Authenticated clients at once (default 32); sockets still authenticating are capped by `maxPending`. */
  maxClients?: number
  /** Sockets connected but not yet authenticated (default 8). */
  maxPending?: number
  /** Requests and views a client may send back to back (default 5), then one per `requestIntervalMs` (default 1000). */
  requestBurst?: number
  requestIntervalMs?: number
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost'])

/** Options for a bridge served on another HTTP server's upgrade route (`WsBridge.attach`). */
export type WsAttachOptions = Omit<WsBridgeOptions, 'host' | 'port'> & { path: string }

export class WsBridge extends EventEmitter {
  private readonly clients = new Map<string, Client>()
  private readonly tasks: TaskOwners
  private readonly auth: TokenAuth
  private readonly views: Views
  private detach: (() => void) | null = null
  private readonly maxMessageBytes: number
  private readonly maxBufferedBytes: number
  private readonly unsubscribeTasks: () => void
  private heartbeat: NodeJS.Timeout | null = null
  private statusTimer: NodeJS.Timeout | null = null
  private seq = 0
  private closed = false

  private constructor(
    private readonly router: Router,
    private readonly wss: WebSocketServer,
    private readonly opts: WsBridgeOptions,
  ) {
    super()
    this.auth = new TokenAuth(opts.tokens, opts.extraTokens)
    this.views = new Views(router, opts.views)
    this.tasks = new TaskOwners(router)
    this.maxMessageBytes = opts.maxMessageBytes ?? WS_MAX_MESSAGE_BYTES
    this.maxBufferedBytes = opts.maxBufferedBytes ?? 1024 * 1024
    wss.on('connection', (socket) => this.onConnection(socket))
    this.unsubscribeTasks = router.onTaskEvent((e) => this.onTaskEvent(e))
    const heartbeatMs = opts.heartbeatMs ?? 30_000
    if (heartbeatMs > 0) {
      this.heartbeat = setInterval(() => this.beat(), heartbeatMs)
      this.heartbeat.unref()
    }
  }

  /** Listen on host:port; rejects (GhostError 'config') when the address is unusable. */
  static async start(router: Router, opts: WsBridgeOptions): Promise<WsBridge> {
    if (!new TokenAuth(opts.tokens).configured) {
      throw new GhostError(
        'config',
        'WebSocket bridge needs at least one token',
        'Set GHOST_WS_OWNER_TOKEN (and/or _TRUSTED_/_GUEST_).',
      )
    }
    const bridge = new WsBridge(router, await listenWss(opts), opts)
    if (!LOOPBACK.has(opts.host))
      log.warn('WebSocket bridge listens beyond this machine', { host: opts.host, port: bridge.port })
    log.info('WebSocket bridge listening', { host: opts.host, port: bridge.port })
    return bridge
  }

  /**
   * Serve the bridge on an existing HTTP server's upgrade route instead of a port of its own: the web page's
   * same-origin socket (src/io/web). Upgrades to other paths are left to other listeners; a browser whose Origin
   * is not the page's own host is refused, so another site cannot drive the bot from a visitor's browser.
   */
  static attach(router: Router, server: HttpServer, opts: WsAttachOptions): WsBridge {
    const { wss, detach } = attachWss(server, opts)
    const bridge = new WsBridge(router, wss, { ...opts, host: 'attached', port: 0 })
    bridge.detach = detach
    return bridge
  }

  /** The bridge's own port (0 when attached to another server). */
  get port(): number {
    if (this.detach) return 0
    const a = this.wss.address()
    return typeof a === 'object' && a !== null ? a.port : 0
  }

  clientCount(): number {
    return this.clients.size
  }

  /** An in-game chat line, for clients subscribed to `chat`. */
  publishChat(username: string, message: string): void {
    this.broadcast('chat', { v: WS_PROTOCOL_VERSION, type: 'chat', username, message, at: Date.now() })
  }

  /** A change to the plan memory, for clients subscribed to `memory`. */
  publishMemory(change: z.input<typeof MemoryChange>): void {
    this.broadcast('memory', { v: WS_PROTOCOL_VERSION, type: 'memory', change: MemoryChange.parse(change) })
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.unsubscribeTasks()
    this.views.close()
    this.detach?.()
    if (this.heartbeat) clearInterval(this.heartbeat)
    if (this.statusTimer) clearInterval(this.statusTimer)
    for (const c of [...this.clients.values()]) {
      c.socket.close(1001, 'bridge stopping')
      this.forget(c)
    }
    await new Promise<void>((resolve) => this.wss.close(() => resolve()))
  }

  // ------------------------------------------------------------------ connections

  private onConnection(socket: WebSocket): void {
    const pending = [...this.clients.values()].filter((x) => !x.role).length
    if (this.closed || pending >= (this.opts.maxPending ?? 8)) {
      socket.close(1013, 'too many clients')
      return
    }
    this.seq += 1
    const id = `c${this.seq}`
    const c = newClient(id, socket, this.opts)
    this.clients.set(id, c)
    c.authTimer = setTimeout(() => {
      if (!c.role) socket.close(1008, 'authentication timeout')
    }, this.opts.authTimeoutMs ?? 10_000)
    c.authTimer.unref()
    socket.on('message', (data, isBinary) => this.onMessage(c, data, isBinary))
    socket.on('pong', () => {
      c.alive = true
    })
    socket.on('close', () => this.forget(c))
    socket.on('error', (err) => log.debug('ws client error', { client: id, err: err.message }))
    this.send(c, {
      v: WS_PROTOCOL_VERSION,
      type: 'welcome',
      server: 'ghostcraft',
      protocol: WS_PROTOCOL_VERSION,
      authRequired: true,
      maxMessageBytes: this.maxMessageBytes,
    })
  }

  private forget(c: Client): void {
    if (c.authTimer) clearTimeout(c.authTimer)
    c.authTimer = null
    if (this.clients.delete(c.id)) this.updateStatusTimer()
  }

  private drop(c: Client, reason: string): void {
    log.warn('dropping WebSocket client', { client: c.id, reason, bufferedBytes: c.socket.bufferedAmount })
    c.socket.terminate()
    this.forget(c)
    this.emit('dropped', c.id, reason)
  }

  private beat(): void {
    for (const c of [...this.clients.values()]) {
      if (!c.alive) {
        this.drop(c, 'no pong')
        continue
      }
      c.alive = false
      try {
        c.socket.ping()
      } catch {
        /* closing */
      }
    }
  }

  // ------------------------------------------------------------------ sending

  private send(c: Client, msg: WsOut): void {
    if (c.socket.readyState !== WebSocket.OPEN) return
    if (c.socket.bufferedAmount > this.maxBufferedBytes) {
      this.drop(c, 'slow consumer')
      return
    }
    c.socket.send(JSON.stringify(msg))
  }

  private error(c: Client, code: WsErrorCode, message: string, requestId?: string): void {
    this.send(c, { v: WS_PROTOCOL_VERSION, type: 'error', code, message, ...(requestId ? { requestId } : {}) })
  }

  private broadcast(topic: WsTopic, msg: WsOut): void {
    for (const c of [...this.clients.values()]) if (c.role && c.topics.has(topic)) this.send(c, msg)
  }

  // ------------------------------------------------------------------ receiving

  private onMessage(c: Client, data: RawData, isBinary: boolean): void {
    const frame = decodeFrame(data, isBinary, this.maxMessageBytes)
    if (!frame.ok) {
      this.error(c, frame.code, frame.message, frame.requestId)
      return
    }
    const m = frame.message
    const requestId = 'id' in m ? m.id : undefined
    if (m.type === 'ping') {
      this.send(c, { v: WS_PROTOCOL_VERSION, type: 'pong', ...(m.id ? { id: m.id } : {}), at: Date.now() })
      return
    }
    if (m.type === 'auth') {
      this.onAuth(c, m.token)
      return
    }
    if (!c.role) {
      this.error(c, 'unauthorised', 'authenticate first: {"v":1,"type":"auth","token":"..."}', requestId)
      return
    }
    switch (m.type) {
      case 'subscribe':
      case 'unsubscribe': {
        for (const t of m.topics)
          if (m.type === 'subscribe') c.topics.add(t)
          else c.topics.delete(t)
        this.send(c, { v: WS_PROTOCOL_VERSION, type: 'subscribed', topics: [...c.topics] })
        if (m.type === 'subscribe' && m.topics.includes('status')) this.send(c, statusMessage(this.router))
        this.updateStatusTimer()
        return
      }
      case 'view':
        if (!this.takeToken(c, m.id, c.viewBucket)) return
        void this.onView(c, m.id, m.view, m.q)
        return
      case 'request':
        if (!this.takeToken(c, m.id)) return
        void this.onRequest(
          c,
          m.id,
          m.command !== undefined ? `${m.command} ${m.args ?? ''}`.trim() : (m.text ?? ''),
          m.command !== undefined,
        )
        return
    }
  }

  /** Spend one request token; answers `rate_limited` and returns false when the client has none left. */
  private takeToken(c: Client, requestId: string, bucket = c.bucket): boolean {
    if (bucket.take()) return true
    this.error(c, 'rate_limited', `too many requests; wait ${bucket.waitMs()} ms`, requestId)
    return false
  }

  private onAuth(c: Client, token: string): void {
    if (c.role) {
      this.error(c, 'invalid', 'already authenticated')
      return
    }
    const role = this.auth.check(token)
    if (!role) {
      c.authFailures += 1
      log.warn('WebSocket authentication failed', { client: c.id, failures: c.authFailures })
      this.error(c, 'auth_failed', 'unknown token')
      if (c.authFailures >= (this.opts.maxAuthFailures ?? 5))
        c.socket.close(1008, 'too many failed authentication attempts')
      return
    }
    const authenticated = [...this.clients.values()].filter((x) => x.role).length
    if (authenticated >= (this.opts.maxClients ?? 32)) {
      c.socket.close(1013, 'too many clients')
      this.forget(c)
      return
    }
    c.role = role
    // Identity comes from the token, never from the client: the auth message's optional `name` is not used (a guest
    // naming itself "alice" must not pass alice's ownership checks or reset its LLM budget by renaming).
    c.player = `ws:${role}`
    if (c.authTimer) clearTimeout(c.authTimer)
    c.authTimer = null
    log.info('WebSocket client authenticated', { client: c.id, role })
    this.send(c, { v: WS_PROTOCOL_VERSION, type: 'auth', ok: true, role, clientId: c.id, player: c.player })
  }

  private async onRequest(c: Client, requestId: string, text: string, strict: boolean): Promise<void> {
    const role = c.role!
    const req: Request = {
      id: newRequestId(),
      source: 'ws',
      principal: { kind: 'ws', clientId: c.id, role },
      player: c.player,
      text,
      reply: async (t, o) =>
        this.send(c, { v: WS_PROTOCOL_VERSION, type: 'reply', requestId, text: t, private: o?.private ?? false }),
    }
    const settle = this.tasks.track(req.id, c, requestId)
    try {
      await this.router.handle(req, { strict })
    } catch (err) {
      log.error('ws request failed', { client: c.id, err: err instanceof Error ? err.message : String(err) })
      this.error(c, 'internal', 'the request failed on my side; the error is in the log', requestId)
    } finally {
      settle()
    }
  }

  private async onView(c: Client, requestId: string, view: WsViewName, q: string | undefined): Promise<void> {
    try {
      const a = await this.views.answer(c.role!, view, q)
      if (a.ok) this.send(c, { v: WS_PROTOCOL_VERSION, type: 'view', requestId, data: a.data })
      else this.error(c, a.code, a.message, requestId)
    } catch (err) {
      log.error('ws view failed', { client: c.id, view, err: err instanceof Error ? err.message : String(err) })
      this.error(c, 'internal', 'the view failed on my side; the error is in the log', requestId)
    }
  }

  // ------------------------------------------------------------------ events out

  private onTaskEvent(e: TaskEvent): void {
    const owner = this.tasks.ownerOf(e)
    for (const c of [...this.clients.values()]) {
      const msg = taskMessage(c, e, owner)
      if (msg) this.send(c, msg)
    }
  }

  private updateStatusTimer(): void {
    const wanted = !this.closed && [...this.clients.values()].some((c) => c.role && c.topics.has('status'))
    if (wanted && !this.statusTimer) {
      this.statusTimer = setInterval(
        () => this.broadcast('status', statusMessage(this.router)),
        this.opts.statusIntervalMs ?? 5000,
      )
      this.statusTimer.unref()
    } else if (!wanted && this.statusTimer) {
      clearInterval(this.statusTimer)
      this.statusTimer = null
    }
  }
}
