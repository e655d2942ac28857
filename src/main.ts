/**
 * `npm start`: validates the config (every problem listed with its fix, exit code 2), starts the embedded practice
 * server when MC_HOST is unset (printing one "embedded server listening" line; a child that dies is restarted with
 * backoff, see server/process.ts `keepServerRunning`), connects the bot and its channels,
 * and shuts everything down cleanly on SIGINT/SIGTERM (bot quits, server stops, nothing left running).
 */
import { createApp, type App } from './app.js'
import { formatProblems, isEmbedded, loadConfig, securityWarnings } from './config.js'
import { keepServerRunning, startEmbeddedServer } from './server/process.js'
import { logger, setLogLevel } from './util/log.js'

const log = logger('main')

async function main(): Promise<void> {
  const result = loadConfig(process.env)
  if (!result.ok) {
    process.stderr.write(`${formatProblems(result.problems)}\n`)
    process.exit(2)
  }
  const config = result.config
  setLogLevel(config.LOG_LEVEL)
  for (const w of securityWarnings(config)) process.stderr.write(`\n*** ${w}\n\n`)

  let server: { stop(): Promise<void> } | null = null
  let app: App | null = null
  let shuttingDown = false
  async function shutdown(code: number): Promise<void> {
    if (shuttingDown) return
    shuttingDown = true
    const hard = setTimeout(() => process.exit(code || 1), 8000)
    hard.unref()
    await app?.stop().catch((err: Error) => log.error('stop failed', { err: err.message }))
    await server?.stop().catch((err: Error) => log.error('server stop failed', { err: err.message }))
    process.exit(code)
  }
  // Installed before anything starts, so a signal or a stray rejection during start-up still shuts down cleanly.
  process.on('SIGINT', () => void shutdown(0))
  process.on('SIGTERM', () => void shutdown(0))
  process.on('unhandledRejection', (err) => {
    log.error('unhandled rejection', { err: err instanceof Error ? (err.stack ?? err.message) : String(err) })
    void shutdown(1)
  })

  let host = config.MC_HOST ?? '127.0.0.1'
  let port = config.MC_PORT
  if (isEmbedded(config)) {
    const started = await startEmbeddedServer({
      port: config.MC_PORT,
      version: config.MC_VERSION,
      seed: config.GHOST_SEED,
      log: config.GHOST_SERVER_LOG,
    })
    host = '127.0.0.1'
    port = started.port
    process.stdout.write(`embedded server listening on 127.0.0.1:${started.port} (Minecraft ${started.version})\n`)
    // A server child that dies is restarted (same port, backoff); the bot reconnects and players get a join notice.
    server = keepServerRunning(
      started,
      { version: config.MC_VERSION, seed: config.GHOST_SEED, log: config.GHOST_SERVER_LOG },
      {
        onDown: (code, tail) => {
          if (!shuttingDown) {
            log.error('embedded server exited; restarting', { code, tail })
            process.stdout.write(`embedded server exited (code ${code}); restarting\n`)
          }
        },
        onRestart: (s) => {
          process.stdout.write(`embedded server restarted on 127.0.0.1:${s.port}\n`)
          app?.supervisor.reconnectNow()
        },
        onGiveUp: (err) => {
          log.error('embedded server cannot be restarted', { err: err.message })
          void shutdown(1)
        },
        onStopped: () => {
          if (!shuttingDown) {
            log.error('embedded server was stopped')
            void shutdown(0)
          }
        },
      },
    )
  }

  // On the embedded practice world the web page is on by default (loopback, a free port unless GHOST_WEB_PORT is set).
  const withWeb = isEmbedded(config) && config.GHOST_WEB_PORT === undefined ? { ...config, GHOST_WEB_PORT: 0 } : config
  app = await createApp(withWeb, { host, port })
  void app
    .ready()
    .then((bot) =>
      process.stdout.write(
        `${bot.username} joined ${host}:${port} — say "${bot.username} help" or "${config.GHOST_PREFIX}help" in chat\n`,
      ),
    )
  void app.web().then((web) => {
    if (web) process.stdout.write(`web page: ${web.url}${web.tokenRequired ? ' (asks for a GHOST_WS_*_TOKEN)' : ''}\n`)
  })
}

main().catch((err: unknown) => {
  process.stderr.write(`ghostcraft failed to start: ${err instanceof Error ? err.message : String(err)}\n`)
  process.exit(1)
})
