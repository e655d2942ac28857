/**
 * The bot's view for the web page: prismarine-viewer's world stream (its WorldView over socket.io) and its prebuilt
 * browser bundle, mounted on our own HTTP server rather than on the separate express server its `mineflayer` entry
 * point would open on every interface. Two cameras, each its own socket.io path because the bundle connects to
 * `<page path>socket.io`: `/viewer/first/` (first person: position, yaw and pitch) and `/viewer/follow/` (orbit
 * camera following the bot's model). Each connection streams the supervisor's *current* bot; when there is none
 * it is refused and the bundle retries. `allow` decides per handshake (the web server's token rule).
 */
import { existsSync } from 'node:fs'
import type { IncomingMessage, Server as HttpServer } from 'node:http'
import { createRequire } from 'node:module'
import path from 'node:path'
import { Server as IoServer, type Socket } from 'socket.io'
import { logger } from '../util/log.js'
import type { Bot } from './create.js'

const log = logger('viewer')
const require = createRequire(import.meta.url)
const PUBLIC_DIR = path.join(path.dirname(require.resolve('prismarine-viewer/package.json')), 'public')
export const VIEWER_CAMERAS = ['first', 'follow'] as const
export type ViewerCamera = (typeof VIEWER_CAMERAS)[number]

/** prismarine-viewer's WorldView: streams chunks and entities around a position to one socket. */
interface WorldView {
  init(pos: unknown): Promise<void>
  updatePosition(pos: unknown): Promise<void>
  listenToBot(bot: Bot): void
  removeListenersFromBot(bot: Bot): void
}
type WorldViewCtor = new (world: unknown, viewDistance: number, position: unknown, emitter: Socket) => WorldView

export interface ViewerOptions {
  /** Decides whether a handshake may see the world (loopback, or a valid token cookie). */
  allow(req: IncomingMessage): boolean
  viewDistance?: number
}

export interface MountedViewer {
  close(): Promise<void>
}

/** The file of the viewer bundle a request path under `/viewer/<camera>/` asks for, or null. */
export function viewerFile(pathname: string): string | null {
  const m = /^\/viewer\/(first|follow)\/(.*)$/.exec(pathname)
  if (!m) return null
  const rel = m[2] === '' ? 'index.html' : decodeURIComponent(m[2]!)
  const file = path.resolve(PUBLIC_DIR, rel)
  if (!file.startsWith(PUBLIC_DIR + path.sep) || !existsSync(file)) return null
  return file
}

/** Attach both cameras' socket.io servers to `server`; other requests and upgrades pass through untouched. */
export function mountViewer(server: HttpServer, getBot: () => Bot | null, opts: ViewerOptions): MountedViewer {
  // only the world streamer: the package's viewer index also loads three.js and node-canvas (browser-side parts)
  const { WorldView } = require('prismarine-viewer/viewer/lib/worldView') as { WorldView: WorldViewCtor }
  const ios = VIEWER_CAMERAS.map((camera) => {
    const io = new IoServer(server, {
      path: `/viewer/${camera}/socket.io`,
      serveClient: false,
      destroyUpgrade: false,
      allowRequest: (req, cb) => cb(null, opts.allow(req)),
    })
    io.on('connection', (socket) => stream(socket, camera, getBot, WorldView, opts.viewDistance ?? 6))
    return io
  })
  return {
    async close() {
      await Promise.all(
        ios.map(
          (io) =>
            new Promise<void>((resolve) => {
              io.disconnectSockets(true)
              // io.close() would also close the shared HTTP server; only the engine is ours to close
              io.engine.close()
              resolve()
            }),
        ),
      )
    },
  }
}

function stream(
  socket: Socket,
  camera: ViewerCamera,
  getBot: () => Bot | null,
  WorldView: WorldViewCtor,
  viewDistance: number,
): void {
  const bot = getBot()
  if (!bot?.entity) {
    socket.disconnect(true)
    return
  }
  socket.emit('version', bot.version)
  const view = new WorldView(bot.world, viewDistance, bot.entity.position, socket)
  void view.init(bot.entity.position).catch((err: Error) => log.debug('viewer init failed', { err: err.message }))
  const onMove = (): void => {
    const e = bot.entity
    socket.emit(
      'position',
      camera === 'first'
        ? { pos: e.position, yaw: e.yaw, pitch: e.pitch }
        : { pos: e.position, yaw: e.yaw, addMesh: true },
    )
    void view.updatePosition(e.position).catch(() => {
      /* chunk gone mid-update */
    })
  }
  onMove()
  bot.on('move', onMove)
  view.listenToBot(bot)
  socket.on('disconnect', () => {
    bot.removeListener('move', onMove)
    view.removeListenersFromBot(bot)
  })
}
