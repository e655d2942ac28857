/**
 * The embedded practice server, in-process: the one place that calls flying-squid's `createMCServer`, with the
 * options it needs to start (see ../shared/notes/flying-squid-1.12-facts.md) and our plugins added through its own
 * `addPlugin`. A `debug` function is always passed so flying-squid does not install its process-wide handlers
 * (which exit with code 0 on an uncaught exception). Run it in its own process via src/server/process.ts.
 */
import { fileURLToPath } from 'node:url'
import squid from 'flying-squid'
import { repairItems } from '../knowledge/index.js'
import { plugins } from './plugins/index.js'
import { MAX_ENTITIES, type PracticeOptions, type SquidServer } from './squid.js'

/** flying-squid `require()`s a custom generator by absolute path; the .cjs shim unwraps our TS module. */
const PRACTICE_GENERATOR = fileURLToPath(new URL('./worldgen/generator.cjs', import.meta.url))

export interface EmbeddedServerOptions {
  port: number
  version: string
  seed: number
  /** World generator: a flying-squid generator name ('superflat') or module path; default the practice world. */
  generator?: string
  generatorOptions?: Record<string, unknown>
  viewDistance?: number
  everybodyOp?: boolean
  /** Extra settings handed to plugins (e.g. disable natural spawning in a test). */
  practice?: Record<string, unknown>
  onLog?: (line: string) => void
}

export interface EmbeddedServer {
  serv: SquidServer
  port: number
  version: string
  close(): Promise<void>
}

export async function createEmbeddedServer(opts: EmbeddedServerOptions): Promise<EmbeddedServer> {
  const log = opts.onLog ?? (() => {})
  // the version's defective item data repaired before flying-squid's registry makes an item (tool wear reads it)
  repairItems(opts.version)
  // Default: the practice world (src/server/worldgen); 'superflat' (or any flying-squid generator) by name.
  const generation = {
    name: opts.generator ?? PRACTICE_GENERATOR,
    options: { seed: opts.seed, ...opts.generatorOptions },
  }
  const serv = squid.createMCServer({
    motd: 'Ghostcraft practice world',
    port: opts.port,
    host: '127.0.0.1',
    'max-players': 20,
    'online-mode': false,
    logging: false,
    gameMode: 0,
    difficulty: 1,
    generation,
    kickTimeout: 30_000,
    plugins: {},
    modpe: false,
    'view-distance': opts.viewDistance ?? 6,
    'player-list-text': { header: { text: 'Ghostcraft' }, footer: { text: 'practice world' } },
    'everybody-op': opts.everybodyOp ?? true,
    'max-entities': MAX_ENTITIES,
    version: opts.version,
    noConsoleOutput: true,
    debug: (msg: unknown) => log(String(msg)),
  }) as SquidServer
  const practice: PracticeOptions = { seed: opts.seed, version: opts.version, ...opts.practice }
  for (const p of plugins) serv.addPlugin(p.name, p, practice)
  const port = await new Promise<number>((resolve, reject) => {
    serv.on('listening', (p: number) => resolve(p))
    serv.on('error', (err: Error) => reject(err))
  })
  return {
    serv,
    port,
    version: opts.version,
    async close() {
      try {
        ;(serv.quit as (reason: string) => void)('Server closed')
      } catch {
        /* already closing */
      }
    },
  }
}
