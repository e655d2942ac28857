/**
 * Starts the practice server in a child process and hands back a handle: the port it listens on, the version, its
 * stderr tail for diagnostics, and `stop()` which ends it and waits for the process to exit. Used by `npm start`,
 * the tests and the benchmarks, so there is one way to start a server.
 */
import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { GhostError } from '../util/errors.js'
import type { EmbeddedServerOptions } from './embedded.js'

export interface ServerHandle {
  port: number
  version: string
  pid: number
  /** Last lines the server wrote to stderr (for failure messages). */
  stderrTail(): string
  /** Resolves with the exit code when the process ends (for whatever reason). */
  exited: Promise<number | null>
  stop(): Promise<void>
}

export type StartOptions = Partial<Omit<EmbeddedServerOptions, 'onLog'>> & { startTimeoutMs?: number }

const CHILD = fileURLToPath(new URL('./child.ts', import.meta.url))

export async function startEmbeddedServer(options: StartOptions = {}): Promise<ServerHandle> {
  const opts: EmbeddedServerOptions = {
    port: options.port ?? 0,
    version: options.version ?? '1.20.2',
    seed: options.seed ?? 1,
    ...options,
  }
  const child: ChildProcess = fork(CHILD, [JSON.stringify(opts)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env: { ...process.env },
  })
  let tail = ''
  child.stderr?.on('data', (d: Buffer) => {
    tail = (tail + d.toString()).slice(-8000)
    if (process.env.GHOST_SERVER_LOG === '1') process.stderr.write(d)
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const timeoutMs = options.startTimeoutMs ?? 30_000
  const info = await new Promise<{ port: number; version: string }>((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new GhostError('world', `practice server did not start within ${timeoutMs} ms: ${tail}`)) }, timeoutMs)
    child.on('message', (m: { type?: string; port?: number; version?: string }) => {
      if (m.type === 'listening') { clearTimeout(timer); resolve({ port: m.port!, version: m.version! }) }
    })
    void exited.then((code) => { clearTimeout(timer); reject(new GhostError('world', `practice server exited with code ${code} before listening: ${tail}`)) })
  })
  return {
    ...info,
    pid: child.pid!,
    stderrTail: () => tail,
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return
      if (child.connected) child.send({ type: 'stop' })
      else child.kill('SIGTERM')
      const t = setTimeout(() => child.kill('SIGKILL'), 3000)
      await exited
      clearTimeout(t)
    },
  }
}
