/**
 * The web page's server without a Minecraft world: a real Router (commands, policy, audit; no bot connected) behind
 * startWebServer. Checks the token rules (a loopback session token only for a loopback Host; none beyond loopback,
 * and no start there without configured tokens), the same-origin ws route, role-checked views, the compiled page,
 * and that the viewer's static route cannot leave prismarine-viewer's public folder.
 */
import { request } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { all as allCommands } from '../../../commands/index.js'
import { createBody } from '../../../src/actions/body.js'
import { loadConfig } from '../../../src/config.js'
import { viewerFile } from '../../../src/bot/viewer.js'
import { startWebServer, type WebServer } from '../../../src/io/web/index.js'
import { Views } from '../../../src/io/ws/views.js'
import { UsageLedger } from '../../../src/llm/usage.js'
import { AuditLog } from '../../../src/router/audit.js'
import { createPolicy } from '../../../src/router/permissions.js'
import { Router } from '../../../src/router/router.js'
import { WsOut } from '../../../src/schemas/ws.js'

const GUEST = 'unit-web-guest-token-0123456789abcdef01'
let server: WebServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

function router(): Router {
  const cfg = loadConfig({ GHOST_AUDIT_LOG: '' }, '/nonexistent.json')
  if (!cfg.ok) throw new Error('config')
  return new Router({
    commands: allCommands(),
    policy: createPolicy(cfg.config),
    audit: new AuditLog(null),
    services: { body: createBody(() => null) },
  })
}

function get(port: number, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = ''
      res.on('data', (d: Buffer) => {
        body += d.toString()
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

/** Connect to /ws, send the frames, collect parsed answers until `until` holds (or 5 s pass). */
function talk(
  url: string,
  origin: string | undefined,
  frames: object[],
  until: (got: WsOut[]) => boolean,
): Promise<{ got: WsOut[]; status: number | null }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, origin ? { origin } : {})
    const got: WsOut[] = []
    const done = (status: number | null): void => {
      clearTimeout(t)
      ws.terminate()
      resolve({ got, status })
    }
    const t = setTimeout(() => done(null), 5000)
    ws.on('unexpected-response', (_req, res) => done(res.statusCode ?? 0))
    ws.on('message', (d) => {
      const m = WsOut.parse(JSON.parse(String(d)))
      got.push(m)
      if (m.type === 'welcome') for (const f of frames) ws.send(JSON.stringify(f))
      if (until(got)) done(101)
    })
    ws.on('error', () => {
      /* reported through unexpected-response or the timeout */
    })
  })
}

describe('web server', () => {
  it('on loopback: serves the compiled page and a session token, but only to a loopback Host', async () => {
    server = await startWebServer({ host: '127.0.0.1', port: 0, router: router(), tokens: { guest: GUEST } })
    expect(server.tokenRequired).toBe(false)
    const page = await get(server.port, '/', `127.0.0.1:${server.port}`)
    expect(page.body).toContain('<script type="module" src="/app.js">')
    const js = await get(server.port, '/app.js', `127.0.0.1:${server.port}`)
    expect(js.status).toBe(200)
    expect(js.body).not.toMatch(/from ['"]zod['"]|import type/)
    const mine = JSON.parse((await get(server.port, '/session', `localhost:${server.port}`)).body) as {
      token: string | null
    }
    expect(mine.token).toMatch(/^[A-Za-z0-9_-]{32}$/)
    const rebound = JSON.parse((await get(server.port, '/session', `evil.example:${server.port}`)).body) as {
      token: string | null
    }
    expect(rebound.token).toBeNull()

    const wsUrl = `ws://127.0.0.1:${server.port}/ws`
    const foreign = await talk(wsUrl, 'http://evil.example', [], () => false)
    expect(foreign.status).toBe(403)
    const owner = await talk(
      wsUrl,
      `http://127.0.0.1:${server.port}`,
      [
        { v: 1, type: 'auth', token: mine.token },
        { v: 1, type: 'view', id: 'a1', view: 'audit' },
      ],
      (g) => g.some((m) => m.type === 'view'),
    )
    expect(owner.got.find((m) => m.type === 'auth')).toMatchObject({ role: 'owner' })
    expect(owner.got.find((m) => m.type === 'view')).toMatchObject({
      requestId: 'a1',
      data: { view: 'audit', entries: [] },
    })
    const guest = await talk(
      wsUrl,
      undefined,
      [
        { v: 1, type: 'auth', token: GUEST },
        { v: 1, type: 'view', id: 'a2', view: 'audit' },
        { v: 1, type: 'view', id: 'q1', view: 'queue' },
      ],
      (g) => g.some((m) => m.type === 'view'),
    )
    expect(guest.got.find((m) => m.type === 'error')).toMatchObject({ code: 'forbidden', requestId: 'a2' })
    expect(guest.got.find((m) => m.type === 'view')).toMatchObject({
      requestId: 'q1',
      data: { view: 'queue', current: null, pending: [] },
    })
  })

  it('beyond loopback: no session token, and it will not start without a configured one', async () => {
    await expect(startWebServer({ host: '0.0.0.0', port: 0, router: router(), tokens: {} })).rejects.toThrow(
      /needs a token/,
    )
    server = await startWebServer({ host: '0.0.0.0', port: 0, router: router(), tokens: { guest: GUEST } })
    expect(server.tokenRequired).toBe(true)
    const s = JSON.parse((await get(server.port, '/session', `127.0.0.1:${server.port}`)).body) as {
      token: string | null
      tokenRequired: boolean
    }
    expect(s).toMatchObject({ token: null, tokenRequired: true })
    const cfg = loadConfig({ GHOST_WEB_PORT: '8080', GHOST_WEB_HOST: '0.0.0.0' }, '/nonexistent.json')
    expect(cfg.ok ? [] : cfg.problems.map((p) => p.key)).toContain('GHOST_WEB_HOST')
  })

  it('the usage view: LLM calls and tokens per player against the budget, for trusted roles and up', async () => {
    const usage = new UsageLedger(1000)
    usage.record({ player: 'Alice' }, { promptTokens: 300, completionTokens: 100 })
    usage.record({ player: 'ws:guest' }, { promptTokens: 50, completionTokens: 0 })
    const views = new Views(router(), { llm: { model: 'test-model', usage } })
    expect(await views.answer('trusted', 'usage', undefined)).toMatchObject({
      ok: true,
      data: {
        view: 'usage',
        model: 'test-model',
        budgetPerPlayer: 1000,
        total: { calls: 2, totalTokens: 450 },
        players: [
          { player: 'Alice', calls: 1, totalTokens: 400, remaining: 600 },
          { player: 'ws:guest', calls: 1, totalTokens: 50, remaining: 950 },
        ],
      },
    })
    expect(await views.answer('guest', 'usage', undefined)).toMatchObject({ ok: false, code: 'forbidden' })
    views.close()
  })

  it("the viewer's static route stays inside prismarine-viewer's public folder", () => {
    expect(viewerFile('/viewer/first/')).toMatch(/prismarine-viewer\/public\/index\.html$/)
    expect(viewerFile('/viewer/follow/index.js')).toMatch(/public\/index\.js$/)
    expect(viewerFile('/viewer/first/..%2F..%2Fpackage.json')).toBeNull()
    expect(viewerFile('/viewer/first/../package.json')).toBeNull()
    expect(viewerFile('/viewer/other/index.html')).toBeNull()
  })
})
