/**
 * The web page (GHOST_WEB_PORT): one HTTP server in the bot process that serves the page (index.html, app.css and
 * app.js, which esbuild compiles from ./page/*.ts once at start-up — no separate build step), the bot's view
 * (prismarine-viewer's bundle and world stream, mounted by the caller under /viewer/), and the ws bridge itself on
 * the same port at `/ws` (WsBridge.attach), so the page speaks the one protocol scripts use and every request it
 * makes goes through the router, its permission check and the audit log. Bound to loopback, `/session` hands the
 * page a random per-process owner token (only to requests whose Host is loopback, against DNS rebinding); bound
 * beyond loopback there is no session token and the page asks for one of the bridge's configured tokens — the
 * viewer then also needs one (a cookie the page sets after the bridge accepted it).
 */
import { randomBytes } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, stop as stopEsbuild } from 'esbuild'
import type { Router } from '../../router/router.js'
import { GhostError } from '../../util/errors.js'
import { logger } from '../../util/log.js'
import { TokenAuth, type WsTokens } from '../ws/auth.js'
import { WsBridge } from '../ws/bridge.js'
import type { ViewSources } from '../ws/views.js'

const log = logger('web')
const PAGE_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'page')
export const WEB_WS_PATH = '/ws'
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost'])
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
}
const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'"

/** The bot's view, mounted by the composition root (src/bot/viewer.ts) so this module needs no mineflayer. */
export interface WebViewer {
  mount(server: Server, allow: (req: IncomingMessage) => boolean): { close(): Promise<void> }
  file(pathname: string): string | null
}

export interface WebServerOptions {
  host: string
  /** 0 picks a free port (tests). */
  port: number
  router: Router
  tokens: WsTokens
  views?: ViewSources
  viewer?: WebViewer | null
  statusIntervalMs?: number
}

export interface WebServer {
  readonly url: string
  readonly port: number
  /** Whether the page needs a token (bound beyond loopback). */
  readonly tokenRequired: boolean
  /** In-game chat and memory changes for the page's subscribers (as the standalone bridge publishes them). */
  publishChat(username: string, message: string): void
  publishMemory(change: { kind: string; goalKey: string | null; message: string }): void
  close(): Promise<void>
}

interface PageAssets {
  html: string
  css: string
  js: string
}

