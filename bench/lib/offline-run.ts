/**
 * One benchmark run of the whole bot on a fresh practice world, shared by bench/mp5.ts and bench/diamond.ts: a new
 * practice-server child for the seed, a new app (offline planner, no LLM, empty inventory, in-memory memory), one
 * request through the real router, stopped at the time limit. It reports how the task ended, its reply, the deaths
 * (every session of the bot is watched), the final inventory, and can sample the live bot while the task runs
 * (e.g. to time milestones). Errors starting the world or the bot come back as `outcome: 'error'`, never thrown.
 */
import type { Bot } from 'mineflayer'
import { inventoryCounts } from '../../src/actions/types.js'
import { createApp, type App } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { newRequestId } from '../../src/router/request.js'
import type { TaskEvent } from '../../src/schemas/task.js'
import { startEmbeddedServer, type ServerHandle } from '../../src/server/process.js'
import type { LogLevel } from '../../src/util/log.js'
import { VERSION } from './mp5-tasks.js'
import { LoopLag, type LagSummary } from './loop-lag.js'

/**
 * The log level of a benchmark's bots (BENCH_LOG_LEVEL: silent by default; `debug` shows every corridor cell and
 * dig time of an ore search on stderr, JSON lines). An unknown value is silent.
 */
export function benchLogLevel(): LogLevel {
  const want = process.env.BENCH_LOG_LEVEL ?? 'silent'
  return (['silent', 'error', 'warn', 'info', 'debug'] as const).find((l) => l === want) ?? 'silent'
}

/** Time to stop the task and hear its reply after the limit. */
const GRACE_MS = 15_000
const CONNECT_MS = 60_000

export interface OfflineRunOptions {
  seed: number
  /** The request, or a function of the bot once it stands in the world (e.g. to name coordinates near it). */
  request: string | ((bot: Bot) => string)
  taskMs: number
  /** `/time set` before the request (null: leave the server's start time). */
  startTime?: number | null
  /** Server commands the bot (op on the practice server) runs before the request, e.g. `/weather rain 900`. */
  setup?: string[]
  /** Log every action and progress line to stderr with this prefix. */
  verbosePrefix?: string
  /** Called every `sampleMs` (default 500) with the live bot and the elapsed time since the request. */
  sample?(bot: Bot, elapsedMs: number): void
  sampleMs?: number
  /** Called with every bot session once the request is sent (the first and each reconnect), to attach listeners. */
  watch?(bot: Bot, elapsedMs: () => number): void
}

export interface OfflineRun {
  /** The task's own verdict (the router's `finished` event), false on timeout or error. */
  finishedOk: boolean
  outcome: 'finished' | 'timeout' | 'error'
  durationMs: number
  reply: string
  /** The last thing the bot said about the task: its final answer, or on a timeout its last progress line before the limit. */
  lastReply: string
  /** Where the task was when it ended: the sub-goal being worked on (`11/12 working on mine 1 diamond`) and the last
   * action's result, from the task events (a reply can be minutes old; these are not). */
  lastStep: string
  lastAction: string
  deaths: number
  /** Each death: when, the server's death message, where, and the action the bot was in (`93s: Bench was slain by
   * zombie at (12, 64, -3) (night) after explore ok`: the last action that ended before it). */
  deathCauses: string[]
  inventory: Record<string, number>
  /** How late the bench process's event loop ran during the run (loop-lag.ts); null for a run that never started. */
  loopLag: LagSummary | null
}

/** The practice server's death messages (src/server/plugins/health.ts), read from chat. */
const DEATH_TEXT =
  /(hit the ground too hard|tried to swim in lava|drowned|suffocated in a wall|starved to death|was slain by \S+|died)$/

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms)
    p.then(
      (v) => {
        clearTimeout(t)
        resolve(v)
      },
      (e: unknown) => {
        clearTimeout(t)
        reject(e instanceof Error ? e : new Error(String(e)))
      },
    )
  })
}

