/**
 * The WebSocket bridge with real `ws` clients on loopback and a real in-process Router (the real commands plus a
 * test-only task that reports progress). Every message a client receives is validated against `WsOut`. Covers:
 * authentication (bad token, unauthorised request, role from token, too many failures), malformed and oversized
 * frames (error back, connection still usable), a task whose progress streams to two subscribers, status and
 * memory topics, and a slow client being dropped while a fast one keeps going.
 */
import { setImmediate as tick } from 'node:timers/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { startWsBridge, WsBridge, type WsBridgeOptions } from '../../src/io/ws/index.js'
import type { Router } from '../../src/router/router.js'
import { WsOut } from '../../src/schemas/ws.js'
import { progressCommand } from '../helpers/progress-command.js'
import { offlineRouter } from '../helpers/router.js'

const OWNER_TOKEN = 'owner-token-0123456789'
const GUEST_TOKEN = 'guest-token-abcdefghij'

const dig = progressCommand(10)

class TestClient {
  readonly messages: WsOut[] = []
  readonly invalid: unknown[] = []
  private cursor = 0
  private wake: (() => void) | null = null
  closed: { code: number; reason: string } | null = null

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const raw: unknown = JSON.parse(String(data))
      const parsed = WsOut.safeParse(raw)
      if (parsed.success) this.messages.push(parsed.data)
      else this.invalid.push(raw)
      this.wake?.()
    })
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() }
      this.wake?.()
    })
  }

  static async connect(port: number): Promise<TestClient> {
    const socket = new WebSocket(`ws://127.0.0.1:${port}`)
    const c = new TestClient(socket)
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve())
      socket.once('error', reject)
    })
    await c.next('welcome')
    return c
  }

  send(msg: unknown): void {
    this.socket.send(typeof msg === 'string' ? msg : JSON.stringify(msg))
  }

  /** The next not-yet-consumed message of `type` (and matching `pred`), waiting up to `timeoutMs`. */
  async next<T extends WsOut['type']>(
    type: T,
    pred: (m: Extract<WsOut, { type: T }>) => boolean = () => true,
    timeoutMs = 3000,
  ): Promise<Extract<WsOut, { type: T }>> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      for (let i = this.cursor; i < this.messages.length; i++) {
        const m = this.messages[i]!
        if (m.type === type && pred(m as Extract<WsOut, { type: T }>)) {
          this.messages.splice(i, 1)
          return m as Extract<WsOut, { type: T }>
        }
      }
      if (this.closed) throw new Error(`socket closed (${this.closed.code}) while waiting for ${type}`)
      const left = deadline - Date.now()
      if (left <= 0)
        throw new Error(`no ${type} message within ${timeoutMs} ms; got ${JSON.stringify(this.messages).slice(0, 500)}`)
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left)
        this.wake = () => {
          clearTimeout(t)
          resolve()
        }
      })
    }
  }

  async auth(token: string, name?: string): Promise<Extract<WsOut, { type: 'auth' }>> {
    this.send({ v: 1, type: 'auth', token, ...(name ? { name } : {}) })
    return this.next('auth')
  }

  async stillUsable(): Promise<void> {
    this.send({ v: 1, type: 'ping', id: 'alive' })
    await this.next('pong', (m) => m.id === 'alive')
  }
}

let bridge: WsBridge | null = null
let router: Router
const clients: TestClient[] = []

async function start(overrides: Partial<WsBridgeOptions> = {}): Promise<WsBridge> {
  router = offlineRouter({ extraCommands: [dig] })
  bridge = await WsBridge.start(router, {
    host: '127.0.0.1',
    port: 0,
    tokens: { owner: OWNER_TOKEN, guest: GUEST_TOKEN },
    ...overrides,
  })
  return bridge
}
async function client(): Promise<TestClient> {
  const c = await TestClient.connect(bridge!.port)
  clients.push(c)
  return c
}

afterEach(async () => {
  for (const c of clients.splice(0)) c.socket.terminate()
  await bridge?.close()
  bridge = null
})

