/**
 * Starts the practice server in a child process and hands back a handle: the port it listens on, the version, its
 * stderr tail for diagnostics, and `stop()` which ends it and waits for the process to exit. Used by `npm start`,
 * the tests and the benchmarks, so there is one way to start a server.
 */
import { fork, type ChildProcess } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { fileURLToPath } from 'node:url'
import { childEnv, serverLogRequested } from '../config.js'
import { GhostError } from '../util/errors.js'
import { logLevel, type LogLevel } from '../util/log.js'
import type { EmbeddedServerOptions } from './embedded.js'
import type { CommandRecord } from './plugins/command-log.js'

export interface ServerHandle {
  port: number
  version: string
  pid: number
  /** Last lines the server wrote to stderr (for failure messages). */
  stderrTail(): string
  /** Resolves with the exit code when the process ends (for whatever reason). */
  exited: Promise<number | null>
  /** Every command players sent, in arrival order (plugins/command-log.ts); the last 500 are kept. */
  commands: CommandRecord[]
  /** Calls `listener` for every command received from now on; returns an unsubscribe function. */
  onCommand(listener: (r: CommandRecord) => void): () => void
  stop(): Promise<void>
}

/** `log`: copy the server's own log to stderr (default: GHOST_SERVER_LOG). */
export type StartOptions = Partial<Omit<EmbeddedServerOptions, 'onLog'>> & { startTimeoutMs?: number; log?: boolean }

/** What the child reads from argv[2]. */
export type ChildOptions = EmbeddedServerOptions & { log: boolean; logLevel: LogLevel }

const CHILD = fileURLToPath(new URL('./child.ts', import.meta.url))

export async function startEmbeddedServer(options: StartOptions = {}): Promise<ServerHandle> {
  const { startTimeoutMs, ...rest } = options
  const log = options.log ?? serverLogRequested()
  const opts: ChildOptions = {
    port: options.port ?? 0,
    version: options.version ?? '1.20.2',
    seed: options.seed ?? 1,
    ...rest,
    log,
    // the child's own structured lines (plugins' reasons) at the level this process logs at
    logLevel: logLevel(),
  }
  const child: ChildProcess = fork(CHILD, [JSON.stringify(opts)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    // Only what Node and tsx need: no API keys, tokens or other secrets from our environment.
    env: childEnv(process.env),
  })
  let tail = ''
  child.stderr?.on('data', (d: Buffer) => {
    tail = (tail + d.toString()).slice(-8000)
    if (log) process.stderr.write(d)
  })
  const commands: CommandRecord[] = []
  const commandEvents = new EventEmitter()
  child.on('message', (m: { type?: string } & Partial<CommandRecord>) => {
    if (m.type !== 'command') return
    const r: CommandRecord = { player: String(m.player), command: String(m.command), at: Number(m.at) }
    commands.push(r)
    if (commands.length > 500) commands.shift()
    commandEvents.emit('command', r)
  })
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code))
    // A child that could not be spawned (or an IPC failure) emits 'error'; without a listener it would crash us.
    child.on('error', (err) => {
      tail = `${tail}\nchild process error: ${err.message}`.slice(-8000)
      if (child.pid === undefined) resolve(null)
    })
  })
  const timeoutMs = startTimeoutMs ?? 30_000
  const info = await new Promise<{ port: number; version: string }>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new GhostError('world', `practice server did not start within ${timeoutMs} ms: ${tail}`))
    }, timeoutMs)
    child.on('message', (m: { type?: string; port?: number; version?: string }) => {
      if (m.type === 'listening') {
        clearTimeout(timer)
        resolve({ port: m.port!, version: m.version! })
      }
    })
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new GhostError('world', `practice server exited with code ${code} before listening: ${tail}`))
    })
  })
  return {
    ...info,
    pid: child.pid!,
    stderrTail: () => tail,
    exited,
    commands,
    onCommand(listener) {
      commandEvents.on('command', listener)
      return () => {
        commandEvents.off('command', listener)
      }
    },
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

export interface KeepOptions {
  initialBackoffMs?: number
  maxBackoffMs?: number
  /** A server that ran this long resets the backoff. */
  stableMs?: number
  /** Consecutive failed starts before giving up. */
  maxFailedStarts?: number
  onDown?(code: number | null, tail: string): void
  onRestart?(server: ServerHandle, notice: string): void
  onGiveUp?(err: Error): void
  /** The child exited with code 0 (stopped from outside, e.g. SIGTERM to it alone): it is not restarted. */
  onStopped?(): void
}

export interface KeptServer {
  /** The running server (the newest one after a restart). */
  readonly current: ServerHandle
  readonly restarts: Array<{ code: number | null; at: number; delayMs: number }>
  stop(): Promise<void>
}

/** What players are told on joining a restarted practice server. */
export function restartNotice(code: number | null, seed: number): string {
  return `The practice server stopped unexpectedly (exit code ${code}) and was restarted: the world was generated again from seed ${seed}; blocks changed and items held before are gone.`
}

/**
 * Keep an embedded practice server running: when `first` dies (exit code ≠ 0 or a signal; 0 means it was asked to
 * stop: `onStopped`) it is started again on the same port (so a reconnecting bot finds it) after a backoff of 1 s
 * doubling to 30 s (reset after a stable run), with a join notice for players (plugins/notice.ts). Gives up after
 * `maxFailedStarts` failed starts in a row.
 */
export function keepServerRunning(first: ServerHandle, options: StartOptions, keep: KeepOptions = {}): KeptServer {
  let current = first
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let backoffMs = keep.initialBackoffMs ?? 1000
  let failed = 0
  let startedAt = Date.now()
  const restarts: KeptServer['restarts'] = []
  const seed = options.seed ?? 1
  const schedule = (code: number | null): void => {
    if (stopped) return
    if (Date.now() - startedAt > (keep.stableMs ?? 60_000)) backoffMs = keep.initialBackoffMs ?? 1000
    const delayMs = backoffMs
    backoffMs = Math.min(backoffMs * 2, keep.maxBackoffMs ?? 30_000)
    restarts.push({ code, at: Date.now(), delayMs })
    timer = setTimeout(() => void restart(code), delayMs)
  }
  const watch = (s: ServerHandle): void => {
    void s.exited.then((code) => {
      // exit code 0 = the child was told to stop (SIGINT/SIGTERM from a terminal's Ctrl-C, IPC stop): not a crash
      if (stopped || s !== current) return
      if (code === 0) {
        keep.onStopped?.()
        return
      }
      keep.onDown?.(code, s.stderrTail())
      schedule(code)
    })
  }
  const restart = async (code: number | null): Promise<void> => {
    timer = undefined
    if (stopped) return
    const notice = restartNotice(code, seed)
    try {
      const next = await startEmbeddedServer({
        ...options,
        port: first.port,
        practice: { ...options.practice, notice },
      })
      if (stopped) {
        await next.stop()
        return
      }
      current = next
      failed = 0
      startedAt = Date.now()
      watch(next)
      keep.onRestart?.(next, notice)
    } catch (err) {
      if (++failed >= (keep.maxFailedStarts ?? 10)) {
        keep.onGiveUp?.(err as Error)
        return
      }
      schedule(code)
    }
  }
  watch(first)
  return {
    get current() {
      return current
    },
    restarts,
    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      await current.stop()
    },
  }
}
