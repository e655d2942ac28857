/**
 * Entry point of the practice-server child process. Reads its options from argv[2] (JSON), starts the embedded
 * server, reports `{ type: 'listening', port, version }` over IPC, and exits on `{ type: 'stop' }`, on IPC
 * disconnect (parent died) or on SIGTERM. An uncaught error exits with code 1, so a broken server fails tests loudly.
 * Every command a player sends is forwarded as `{ type: 'command', player, command, at }` (plugins/command-log.ts).
 * It reads no environment variables: the parent passes everything (including `log` and its own `logLevel`, which the
 * plugins' structured lines follow) in argv[2] and gives the child only an allow-listed environment (src/config.ts
 * `childEnv`).
 */
import { setLogLevel } from '../util/log.js'
import { createEmbeddedServer } from './embedded.js'
import type { CommandRecord } from './plugins/command-log.js'
import type { ChildOptions } from './process.js'

const opts = JSON.parse(process.argv[2] ?? '{}') as ChildOptions
setLogLevel(opts.logLevel ?? 'warn')
const send = (msg: Record<string, unknown>): void => {
  if (process.send) process.send(msg)
}

process.on('uncaughtException', (err) => {
  process.stderr.write(`practice server crashed: ${err.stack ?? String(err)}\n`)
  process.exit(1)
})
process.on('unhandledRejection', (err) => {
  process.stderr.write(`practice server unhandled rejection: ${err instanceof Error ? err.stack : String(err)}\n`)
  process.exit(1)
})

const { log: verbose, logLevel: _level, ...serverOpts } = opts
const server = await createEmbeddedServer({
  ...serverOpts,
  onLog: verbose ? (l) => process.stderr.write(`[squid] ${l}\n`) : undefined,
})
server.serv.on('ghost:command', (r: CommandRecord) => send({ type: 'command', ...r }))
send({ type: 'listening', port: server.port, version: server.version })

let stopping = false
async function stop(why: string): Promise<void> {
  if (stopping) return
  stopping = true
  // one line on stderr, which the parent keeps as the tail of a failure message: why this server went away
  process.stderr.write(`practice server stopping: ${why}\n`)
  await server.close()
  setTimeout(() => process.exit(0), 200).unref()
  // flying-squid leaves timers and a stdin reader running after quit(): exit explicitly.
  setTimeout(() => process.exit(0), 50)
}
process.on('message', (m: { type?: string; cmd?: string; id?: number }) => {
  if (m?.type === 'stop') void stop('asked to stop')
})
process.on('disconnect', () => void stop('the parent process went away'))
process.on('SIGTERM', () => void stop('SIGTERM'))
process.on('SIGINT', () => void stop('SIGINT'))
