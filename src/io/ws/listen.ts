/**
 * Where the bridge's WebSocketServer comes from: a port of its own (`listenWss`, rejecting with a GhostError 'config'
 * when the address is unusable) or another HTTP server's upgrade route (`attachWss`, the web page's same-origin
 * socket). Both refuse a browser page whose Origin is not this host (403), so another site cannot drive the bot from
 * a visitor's browser; clients without an Origin (scripts) still need a token, which the bridge checks.
 */
import type { IncomingMessage, Server as HttpServer } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer } from 'ws'
import { GhostError } from '../../util/errors.js'
import { logger } from '../../util/log.js'

const log = logger('ws')

/** ws's own hard frame limit (it closes the socket), kept well above the bridge's `too_large` answer. */
const DEFAULT_MAX_PAYLOAD_BYTES = 1024 * 1024

/** A browser's Origin must be the page's own host; clients without an Origin (scripts) still need a token. */
function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin
  if (origin === undefined) return true
  try {
    return new URL(origin).host === req.headers.host
  } catch {
    return false
  }
}

/** Listen on host:port (0 picks a free port). */
export function listenWss(opts: { host: string; port: number; maxPayloadBytes?: number }): Promise<WebSocketServer> {
  return new Promise((resolve, reject) => {
    // verifyClient: a browser page from another site (its Origin is not this host) is refused with 403.
    const wss = new WebSocketServer({
      host: opts.host,
      port: opts.port,
      maxPayload: opts.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD_BYTES,
      clientTracking: false,
      verifyClient: ({ req }: { req: IncomingMessage }, done: (ok: boolean, code?: number, message?: string) => void) =>
        done(sameOrigin(req), 403, 'Forbidden'),
    })
    const onError = (err: Error): void => {
      wss.close()
      reject(new GhostError('config', `WebSocket bridge cannot listen on ${opts.host}:${opts.port}: ${err.message}`))
    }
    wss.once('error', onError)
    wss.once('listening', () => {
      wss.off('error', onError)
      wss.on('error', (err) => log.error('ws server error', { err: err.message }))
      resolve(wss)
    })
  })
}

/**
 * Take over `server`'s upgrades to `path`; upgrades to other paths are left to other listeners. Returns the server
 * and the function that lets go of the route again.
 */
export function attachWss(
  server: HttpServer,
  opts: { path: string; maxPayloadBytes?: number },
): { wss: WebSocketServer; detach: () => void } {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: opts.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD_BYTES,
    clientTracking: false,
  })
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    if (new URL(req.url ?? '/', 'http://local').pathname !== opts.path) return
    if (!sameOrigin(req)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n')
      return
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req))
  }
  server.on('upgrade', onUpgrade)
  return { wss, detach: () => server.off('upgrade', onUpgrade) }
}
