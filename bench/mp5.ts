/**
 * MP5 benchmark (`npm run bench:mp5`): MP5's 25 process-dependent tasks and the context-dependent tasks the practice
 * world can host, over several seeds. Every run is a fresh practice-server child + a fresh app (offline planner, no
 * LLM, empty inventory, empty memory); the request goes through the real router (`goal <item> 1` for process tasks,
 * MP5's own sentence for context tasks) and is stopped at the per-task limit. Context runs start at a time of day drawn
 * from the seed and task (MP5 started from varied situations), inside the day or night a task names (startTimeOf).
 * Success: process — the item (any wood type for log/planks/boat) is in the bot's inventory at the end; context — the
 * reply says "Found" (or "Done" when our grammar reads the sentence as an obtain goal, e.g. a tree → a log). Death or
 * timeout is failure. Prints a table and writes bench/results/mp5.json (one run = bench/lib/offline-run.ts, shared with
 * bench:diamond). Env: MP5_VERBOSE=1 logs every action; MP5_SEEDS (count or list, default 3), MP5_TASK_MS (default
 * 600000), MP5_TASKS (filter, see bench/lib/mp5-tasks.ts), MP5_PARALLEL (runs at a time, 1..4, default 1; the deepest
 * tasks start first). Tasks the practice world cannot host are listed with the reason, never dropped.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { setLogLevel, withLogFields } from '../src/util/log.js'
import { holdsGoal, loadTasks, seedsFrom, selectTasks, startTimeOf, VERSION, type Mp5Task } from './lib/mp5-tasks.js'
import { median } from './lib/stats.js'
import { benchLogLevel, runOffline } from './lib/offline-run.js'
import { lagNote, type LagSummary } from './lib/loop-lag.js'
import { parallelFrom, pool } from './lib/pool.js'
import { printTable, writeResult, type Row } from './lib/table.js'

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const TASK_MS = Number(process.env.MP5_TASK_MS ?? 600_000)

interface Run {
  seed: number
  ok: boolean
  durationMs: number
  outcome: string
  reply: string
  startTime: number | null
  deathCauses: string[]
  /** How late the bench process's event loop ran during the run (bench/lib/loop-lag.ts). */
  loopLag: LagSummary | null
}

async function runOnce(task: Mp5Task, seed: number): Promise<Run> {
  const startTime = startTimeOf(task, seed)
  const r = await runOffline({
    seed,
    request: task.request,
    taskMs: TASK_MS,
    startTime,
    setup: task.setup,
    verbosePrefix: process.env.MP5_VERBOSE === '1' ? `    [${task.id} seed ${seed}] ` : undefined,
  })
  if (r.outcome === 'error')
    return {
      seed,
      ok: false,
      durationMs: 0,
      outcome: 'error',
      reply: r.reply,
      startTime,
      deathCauses: [],
      loopLag: null,
    }
  const timedOut = r.outcome === 'timeout'
  const died = r.deaths > 0
  let ok = task.kind === 'process' ? holdsGoal(task.item, r.inventory) : /^(Found|Done)\b/.test(r.lastReply)
  if (timedOut || died) ok = false
  const outcome = timedOut ? 'timeout' : died ? 'died' : ok ? 'success' : 'failed'
  const { deathCauses, loopLag } = r
  return { seed, ok, durationMs: r.durationMs, outcome, reply: r.reply, startTime, deathCauses, loopLag }
}