async function loadAssets(): Promise<PageAssets> {
  const [html, css] = await Promise.all([
    readFile(path.join(PAGE_DIR, 'index.html'), 'utf8'),
    readFile(path.join(PAGE_DIR, 'app.css'), 'utf8'),
  ])
  const bundle = await build({
    entryPoints: [path.join(PAGE_DIR, 'app.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    target: 'es2020',
    platform: 'browser',
    logLevel: 'silent',
    legalComments: 'none',
  })
  // esbuild keeps a service child process until told otherwise; it would outlive a clean shutdown (restarts on demand)
  await stopEsbuild()
  return { html, css, js: bundle.outputFiles[0]!.text }
}

function hostIsLoopback(req: IncomingMessage): boolean {
  const h = req.headers.host ?? ''
  const name = h.startsWith('[') ? h.slice(1, h.indexOf(']')) : h.split(':')[0]!
  return LOOPBACK.has(name)
}

function cookie(req: IncomingMessage, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=')
    if (k === name) {
      try {
        return decodeURIComponent(v.join('='))
      } catch {
        return null
      }
    }
  }
  return null
}

/** Start the page's HTTP server; rejects with GhostError 'config' when the address is unusable. */
export async function startWebServer(opts: WebServerOptions): Promise<WebServer> {
  const assets = await loadAssets()
  const loopback = LOOPBACK.has(opts.host)
  const session = loopback ? randomBytes(24).toString('base64url') : null
  const auth = new TokenAuth(opts.tokens, session ? [{ token: session, role: 'owner' }] : [])
  if (!auth.configured)
    throw new GhostError(
      'config',
      'the web page beyond loopback needs a token',
      'Set GHOST_WS_OWNER_TOKEN (and/or _TRUSTED_/_GUEST_).',
    )
  const server = createServer((req, res) => serve(req, res, assets, session, opts.viewer ?? null))
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) =>
      reject(new GhostError('config', `web page cannot listen on ${opts.host}:${opts.port}: ${err.message}`)),
    )
    server.listen(opts.port, opts.host, () => {
      server.removeAllListeners('error')
      resolve()
    })
  })
  server.on('error', (err) => log.error('web server error', { err: err.message }))
  const bridge = WsBridge.attach(opts.router, server, {
    path: WEB_WS_PATH,
    tokens: opts.tokens,
    extraTokens: session ? [{ token: session, role: 'owner' }] : [],
    views: opts.views,
    statusIntervalMs: opts.statusIntervalMs ?? 1000,
  })
  const allowView = (req: IncomingMessage): boolean =>
    loopback || auth.check(cookie(req, 'ghost_viewer') ?? '') !== null
  const viewer = opts.viewer?.mount(server, allowView) ?? null
  // Upgrades nobody claims (not /ws, not a viewer socket) are closed rather than left hanging.
  server.on('upgrade', (req: IncomingMessage, socket) => {
    const p = new URL(req.url ?? '/', 'http://local').pathname
    if (p !== WEB_WS_PATH && !/^\/viewer\/(first|follow)\/socket\.io\/?$/.test(p)) socket.destroy()
  })
  const a = server.address()
  const port = typeof a === 'object' && a ? a.port : opts.port
  const shownHost = opts.host.includes(':') ? `[${opts.host}]` : opts.host === '0.0.0.0' ? '127.0.0.1' : opts.host
  if (!loopback) log.warn('web page listens beyond this machine; it asks for a token', { host: opts.host, port })
  let closed = false
  return {
    url: `http://${shownHost}:${port}/`,
    port,
    tokenRequired: !loopback,
    publishChat: (username, message) => bridge.publishChat(username, message),
    publishMemory: (change) => bridge.publishMemory(change),
    async close() {
      if (closed) return
      closed = true
      await bridge.close()
      await viewer?.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string,
  extra: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': type,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    ...extra,
  })
  res.end(body)
}

function serve(
  req: IncomingMessage,
  res: ServerResponse,
  assets: PageAssets,
  session: string | null,
  viewer: WebViewer | null,
): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(res, 405, TYPES['.txt']!, 'method not allowed\n', { allow: 'GET, HEAD' })
    return
  }
  const pathname = new URL(req.url ?? '/', 'http://local').pathname
  const page = { 'content-security-policy': PAGE_CSP, 'x-frame-options': 'DENY', 'cache-control': 'no-cache' }
  switch (pathname) {
    case '/':
      send(res, 200, TYPES['.html']!, assets.html, page)
      return
    case '/app.css':
      send(res, 200, TYPES['.css']!, assets.css, { 'cache-control': 'no-cache' })
      return
    case '/app.js':
      send(res, 200, TYPES['.js']!, assets.js, { 'cache-control': 'no-cache' })
      return
    case '/session': {
      // The session token only for a loopback Host: a rebinding DNS name pointing here gets none.
      const token = session && hostIsLoopback(req) ? session : null
      send(
        res,
        200,
        TYPES['.json']!,
        JSON.stringify({ tokenRequired: session === null, token, wsPath: WEB_WS_PATH, viewer: viewer !== null }),
        { 'cache-control': 'no-store' },
      )
      return
    }
  }
  const file = viewer?.file(pathname) ?? null
  if (!file) {
    send(res, 404, TYPES['.txt']!, 'not found\n')
    return
  }
  res.writeHead(200, {
    'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'x-content-type-options': 'nosniff',
    'cache-control': 'max-age=3600',
  })
  if (req.method === 'HEAD') {
    res.end()
    return
  }
  createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res)
}
