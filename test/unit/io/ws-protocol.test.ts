/**
 * The WebSocket protocol pieces that need no socket: token → role (constant-time, highest role wins, unknown and
 * unset tokens rejected) and the zod message schemas (what a valid request is, what is refused).
 */
import { describe, expect, it } from 'vitest'
import { TokenAuth, tokensFromConfig } from '../../../src/io/ws/auth.js'
import { WsIn, WsOut } from '../../../src/schemas/ws.js'

describe('ws token auth', () => {
  it('maps each configured token to its role and refuses others', () => {
    const auth = new TokenAuth(
      tokensFromConfig({
        GHOST_WS_OWNER_TOKEN: 'o-secret',
        GHOST_WS_TRUSTED_TOKEN: 't-secret',
        GHOST_WS_GUEST_TOKEN: undefined,
      }),
    )
    expect(auth.configured).toBe(true)
    expect(auth.check('o-secret')).toBe('owner')
    expect(auth.check('t-secret')).toBe('trusted')
    expect(auth.check('o-secreT')).toBeNull()
    expect(auth.check('o-secret ')).toBeNull()
    expect(auth.check('')).toBeNull()
  })

  it('grants the highest role when one token is configured twice, and nothing when none is set', () => {
    expect(new TokenAuth({ guest: 'same', owner: 'same' }).check('same')).toBe('owner')
    const none = new TokenAuth({ owner: undefined, trusted: '' })
    expect(none.configured).toBe(false)
    expect(none.check('anything')).toBeNull()
  })
})

describe('ws message schemas', () => {
  it('accepts requests with exactly one of text or command', () => {
    expect(WsIn.safeParse({ v: 1, type: 'request', id: 'a1', text: 'get me wood' }).success).toBe(true)
    expect(WsIn.safeParse({ v: 1, type: 'request', id: 'a1', command: 'follow', args: 'Steve' }).success).toBe(true)
    expect(WsIn.safeParse({ v: 1, type: 'request', id: 'a1', text: 'x', command: 'status' }).success).toBe(false)
    expect(WsIn.safeParse({ v: 1, type: 'request', id: 'a1' }).success).toBe(false)
    expect(WsIn.safeParse({ v: 1, type: 'request', id: 'a1', text: 'x', args: 'y' }).success).toBe(false)
    expect(WsIn.safeParse({ v: 1, type: 'request', id: 'has space', text: 'x' }).success).toBe(false)
  })

  it('refuses unknown fields, types, topics and versions', () => {
    expect(WsIn.safeParse({ v: 1, type: 'auth', token: 't', extra: 1 }).success).toBe(false)
    expect(WsIn.safeParse({ v: 1, type: 'shutdown' }).success).toBe(false)
    expect(WsIn.safeParse({ v: 1, type: 'subscribe', topics: ['tasks', 'secrets'] }).success).toBe(false)
    expect(WsIn.safeParse({ v: 2, type: 'ping' }).success).toBe(false)
    expect(WsIn.safeParse({ v: 1, type: 'subscribe', topics: ['tasks', 'chat'] }).success).toBe(true)
  })

  it('describes task events with the router TaskEvent shape', () => {
    const ok = WsOut.safeParse({
      v: 1,
      type: 'task',
      event: { kind: 'finished', taskId: 't-1', ok: true, message: 'done', durationMs: 5 },
    })
    expect(ok.success).toBe(true)
    expect(WsOut.safeParse({ v: 1, type: 'task', event: { kind: 'finished', taskId: 't-1' } }).success).toBe(false)
  })
})
