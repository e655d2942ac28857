/**
 * `npm run bench:diamond` — GITM's ObtainDiamond on the practice world: per seed a fresh world, empty inventory,
 * offline planner (no LLM), one request "get a diamond", a 10-minute limit (bench/lib/offline-run.ts, the same run
 * as bench:mp5). Milestones are read from the bot's inventory as it changes (and every 500 ms): the first time each
 * item (or its family: any log, any planks) is held. Prints each milestone's rate beside GITM's (../shared/benchmarks/
 * gitm-obtain-diamond.tsv, Table 2 of the paper), the median time to each, deaths, and the failure reason of every
 * failed run; writes bench/results/diamond.json `{ runs: [{ seed, ok, durationMs, milestones, deaths, reason }] }`.
 * Env: DIAMOND_SEEDS (count, default 10, or a comma list), DIAMOND_TASK_MS (default 600000), DIAMOND_PARALLEL
 * (runs at a time, default 1; 2 only if the machine keeps up), DIAMOND_VERBOSE=1 (every action on stderr).
 */
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Bot } from 'mineflayer'
import { inventoryCounts } from '../src/actions/types.js'
import { setLogLevel, withLogFields } from '../src/util/log.js'
import { seedsFrom } from './lib/mp5-tasks.js'
import { median } from './lib/stats.js'
import { benchLogLevel, runOffline } from './lib/offline-run.js'
import { lagNote, type LagSummary } from './lib/loop-lag.js'
import { parallelFrom, pool } from './lib/pool.js'
import { printTable, writeResult, type Row } from './lib/table.js'

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const GITM_FILE = path.resolve(REPO_ROOT, '../shared/benchmarks/gitm-obtain-diamond.tsv')
const REQUEST = 'get a diamond'

/** Milestones in tech-tree order, each matched by item name (families for wood). */
export const MILESTONES: Array<[string, (item: string) => boolean]> = [
  ['log', (n) => n.endsWith('_log') || n.endsWith('_stem')],
  ['planks', (n) => n.endsWith('_planks')],
  ['crafting_table', (n) => n === 'crafting_table'],
  ['wooden_pickaxe', (n) => n === 'wooden_pickaxe'],
  ['stone_pickaxe', (n) => n === 'stone_pickaxe'],
  ['furnace', (n) => n === 'furnace'],
  ['iron_ingot', (n) => n === 'iron_ingot'],
  ['iron_pickaxe', (n) => n === 'iron_pickaxe'],
  ['diamond', (n) => n === 'diamond'],
]

export interface DiamondRun {
  seed: number
  ok: boolean
  durationMs: number
  milestones: Record<string, number | null>
  deaths: number
  /** How each death happened (bench/lib/offline-run.ts). */
  deathCauses: string[]
  reason: string
  /** How late the bench process's event loop ran during the run (bench/lib/loop-lag.ts). */
  loopLag: LagSummary | null
}

async function runSeed(seed: number, taskMs: number): Promise<DiamondRun> {
  const milestones: Record<string, number | null> = Object.fromEntries(MILESTONES.map(([m]) => [m, null]))
  const mark = (name: string, atMs: number): void => {
    for (const [m, match] of MILESTONES) if (milestones[m] === null && match(name)) milestones[m] = atMs
  }
  // every inventory change (an item crafted and placed at once is still seen), plus a sample as a safety net
  const watch = (bot: Bot, elapsedMs: () => number): void => {
    bot.inventory.on('updateSlot', (_slot, _old, item) => {
      if (item) mark(item.name, elapsedMs())
    })
  }
  const sample = (bot: Bot, elapsedMs: number): void => {
    for (const name of Object.keys(inventoryCounts(bot))) mark(name, elapsedMs)
  }
  const r = await runOffline({
    seed,
    request: REQUEST,
    taskMs,
    sample,
    watch,
    verbosePrefix: process.env.DIAMOND_VERBOSE === '1' ? `  [seed ${seed}] ` : undefined,
  })
  const ok = milestones.diamond !== null && r.outcome !== 'error'
  // where the run stood at the end (the step and the last action), then what the bot last said
  const where = [r.lastStep && `at ${r.lastStep}`, r.lastAction && `last action ${r.lastAction}`]
    .filter(Boolean)
    .join('; ')
  const reason = ok
    ? ''
    : r.outcome === 'error'
      ? `error: ${r.lastReply}`
      : `${r.outcome === 'timeout' ? 'timeout' : 'gave up'}${where ? ` ${where}` : ''} — said: ${r.lastReply}`
  const { deaths, deathCauses, loopLag } = r
  return { seed, ok, durationMs: r.durationMs, milestones, deaths, deathCauses, reason, loopLag }
}

