/**
 * MP5's benchmark tasks for `npm run bench:mp5`: reads the shared TSVs (process- and context-dependent tasks), maps
 * MP5's goal names to 1.20.2 items (log → oak_log, planks → oak_planks, boat → oak_boat, iron_ore → raw_iron, which
 * is what mining iron ore drops), decides which tasks the practice world can host (and why not, for the others),
 * filters by MP5_TASKS, and says whether an end state counts as success (any log, planks or boat counts for MP5's
 * wood-agnostic goals). Pure data handling; bench/mp5.ts runs the tasks.
 */
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { parseOffline } from '../../src/agent/intent-grammar.js'
import { intentKnowledge } from '../../src/agent/intent-knowledge.js'
import { createKnowledge } from '../../src/knowledge/index.js'
import { phaseOf } from '../../src/perception/percipient.js'
import { Goal, type TimeOfDay } from '../../src/schemas/goal.js'
import { hash } from '../../src/server/worldgen/noise.js'
import { DAY_TICKS, dayTime } from '../../src/util/daytime.js'

export const VERSION = '1.20.2'
/** Biomes the practice-world generator makes (src/server/worldgen/palette.ts). */
const PRACTICE_BIOMES = new Set(['plains', 'forest', 'taiga', 'desert'])

const GOAL_NAMES: Record<string, string> = {
  log: 'oak_log',
  planks: 'oak_planks',
  boat: 'oak_boat',
  iron_ore: 'raw_iron',
}
/** MP5 does not care about the wood type: any log (planks, boat) counts. */
const ANY_OF: Record<string, RegExp> = { oak_log: /_log$/, oak_planks: /_planks$/, oak_boat: /_boat$/ }

export interface Mp5Task {
  kind: 'process' | 'context'
  level: string
  /** Stable id: the process goal item (MP5 name) or the context task id (e.g. 2-3). */
  id: string
  task: string
  /** The chat request the bot receives. */
  request: string
  /** 1.20.2 item for process tasks, the object to find for context tasks. */
  item: string
  mp5Pct: number
  /** Null when the practice world can host it, else why not. */
  unhostable: string | null
  /** Server commands run before the request (e.g. start a rain task in rain). */
  setup?: string[]
  /** The time of day a context task names ("during the nighttime"): it starts in it. Null: any time. */
  period?: TimeOfDay | null
}

/**
 * The time of day a context run starts at (null for process runs: the server's own start): drawn from the seed and
 * task, as MP5 started from varied situations. A task that names the day or the night starts inside that period, in
 * its first half (the percipient's phases: at least 312 s of day, 237 s of night left), as the rain tasks start in
 * rain: MP5 ran on MineDojo, whose task API sets the start (`start_at_night`, `initial_weather`), and a night task
 * drawn 25 s before dawn with the next night 725 s away cannot be passed by any player (bench c4, 2-4 seed 3).
 */
export function startTimeOf(task: Mp5Task, seed: number): number | null {
  if (task.kind !== 'context') return null
  const r = hash(seed, ...[...task.id].map((c) => c.charCodeAt(0)))
  const period = task.period ?? null
  if (period === null || period === 'dusk') return r % DAY_TICKS
  // the period's span from the percipient's own boundaries: walk from a time inside it to its first and last tick
  const inside = period === 'day' ? 6000 : 18000
  let first = inside
  while (phaseOf(first - 1) === period) first--
  let last = inside
  while (phaseOf(last + 1) === period) last++
  return dayTime(first + (r % Math.floor((last - first + 1) / 2)))
}

function readTsv(file: string): string[][] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
    .slice(1)
    .map((l) => l.split('\t').map((c) => c.trim()))
}

export function benchmarkDir(repoRoot: string): string {
  return path.resolve(repoRoot, '../shared/benchmarks')
}

