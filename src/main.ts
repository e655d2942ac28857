/**
 * `npm start`: validates the config (every problem listed with its fix, exit code 2), starts the embedded practice
 * server when MC_HOST is unset (printing one "embedded server listening" line), connects the bot and its channels,
 * and shuts everything down cleanly on SIGINT/SIGTERM (bot quits, server stops, nothing left running).
 */
import { createApp, type App } from './app.js'
import { formatProblems, isEmbedded, loadConfig } from './config.js'
import { startEmbeddedServer, type ServerHandle } from './server/process.js'
import { logger, setLogLevel } from './util/log.js'

const log = logger('main')

async function main(): Promise<void> {
  const result = loadConfig(process.env)
  if (!result.ok) {
    process.stderr.write(formatProblems(result.problems) + '\n')
    process.exit(2)
  }
  const config = result.config
  setLogLevel(config.LOG_LEVEL)

  let server: ServerHandle | null = null
  let host = config.MC_HOST ?? '127.0.0.1'
  let port = config.MC_PORT
  if (isEmbedded(config)) {
    server = await startEmbeddedServer({ port: config.MC_PORT, version: config.MC_VERSION, seed: config.GHOST_SEED })
    host = '127.0.0.1'
    port = server.port
    process.stdout.write(`embedded server listening on 127.0.0.1:${server.port} (Minecraft ${server.version})\n`)
    void server.exited.then((code) => { if (!shuttingDown) { log.error('embedded server exited', { code, tail: server?.stderrTail() }); void shutdown(1) } })
  }

  const app: App = await createApp(config, { host, port })
  void app.ready().then((bot) => process.stdout.write(`${bot.username} joined ${host}:${port} — say "${bot.username} help" or "${config.GHOST_PREFIX}help" in chat\n`))

  let shuttingDown = false
  async function shutdown(code: number): Promise<void> {
    if (shuttingDown) return
    shuttingDown = true
    const hard = setTimeout(() => process.exit(code || 1), 8000)
    hard.unref()
    await app.stop().catch((err: Error) => log.error('stop failed', { err: err.message }))
    await server?.stop().catch((err: Error) => log.error('server stop failed', { err: err.message }))
    process.exit(code)
  }
  process.on('SIGINT', () => void shutdown(0))
  process.on('SIGTERM', () => void shutdown(0))
}

main().catch((err: unknown) => {
  process.stderr.write(`ghostcraft failed to start: ${err instanceof Error ? err.message : String(err)}\n`)
  process.exit(1)
})