/** GITM's table: method → milestone → percent (null for '-'). */
function readGitm(): Record<string, Record<string, number | null>> {
  if (!existsSync(GITM_FILE)) return {}
  const lines = readFileSync(GITM_FILE, 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
  const head = lines[0]!.split('\t').map((c) => c.trim())
  const out: Record<string, Record<string, number | null>> = {}
  for (const l of lines.slice(1)) {
    const cells = l.split('\t').map((c) => c.trim())
    out[cells[0]!] = Object.fromEntries(
      head.slice(1).map((h, i) => [h, cells[i + 1] === '-' ? null : Number(cells[i + 1])]),
    )
  }
  return out
}

async function runAll(seeds: number[], taskMs: number, parallel: number): Promise<DiamondRun[]> {
  return pool(seeds, parallel, async (seed) => {
    // every log line of the run carries its seed (DIAMOND_PARALLEL runs interleave on stderr)
    const r = await withLogFields({ seed }, () => runSeed(seed, taskMs))
    const got = MILESTONES.filter(([m]) => r.milestones[m] !== null).map(([m]) => m)
    process.stderr.write(
      `  seed ${seed}: ${r.ok ? 'diamond' : 'failed'} in ${(r.durationMs / 1000).toFixed(1)}s${lagNote(r.loopLag)}, deaths ${r.deaths}, reached ${got.at(-1) ?? 'nothing'}${r.ok ? '' : ` — ${r.reason.slice(0, 160)}`}\n`,
    )
    return r
  })
}

function report(runs: DiamondRun[]): Row[] {
  const gitm = readGitm()
  return MILESTONES.map(([m]) => {
    const times = runs.map((r) => r.milestones[m]).filter((t): t is number => t !== null)
    const med = median(times)
    return {
      milestone: m,
      reached: `${times.length}/${runs.length}`,
      'ours %': Math.round((times.length / Math.max(1, runs.length)) * 1000) / 10,
      'GITM %': gitm.GITM?.[m] ?? null,
      'VPT %': gitm.VPT?.[m] ?? null,
      'median s': med === null ? null : Math.round(med / 100) / 10,
    }
  })
}

async function main(): Promise<void> {
  setLogLevel(benchLogLevel())
  let seeds: number[]
  try {
    seeds = seedsFrom(process.env.DIAMOND_SEEDS ?? '10')
  } catch {
    process.stderr.write(
      `diamond: DIAMOND_SEEDS must be a count (e.g. 20) or a comma list of seeds; got ${process.env.DIAMOND_SEEDS}\n`,
    )
    process.exit(2)
  }
  const taskMs = Number(process.env.DIAMOND_TASK_MS ?? 600_000)
  let parallel: number
  try {
    parallel = parallelFrom('DIAMOND_PARALLEL', process.env.DIAMOND_PARALLEL)
  } catch (err) {
    process.stderr.write(`diamond: ${(err as Error).message}\n`)
    process.exit(2)
  }
  if (!Number.isFinite(taskMs) || taskMs < 1000) {
    process.stderr.write(`diamond: DIAMOND_TASK_MS must be at least 1000, got ${process.env.DIAMOND_TASK_MS}\n`)
    process.exit(2)
  }
  process.stderr.write(
    `diamond: "${REQUEST}" × ${seeds.length} seed(s) [${seeds.join(', ')}], limit ${taskMs / 1000}s each, ${parallel} at a time\n`,
  )
  const t0 = Date.now()
  const runs = await runAll(seeds, taskMs, parallel)
  printTable(report(runs))
  const deaths = runs.reduce((s, r) => s + r.deaths, 0)
  process.stdout.write(
    `\n${runs.filter((r) => r.ok).length}/${runs.length} runs got a diamond; deaths ${deaths}; wall ${((Date.now() - t0) / 60000).toFixed(1)} min (limit ${taskMs / 1000}s, ${parallel} at a time)\n`,
  )
  const failed = runs.filter((r) => !r.ok)
  if (failed.length > 0) {
    process.stdout.write('\nFailed runs\n')
    printTable(
      failed.map((r) => ({
        seed: r.seed,
        reached:
          MILESTONES.filter(([m]) => r.milestones[m] !== null)
            .map(([m]) => m)
            .at(-1) ?? 'nothing',
        deaths: r.deaths,
        reason: [r.reason, ...r.deathCauses.map((c) => `died ${c}`)].join('; '),
      })),
      { maxWidth: 140 },
    )
  }
  const file = writeResult('diamond', {
    date: new Date().toISOString(),
    request: REQUEST,
    taskMs,
    parallel,
    planner: 'offline (no LLM)',
    runs,
  })
  process.stdout.write(`wrote ${file}\n`)
  process.exit(0)
}

void main()