async function main(): Promise<void> {
  setLogLevel(benchLogLevel())
  let tasks: Mp5Task[]
  let seeds: number[]
  let parallel: number
  try {
    parallel = parallelFrom('MP5_PARALLEL', process.env.MP5_PARALLEL)
    tasks = selectTasks(loadTasks(REPO_ROOT), process.env.MP5_TASKS)
    seeds = seedsFrom(process.env.MP5_SEEDS)
  } catch (err) {
    process.stderr.write(`mp5: ${(err as Error).message}\n`)
    process.exit(2)
  }
  if (!Number.isFinite(TASK_MS) || TASK_MS < 1000) {
    process.stderr.write(`mp5: MP5_TASK_MS must be at least 1000, got ${process.env.MP5_TASK_MS}\n`)
    process.exit(2)
  }
  if (tasks.length === 0) {
    process.stderr.write(`mp5: MP5_TASKS=${process.env.MP5_TASKS} matches no task\n`)
    process.exit(2)
  }
  const hosted = tasks.filter((t) => !t.unhostable)
  process.stderr.write(
    `mp5: ${hosted.length} task(s) × ${seeds.length} seed(s) [${seeds.join(', ')}], limit ${TASK_MS / 1000}s each, ${parallel} at a time; ${tasks.length - hosted.length} not hostable\n`,
  )
  const t0 = Date.now()
  // every (task, seed) run, deepest first (the list is in level order), so the longest runs do not form the tail
  const jobs = tasks.flatMap((task, order) =>
    task.unhostable ? [] : seeds.map((seed) => ({ task, seed, order, key: `${task.kind} ${task.id}` })),
  )
  const byDepth = [...jobs].sort((a, b) =>
    a.task.kind === b.task.kind ? b.order - a.order : a.task.kind === 'process' ? -1 : 1,
  )
  const done = await pool(byDepth, parallel, async ({ task, seed, key }) => {
    // every log line of the run carries its task and seed (MP5_PARALLEL runs interleave on stderr)
    const r = await withLogFields({ task: task.id, seed }, () => runOnce(task, seed))
    process.stderr.write(
      `  ${key} seed ${seed}: ${r.outcome} in ${(r.durationMs / 1000).toFixed(1)}s${lagNote(r.loopLag)} — ${r.reply.slice(0, 140)}${r.deathCauses.map((c) => `\n    died ${c}`).join('')}\n`,
    )
    return { task, r }
  })
  const results: Array<Mp5Task & { runs: Run[] }> = tasks.map((task) => ({
    ...task,
    runs: done
      .filter((d) => d.task === task)
      .map((d) => d.r)
      .sort((a, b) => a.seed - b.seed),
  }))
  const rows: Row[] = results.map((t) => {
    const wins = t.runs.filter((r) => r.ok)
    const med = median(wins.map((r) => r.durationMs))
    return {
      kind: t.kind,
      level: t.level,
      task: t.task,
      ours: t.unhostable ? 'n/a' : `${wins.length}/${t.runs.length}`,
      'ours %': t.unhostable ? null : Math.round((wins.length / t.runs.length) * 1000) / 10,
      'mp5 %': t.mp5Pct,
      'median s': med === null ? null : Math.round(med / 100) / 10,
      note: t.unhostable ?? t.runs.find((r) => !r.ok)?.outcome ?? '',
    }
  })
  printTable(rows, { maxWidth: 60 })
  const hostedResults = results.filter((t) => !t.unhostable)
  const total = hostedResults.reduce((s, t) => s + t.runs.length, 0)
  const won = hostedResults.reduce((s, t) => s + t.runs.filter((r) => r.ok).length, 0)
  const summary = {
    runs: total,
    successes: won,
    successPct: total ? Math.round((won / total) * 1000) / 10 : null,
    wallMs: Date.now() - t0,
  }
  process.stdout.write(
    `\n${won}/${total} runs succeeded (${summary.successPct ?? 0}%) in ${(summary.wallMs / 60000).toFixed(1)} min; not hostable: ${
      results
        .filter((t) => t.unhostable)
        .map((t) => t.id)
        .join(', ') || 'none'
    }\n`,
  )
  const file = writeResult('mp5', {
    version: VERSION,
    seeds,
    taskMs: TASK_MS,
    parallel,
    filter: process.env.MP5_TASKS ?? null,
    planner: 'offline (no LLM)',
    summary,
    tasks: results.map((t) => ({
      kind: t.kind,
      level: t.level,
      id: t.id,
      task: t.task,
      request: t.request,
      item: t.item,
      mp5Pct: t.mp5Pct,
      unhostable: t.unhostable,
      runs: t.runs,
    })),
  })
  process.stdout.write(`wrote ${file}\n`)
  process.exit(0)
}

void main()
