/**
 * The WebSocket bridge as the composition root starts it: createApp with GHOST_WS_PORT set (and no Minecraft
 * server to reach, so the bot keeps reconnecting) serves authenticated requests through the app's own router, and
 * app.stop() closes the bridge.
 */
import { describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { createApp } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { freePort } from '../helpers/net.js'

describe('app with the WebSocket bridge', () => {
  it('starts the bridge from config, answers through the app router, and stops it', async () => {
    const [wsPort, mcPort] = [await freePort(), await freePort()]
    const result = loadConfig({
      GHOST_WS_PORT: String(wsPort),
      GHOST_WS_OWNER_TOKEN: 'app-owner-token-0123456789abcdefghij',
      GHOST_AUDIT_LOG: '',
      GHOST_CONFIG: '/nonexistent.json',
    })
    if (!result.ok) throw new Error(JSON.stringify(result.problems))
    const app = await createApp(result.config, { host: '127.0.0.1', port: mcPort }, { initialBackoffMs: 5000 })
    try {
      let socket: WebSocket | null = null
      for (let i = 0; i < 50 && !socket; i++) {
        socket = await new Promise<WebSocket | null>((resolve) => {
          const s = new WebSocket(`ws://127.0.0.1:${wsPort}`)
          s.once('open', () => resolve(s))
          s.once('error', () => resolve(null))
        })
        if (!socket) await new Promise((r) => setTimeout(r, 50))
      }
      const got: Array<{ type: string; text?: string; role?: string }> = []
      socket!.on('message', (d) => got.push(JSON.parse(String(d)) as { type: string }))
      socket!.send(JSON.stringify({ v: 1, type: 'auth', token: 'app-owner-token-0123456789abcdefghij' }))
      socket!.send(JSON.stringify({ v: 1, type: 'request', id: 'q1', command: 'status' }))
      for (let i = 0; i < 100 && !got.some((m) => m.type === 'reply'); i++) await new Promise((r) => setTimeout(r, 20))
      expect(got.find((m) => m.type === 'auth')).toMatchObject({ role: 'owner' })
      expect(got.find((m) => m.type === 'reply')!.text).toMatch(/Not connected/)
      expect(app.router.audit.recent.at(-1)).toMatchObject({ source: 'ws', command: 'status', allowed: true })
      const closed = new Promise<number>((resolve) => socket!.once('close', (code) => resolve(code)))
      await app.stop()
      expect(await closed).toBe(1001)
    } finally {
      await app.stop()
    }
  })
})
