/**
 * Entry point of the practice-server child process. Reads its options from argv[2] (JSON), starts the embedded
 * server, reports `{ type: 'listening', port, version }` over IPC, and exits on `{ type: 'stop' }`, on IPC
 * disconnect (parent died) or on SIGTERM. An uncaught error exits with code 1, so a broken server fails tests loudly.
 */
import { createEmbeddedServer, type EmbeddedServerOptions } from './embedded.js'

const opts = JSON.parse(process.argv[2] ?? '{}') as EmbeddedServerOptions
const send = (msg: Record<string, unknown>): void => { if (process.send) process.send(msg) }

process.on('uncaughtException', (err) => {
  process.stderr.write(`practice server crashed: ${err.stack ?? String(err)}\n`)
  process.exit(1)
})
process.on('unhandledRejection', (err) => {
  process.stderr.write(`practice server unhandled rejection: ${err instanceof Error ? err.stack : String(err)}\n`)
  process.exit(1)
})

const verbose = process.env.GHOST_SERVER_LOG === '1'
const server = await createEmbeddedServer({ ...opts, onLog: verbose ? (l) => process.stderr.write(`[squid] ${l}\n`) : undefined })
send({ type: 'listening', port: server.port, version: server.version })

let stopping = false
async function stop(): Promise<void> {
  if (stopping) return
  stopping = true
  await server.close()
  setTimeout(() => process.exit(0), 200).unref()
  // flying-squid leaves timers and a stdin reader running after quit(): exit explicitly.
  setTimeout(() => process.exit(0), 50)
}
process.on('message', (m: { type?: string; cmd?: string; id?: number }) => {
  if (m?.type === 'stop') void stop()
})
process.on('disconnect', () => void stop())
process.on('SIGTERM', () => void stop())
process.on('SIGINT', () => void stop())