function verbose(app: App, prefix: string, started: number): void {
  const at = (): string => ((Date.now() - started) / 1000).toFixed(1)
  app.router.onTaskEvent((e: TaskEvent) => {
    if (e.kind === 'action')
      process.stderr.write(`${prefix}[${at()}s] ${e.action} ${e.ok ? 'ok' : e.reason}: ${e.message.slice(0, 160)}\n`)
    if (e.kind === 'progress') process.stderr.write(`${prefix}[${at()}s] ${e.done}/${e.total} ${e.message}\n`)
  })
}

/**
 * Say on stderr when a run's server child exits before the run stops it, with its exit code, the last commands
 * players sent and its stderr's tail (p3 and d29 each lost a run to a server that went away mid-run, unexplained).
 */
function watchServerExit(server: ServerHandle, stopping: () => boolean, prefix: string): void {
  void server.exited.then((code) => {
    if (stopping()) return
    const commands = server.commands.slice(-5).map((c) => `${c.player}: ${c.command}`)
    process.stderr.write(
      `${prefix}the server exited mid-run (code ${code}); last commands ${JSON.stringify(commands)}; stderr: ${server.stderrTail().slice(-1500)}\n`,
    )
  })
}

export async function runOffline(o: OfflineRunOptions): Promise<OfflineRun> {
  let stopping = false
  let server: ServerHandle | null = null
  let app: App | null = null
  let timer: NodeJS.Timeout | undefined
  const started = Date.now()
  const lag = new LoopLag()
  try {
    server = await startEmbeddedServer({ port: 0, version: VERSION, seed: o.seed })
    watchServerExit(server, () => stopping, o.verbosePrefix ?? `[seed ${o.seed}] `)
    const cfg = loadConfig(
      {
        GHOST_OWNERS: 'Bench',
        GHOST_DB: ':memory:',
        GHOST_AUDIT_LOG: '',
        GHOST_CHAT_INTERVAL_MS: '0',
        // the agent's own budget ends a little before the hard limit, so its reply says what was still missing
        GHOST_GOAL_TIME_BUDGET_MS: String(Math.max(1000, o.taskMs - 5000)),
        LOG_LEVEL: benchLogLevel(),
      },
      '/nonexistent.json',
    )
    if (!cfg.ok) throw new Error(JSON.stringify(cfg.problems))
    app = await createApp(cfg.config, { host: '127.0.0.1', port: server.port }, { initialBackoffMs: 500 })
    const bot = await withTimeout(app.ready(), CONNECT_MS, 'bot spawn')
    for (const line of [
      ...(o.startTime !== undefined && o.startTime !== null ? [`/time set ${o.startTime}`] : []),
      ...(o.setup ?? []),
    ]) {
      bot.chat(line)
      await sleep(500)
    }
    await sleep(1500) // let the chunks around spawn arrive
    let deaths = 0
    const deathCauses: string[] = []
    let lastAction = ''
    const t0 = Date.now()
    const elapsedMs = (): number => Date.now() - t0
    const watchBot = (b: Bot): void => {
      b.on('death', () => {
        deaths++
      })
      b.on('messagestr', (text: string) => {
        if (!text.startsWith(`${b.username} `) || !DEATH_TEXT.test(text)) return
        const p = b.entity?.position
        const night = (b.time?.timeOfDay ?? 0) >= 13000 && (b.time?.timeOfDay ?? 0) < 23000
        const where = p ? ` at ${p.floored().toString()} (${night ? 'night' : 'day'})` : ''
        deathCauses.push(
          `${Math.round(elapsedMs() / 1000)}s: ${text}${where} after ${lastAction.split(':')[0] || 'no action yet'}; event loop up to ${lag.recentMaxMs()} ms late in the 10 s before`,
        )
      })
      o.watch?.(b, elapsedMs)
    }
    app.supervisor.on('spawn', watchBot)
    watchBot(bot)
    const id = newRequestId()
    const taskId = `t-${id}`
    const replies: string[] = []
    const a = app
    let ended = false
    const finished = new Promise<{ ok: boolean; message: string }>((resolve) => {
      const off = a.router.onTaskEvent((e: TaskEvent) => {
        if (e.kind === 'finished' && e.taskId === taskId) {
          ended = true
          off()
          resolve(e)
        }
      })
    })
    if (o.verbosePrefix !== undefined) verbose(app, o.verbosePrefix, t0)
    let lastStep = ''
    app.router.onTaskEvent((e: TaskEvent) => {
      if (e.kind === 'progress' && /^working on /.test(e.message)) lastStep = `${e.done}/${e.total} ${e.message}`
      if (e.kind === 'action') lastAction = `${e.action} ${e.ok ? 'ok' : e.reason}: ${e.message}`.slice(0, 200)
    })
    if (o.sample) {
      const sample = o.sample
      timer = setInterval(() => {
        const b = a.supervisor.current
        if (b?.entity) sample(b, Date.now() - t0)
      }, o.sampleMs ?? 500)
    }
    await app.router.handle({
      id,
      source: 'console',
      principal: { kind: 'console' },
      player: 'Bench',
      text: typeof o.request === 'function' ? o.request(bot) : o.request,
      reply: async (t) => {
        replies.push(t)
      },
    })
    // a request answered at once (a question back, a refusal) starts no task: the run ends with that answer
    const queued = [a.router.queue.current(), ...a.router.queue.pending()].some((t) => t?.id === taskId)
    if (!queued && !ended && replies.length > 0) {
      const said = replies.join(' ')
      return {
        finishedOk: false,
        outcome: 'finished',
        durationMs: Date.now() - t0,
        reply: said.slice(0, 300),
        lastReply: replies.at(-1)!.slice(0, 400),
        lastStep: '',
        lastAction: '',
        deaths,
        deathCauses,
        inventory: inventoryCounts(bot),
        loopLag: lag.summary(),
      }
    }
    let timedOut = false
    let saidBeforeLimit: string | undefined
    const limit = sleep(o.taskMs).then(() => {
      timedOut = true
      saidBeforeLimit = replies.at(-1)
      a.router.queue.stopCurrent()
    })
    // a task paused while the bot is off the server waits in the queue: at the limit it ends without a verdict
    const stopped = limit.then(() =>
      a.router.queue.current()?.id === taskId
        ? withTimeout(finished, GRACE_MS, 'stopping the task')
        : { ok: false, message: 'stopped at the limit while paused off the server' },
    )
    const end = await Promise.race([finished, stopped])
    const durationMs = Date.now() - t0
    const cur = app.supervisor.current
    if (cur?.entity && o.sample) o.sample(cur, durationMs)
    return {
      finishedOk: !timedOut && end.ok,
      outcome: timedOut ? 'timeout' : 'finished',
      durationMs,
      reply: (replies.join(' ') || end.message).slice(0, 300),
      lastReply: ((timedOut ? saidBeforeLimit : replies.at(-1)) ?? end.message).slice(0, 400),
      lastStep,
      lastAction,
      deaths,
      deathCauses,
      inventory: cur?.entity ? inventoryCounts(cur) : {},
      loopLag: lag.summary(),
    }
  } catch (err) {
    return {
      finishedOk: false,
      outcome: 'error',
      durationMs: Date.now() - started,
      reply: (err as Error).message.slice(0, 300),
      lastReply: (err as Error).message.slice(0, 400),
      lastStep: '',
      lastAction: '',
      deaths: 0,
      deathCauses: [],
      inventory: {},
      loopLag: null,
    }
  } finally {
    lag.stop()
    if (timer) clearInterval(timer)
    await app?.stop().catch(() => {})
    stopping = true
    await server?.stop().catch(() => {})
  }
}