describe('WebSocket bridge', () => {
  it('is off without GHOST_WS_PORT', async () => {
    const r = offlineRouter()
    expect(
      await startWsBridge(
        {
          GHOST_WS_PORT: undefined,
          GHOST_WS_HOST: '127.0.0.1',
          GHOST_WS_OWNER_TOKEN: 'x',
          GHOST_WS_TRUSTED_TOKEN: undefined,
          GHOST_WS_GUEST_TOKEN: undefined,
        },
        r,
      ),
    ).toBeNull()
  })

  it('rejects a bad token and unauthorised requests, keeps the connection, then grants the token role', async () => {
    await start()
    const c = await client()
    c.send({ v: 1, type: 'request', id: 'r1', command: 'status' })
    expect(await c.next('error')).toMatchObject({ code: 'unauthorised', requestId: 'r1' })
    c.send({ v: 1, type: 'auth', token: 'owner-token-0123456788' })
    expect(await c.next('error')).toMatchObject({ code: 'auth_failed' })
    await c.stillUsable()
    expect(await c.auth(GUEST_TOKEN, 'dash')).toMatchObject({ ok: true, role: 'guest', player: 'ws:guest' })
    c.send({ v: 1, type: 'request', id: 'r2', command: 'status' })
    expect((await c.next('reply', (m) => m.requestId === 'r2')).text).toMatch(/Not connected/)
    c.send({ v: 1, type: 'request', id: 'r3', command: 'come' })
    expect(await c.next('reply', (m) => m.requestId === 'r3')).toMatchObject({
      private: true,
      text: expect.stringMatching(/needs the trusted role and you are guest/),
    })
    expect(router.audit.recent.at(-1)).toMatchObject({
      source: 'ws',
      player: 'ws:guest',
      role: 'guest',
      allowed: false,
    })
    expect(c.invalid).toEqual([])
  })

  it('closes a connection after too many failed authentications', async () => {
    await start({ maxAuthFailures: 3 })
    const c = await client()
    for (let i = 0; i < 3; i++) c.send({ v: 1, type: 'auth', token: `wrong-${i}` })
    await expect(c.next('pong', () => true, 3000)).rejects.toThrow(/closed \(1008\)/)
  })

  it('closes a connection that never authenticates', async () => {
    await start({ authTimeoutMs: 100 })
    const c = await client()
    await expect(c.next('pong', () => true, 3000)).rejects.toThrow(/closed \(1008\)/)
  })

  it('sends the requester its own task events even without a subscription', async () => {
    await start()
    const c = await client()
    await c.auth(OWNER_TOKEN)
    c.send({ v: 1, type: 'request', id: 'solo', text: 'dig' })
    const finished = await c.next('task', (m) => m.event.kind === 'finished', 5000)
    expect(finished.requestId).toBe('solo')
    expect((await c.next('reply', (m) => m.requestId === 'solo')).text).toBe('Dug 3 blocks.')
  })

  it('answers malformed and oversized messages with an error and stays usable', async () => {
    await start()
    const c = await client()
    await c.auth(OWNER_TOKEN)
    c.send('{not json')
    expect(await c.next('error')).toMatchObject({ code: 'bad_json' })
    c.send({ v: 1, type: 'request', id: 'x1' })
    expect(await c.next('error')).toMatchObject({ code: 'invalid', requestId: 'x1' })
    c.send({ v: 1, type: 'subscribe', topics: ['weather'] })
    expect(await c.next('error')).toMatchObject({ code: 'invalid' })
    c.send({ v: 2, type: 'ping' })
    expect(await c.next('error')).toMatchObject({ code: 'unsupported_version' })
    c.send([1, 2, 3])
    expect(await c.next('error')).toMatchObject({ code: 'unsupported_version' })
    c.socket.send(Buffer.from('{"v":1,"type":"ping"}'), { binary: true })
    expect(await c.next('error')).toMatchObject({ code: 'invalid' })
    await c.stillUsable()
    c.send({ v: 1, type: 'request', id: 'big', text: 'x'.repeat(70 * 1024) })
    expect(await c.next('error')).toMatchObject({ code: 'too_large' })
    await c.stillUsable()
    expect(c.closed).toBeNull()
  })

  it('runs a requested task and streams its progress events to two subscribers', async () => {
    await start()
    const a = await client()
    const b = await client()
    const quiet = await client()
    await a.auth(OWNER_TOKEN, 'alice')
    await b.auth(GUEST_TOKEN, 'bob')
    await quiet.auth(GUEST_TOKEN)
    for (const c of [a, b]) {
      c.send({ v: 1, type: 'subscribe', topics: ['tasks'] })
      expect((await c.next('subscribed')).topics).toEqual(['tasks'])
    }
    a.send({ v: 1, type: 'request', id: 'dig-1', command: 'dig' })
    expect((await a.next('reply', (m) => m.requestId === 'dig-1', 5000)).text).toBe('Dug 3 blocks.')
    for (const c of [a, b]) {
      const started = await c.next('task', (m) => m.event.kind === 'started')
      const taskId = started.event.taskId
      const progress: number[] = []
      for (let i = 0; i < 4; i++) {
        const p = await c.next('task', (m) => m.event.kind === 'progress' && m.event.taskId === taskId)
        if (p.event.kind === 'progress') {
          progress.push(p.event.done)
          expect(p.event.subgoals).toHaveLength(3)
        }
      }
      expect(progress).toEqual([0, 1, 2, 3])
      expect((await c.next('task', (m) => m.event.kind === 'action')).event).toMatchObject({ action: 'dig', ok: true })
      const finished = await c.next('task', (m) => m.event.kind === 'finished')
      expect(finished.event).toMatchObject({ ok: true, taskId })
      // Only the requester's copies carry its request id.
      expect(finished.requestId).toBe(c === a ? 'dig-1' : undefined)
      expect(c.invalid).toEqual([])
    }
    // a ping answered after the task finished: any task event sent to `quiet` would have arrived before its pong
    await quiet.stillUsable()
    expect(quiet.messages.filter((m) => m.type === 'task')).toEqual([])
    expect(router.audit.recent.at(-1)).toMatchObject({
      source: 'ws',
      command: 'dig',
      role: 'owner',
      allowed: true,
      player: 'ws:owner',
    })
  })

  it('sends status snapshots, memory changes and chat to subscribers only', async () => {
    await start({ statusIntervalMs: 50 })
    const c = await client()
    const other = await client()
    await c.auth(OWNER_TOKEN)
    await other.auth(OWNER_TOKEN)
    c.send({ v: 1, type: 'subscribe', topics: ['status', 'memory', 'chat'] })
    expect(await c.next('status')).toMatchObject({ connected: false, task: null, queued: 0 })
    await c.next('status') // and again on the interval
    bridge!.publishMemory({ kind: 'lesson_added', goalKey: 'mine:oak_log', message: 'use an axe' })
    expect((await c.next('memory')).change).toEqual({
      kind: 'lesson_added',
      goalKey: 'mine:oak_log',
      message: 'use an axe',
    })
    bridge!.publishChat('Steve', 'hi ghost')
    expect(await c.next('chat')).toMatchObject({ username: 'Steve', message: 'hi ghost' })
    c.send({ v: 1, type: 'unsubscribe', topics: ['chat'] })
    expect((await c.next('subscribed', (m) => !m.topics.includes('chat'))).topics).toEqual(['status', 'memory'])
    await other.stillUsable() // its pong comes after anything the bridge sent it before
    expect(other.messages.filter((m) => m.type !== 'auth')).toEqual([])
  })

  it('drops a client that stops reading, and keeps serving the others', async () => {
    await start({ maxBufferedBytes: 256 * 1024 })
    const slow = await client()
    const fast = await client()
    const slowAuth = await slow.auth(OWNER_TOKEN)
    await fast.auth(OWNER_TOKEN)
    for (const c of [slow, fast]) {
      c.send({ v: 1, type: 'subscribe', topics: ['chat'] })
      await c.next('subscribed')
    }
    slow.socket.pause() // stop reading: the kernel buffers fill, then the server's send buffer grows
    const dropped: string[] = []
    bridge!.on('dropped', (id: string) => dropped.push(id))
    const line = 'y'.repeat(8 * 1024)
    let sent = 0
    while (dropped.length === 0 && sent < 16_000) {
      for (let i = 0; i < 8; i++) {
        bridge!.publishChat('Steve', line)
        sent++
      }
      await tick()
    }
    expect(dropped).toEqual([slowAuth.clientId])
    expect(bridge!.clientCount()).toBe(1)
    await fast.stillUsable()
    expect(fast.closed).toBeNull()
  })
})