/** Both task lists; throws with a clear message when a file is missing. */
export function loadTasks(repoRoot: string): Mp5Task[] {
  const dir = benchmarkDir(repoRoot)
  const files = ['mp5-process-tasks.tsv', 'mp5-context-tasks.tsv'].map((f) => path.join(dir, f))
  const missing = files.filter((f) => !existsSync(f))
  if (missing.length > 0)
    throw new Error(
      `MP5 benchmark file(s) not found: ${missing.join(', ')} (expected the shared benchmarks folder next to the repository)`,
    )
  const kb = createKnowledge(VERSION)
  const ik = intentKnowledge(VERSION)
  const tasks: Mp5Task[] = []
  for (const [level = '', task = '', goal = '', , pct = '0'] of readTsv(files[0]!)) {
    const item = GOAL_NAMES[goal] ?? goal
    const name = kb.resolveName(item)
    const dec = name.ok ? kb.decompose(Goal.parse({ object: name.name, count: 1 }), {}) : null
    const unhostable = !name.ok
      ? `no 1.20.2 item ${item}`
      : (kb.impossibleReason(name.name) ?? (dec && !dec.ok ? `cannot be decomposed: ${dec.reason}` : null))
    tasks.push({
      kind: 'process',
      level,
      id: goal,
      task,
      request: `goal ${item} 1`,
      item,
      mp5Pct: Number(pct),
      unhostable,
    })
  }
  for (const [level = '', id = '', task = '', pct = '0'] of readTsv(files[1]!)) {
    const parsed = parseOffline(task, ik).intent
    const goal = parsed.kind === 'goals' ? parsed.goals[0] : undefined
    const c = goal?.conditions
    let unhostable: string | null = null
    // Rain comes and goes on vanilla's cycle (first rain 10 min – 2.5 h in): a rain task starts in rain, as MP5
    // started its tasks in the situation they name; 900 s outlasts the 10-minute limit.
    const setup = /\brain/i.test(task) || c?.weather === 'rain' || c?.weather === 'thunder' ? ['/weather rain 900'] : []
    if (c?.biome && !PRACTICE_BIOMES.has(c.biome) && !PRACTICE_BIOMES.has(c.biome.replace(/s$/, ''))) {
      unhostable = `needs biome ${c.biome}: the practice world makes only ${[...PRACTICE_BIOMES].join(', ')}`
    }
    tasks.push({
      kind: 'context',
      level,
      id,
      task,
      request: task.charAt(0).toLowerCase() + task.slice(1),
      item: goal?.object ?? '?',
      mp5Pct: Number(pct),
      unhostable,
      setup,
      period: c?.time ?? null,
    })
  }
  return tasks
}

/**
 * MP5_TASKS: comma-separated; each entry is `process`, `context`, a level (basic, wooden, stone, iron, diamond,
 * easy, mid, hard, complex), a process goal (log, stone_pickaxe ...) or a context id (2-3). Empty = all.
 */
export function selectTasks(all: Mp5Task[], filter: string | undefined): Mp5Task[] {
  const want = (filter ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)
  if (want.length === 0) return all
  return all.filter((t) => want.some((w) => w === t.kind || w === t.level || w === t.id.toLowerCase() || w === t.item))
}

/** Does the bot's final inventory hold the process goal? (MP5's success: the item was obtained.) */
export function holdsGoal(item: string, inventory: Record<string, number>): boolean {
  const re = ANY_OF[item]
  return Object.entries(inventory).some(([n, k]) => k > 0 && (re ? re.test(n) : n === item))
}

/**
 * Seeds from an env value (`name`, MP5_SEEDS unless told, says which in the error): a count (3 → seeds 1, 2, 3) or an
 * explicit comma list (4,42; one seed as `42,`).
 */
export function seedsFrom(raw: string | undefined, name = 'MP5_SEEDS'): number[] {
  const s = (raw ?? '3').trim()
  if (s.includes(','))
    return s
      .split(',')
      .filter((x) => x.trim() !== '')
      .map((x) => Number(x.trim()))
      .filter((n) => Number.isInteger(n) && n >= 0)
  const n = Number(s)
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`${name} must be a count (e.g. 3) or a comma list of seeds (e.g. 4,42); got ${raw}`)
  return Array.from({ length: n }, (_, i) => i + 1)
}
