/**
 * `npm run bench:search` — how long an honest (no x-ray) search digs before the first sighting of an ore, on the
 * practice world's own generator (no server, no bot): from each seed's spawn column at a given level, a 1×2 corridor
 * follows a pattern (ours from src/actions/ore-search.ts: ROW-cell rows SPACING apart, joined end to end, with 1×1
 * poke holes POKE_DEPTH deep to both sides at eye level and straight up from every STRIDE-th cell; the serpentine
 * without pokes used before; a straight line and a wider serpentine, each without and with the pokes; the main
 * corridor with side branches used before that), and an ore counts as seen when it touches a dug block — or, with SEARCH_CAVES=1, any air of a cave the
 * corridor opens into (bounded flood, every wall seen: an upper bound of what walking the cave shows). Time is
 * SEARCH_DIG_S per block dug (default 0.755 s: deepslate with an iron pickaxe, as measured in bench:diamond's
 * corridor log) plus SEARCH_WALK_S per cell walked (default 0.24 s); lava, gravel and looking are ignored, so real
 * runs are slower. Prints per level × pattern the median cells and seconds to the sighting and how many seeds saw
 * the ore within 120/240 cells and 120/240/360/480 s, and by when 90 % of them had; writes bench/results/search.json. Env: SEARCH_ORE (regexp, default
 * diamond_ore), SEARCH_LEVELS (default -59,-53), SEARCH_SEEDS (a count, default 40, or a comma list of seeds), SEARCH_MAX (cells, default 300),
 * SEARCH_CAVES (0/1, default 1), SEARCH_FROM (x,z: the column every search starts at instead of the seed's spawn).
 */
import { POKE_DEPTH, ROW, SPACING, STRIDE } from '../src/actions/ore-rows.js'
import { WorldScanner } from '../src/server/worldgen/scan.js'
import { FACES } from '../src/util/vec.js'
import { seedsFrom } from './lib/mp5-tasks.js'
import { median } from './lib/stats.js'
import { printTable, writeResult, type Row } from './lib/table.js'

const ORE = new RegExp(process.env.SEARCH_ORE ?? 'diamond_ore')
const LEVELS = (process.env.SEARCH_LEVELS ?? '-59,-53').split(',').map(Number)
const SEEDS = ((): number[] => {
  try {
    return seedsFrom(process.env.SEARCH_SEEDS ?? '40', 'SEARCH_SEEDS')
  } catch (err) {
    process.stderr.write(`search: ${(err as Error).message}\n`)
    process.exit(2)
  }
})()
const MAX = Number(process.env.SEARCH_MAX ?? 300)
const CAVES = (process.env.SEARCH_CAVES ?? '1') === '1'
/** SEARCH_FROM=x,z: start every seed's search at this column instead of its spawn (to replay a bench run's search). */
const FROM = process.env.SEARCH_FROM ? process.env.SEARCH_FROM.split(',').map(Number) : null
/** How far (blocks) from the corridor cell a cave is followed, and how many of its air blocks at most. */
const CAVE_REACH = 16
const CAVE_AIR = 3000

/** Cells (dx, dz) of a serpentine of `row`-cell rows `spacing` apart, or of a straight line (row 0). */
function pattern(row: number, spacing: number): Array<[number, number]> {
  const out: Array<[number, number]> = []
  if (row < 0) {
    // the pattern before the serpentine: a main corridor, every 4 cells a branch of 8 to each side (walked back)
    let x = 0
    while (out.length < MAX) {
      for (let i = 0; i < 4; i++) {
        x += 1
        out.push([x, 0])
      }
      for (let i = 1; i <= 8; i++) out.push([x, i])
      for (let i = 1; i <= 8; i++) out.push([x, -i])
    }
    return out.slice(0, MAX)
  }
  if (row === 0) for (let i = 1; i <= MAX; i++) out.push([i, 0])
  let x = 0
  let z = 0
  let dir = 1
  while (out.length < MAX) {
    for (let i = 0; i < row && out.length < MAX; i++) {
      z += dir
      out.push([x, z])
    }
    for (let i = 0; i < spacing && out.length < MAX; i++) {
      x += 1
      out.push([x, z])
    }
    dir = -dir
  }
  return out
}

const isAir = (name: string): boolean => name === 'air' || name === 'cave_air'

/** A 1×1 hole dug from a corridor cell at eye level (along x) or straight up, `depth` blocks, before walking on. */
interface Pokes {
  /** Every how many cells of a row (0: none). */
  every: number
  depth: number
  up: boolean
}
const NO_POKES: Pokes = { every: 0, depth: 0, up: false }
/** The search's own pokes (src/actions/ore-search.ts). */
const OUR_POKES: Pokes = { every: STRIDE, depth: POKE_DEPTH, up: true }

/**
 * Blocks of the pokes dug from cell (cx, cz) at `level`, across the way the corridor came (`along`: the step from
 * the previous cell); every `every`-th cell of the path pokes.
 */
function pokeBlocks(
  p: Pokes,
  i: number,
  along: [number, number],
  cx: number,
  cz: number,
  level: number,
): Array<[number, number, number]> {
  if (p.every === 0 || i % p.every !== p.every - 1) return []
  const [sx, sz] = [along[1], along[0]]
  const out: Array<[number, number, number]> = []
  for (const side of [1, -1])
    for (let k = 1; k <= p.depth; k++) out.push([cx + side * k * sx, level + 1, cz + side * k * sz])
  if (p.up) for (let k = 1; k <= p.depth; k++) out.push([cx, level + 1 + k, cz])
  return out
}

/** SEARCH_CHANGE=cells:dy — every `cells` cells the search moves `dy` levels, and back, and so on (a staircase). */
interface LevelChange {
  every: number
  dy: number
}
function levelChange(raw: string | undefined): LevelChange | null {
  if (!raw) return null
  const [every, dy] = raw.split(':').map(Number)
  return { every: every!, dy: dy! }
}
const CHANGE = levelChange(process.env.SEARCH_CHANGE)

/** Seconds a search has spent: blocks dug at DIG_S each and blocks walked at WALK_S each (measured, see the header). */
const DIG_S = Number(process.env.SEARCH_DIG_S ?? 0.755)
const WALK_S = Number(process.env.SEARCH_WALK_S ?? 0.24)
/**
 * Tool wear: after SEARCH_USES blocks (default: never) every block takes SEARCH_WORN_DIG_S (default 1.15 s: deepslate
 * with a stone pickaxe), as when the iron pickaxe wore out and the re-tool made a stone one.
 */
const USES = Number(process.env.SEARCH_USES ?? Number.POSITIVE_INFINITY)
const WORN_DIG_S = Number(process.env.SEARCH_WORN_DIG_S ?? 1.15)
/** SEARCH_BUDGETS: the seconds of search the table counts sightings within (default 120,240,360,480). */
const BUDGETS = (process.env.SEARCH_BUDGETS ?? '120,240,360,480').split(',').map(Number)

/**
 * Cells dug until the ore is first seen (MAX + 1: not within MAX), whether a cave showed it, the seconds spent and the
 * blocks dug (a pickaxe's uses).
 */
async function cellsToSighting(
  seed: number,
  level0: number,
  cells: Array<[number, number]>,
  pokes: Pokes = NO_POKES,
  change: LevelChange | null = null,
): Promise<[number, boolean, number, number]> {
  let level = level0
  const w = WorldScanner.forSeed(seed)
  const spawn = FROM ? { x: FROM[0]!, z: FROM[1]! } : await w.spawnPoint()
  const ox = Math.floor(spawn.x)
  const oz = Math.floor(spawn.z)
  const dug = new Set<string>()
  const air = new Set<string>()
  // a cave opened by the corridor: its walls within reach (breadth-first over its air)
  const cave = (x: number, y: number, z: number, cx: number, cz: number): boolean => {
    const queue: Array<[number, number, number]> = [[x, y, z]]
    air.add(`${x},${y},${z}`)
    for (let n = 0; queue.length > 0 && n < CAVE_AIR; n++) {
      const [qx, qy, qz] = queue.shift()!
      for (const f of FACES) {
        const [px, py, pz] = [qx + f.x, qy + f.y, qz + f.z]
        const key = `${px},${py},${pz}`
        if (air.has(key) || Math.abs(px - cx) > CAVE_REACH || Math.abs(pz - cz) > CAVE_REACH) continue
        const name = w.blockName(px, py, pz)
        if (ORE.test(name)) return true
        if (isAir(name)) {
          air.add(key)
          queue.push([px, py, pz])
        }
      }
    }
    return false
  }
  let seconds = 0
  let uses = 0
  // dig one block (unless a cave or an earlier dig opened it); what its faces show: 'ore', 'cave' or null
  const dig = (bx: number, by: number, bz: number, cx: number, cz: number): 'ore' | 'cave' | null => {
    if (dug.has(`${bx},${by},${bz}`)) return null
    dug.add(`${bx},${by},${bz}`)
    if (!isAir(w.blockName(bx, by, bz))) seconds += uses++ < USES ? DIG_S : WORN_DIG_S
    for (const f of FACES) {
      const [x, y, z] = [bx + f.x, by + f.y, bz + f.z]
      if (dug.has(`${x},${y},${z}`)) continue
      const name = w.blockName(x, y, z)
      if (ORE.test(name)) return 'ore'
      if (CAVES && isAir(name) && !air.has(`${x},${y},${z}`) && cave(x, y, z, cx, cz)) return 'cave'
    }
    return null
  }
  for (let i = 0; i < cells.length; i++) {
    const [dx, dz] = cells[i]!
    const [cx, cz] = [ox + dx, oz + dz]
    seconds += WALK_S
    if (change && i > 0 && i % change.every === 0) {
      // a staircase to the other level: two blocks dug per level, looked at like any other
      const to = level === level0 ? level0 + change.dy : level0
      const step = Math.sign(to - level)
      for (let y = level + step; y !== to + step; y += step)
        for (const by of [y, y + 1]) {
          seconds += WALK_S / 2
          const seen = dig(cx, by, cz, cx, cz)
          if (seen) return [i + 1, seen === 'cave', seconds, uses]
        }
      level = to
    }
    const blocks: Array<[number, number, number]> = [
      [cx, level + 1, cz],
      [cx, level, cz],
      ...pokeBlocks(pokes, i, i > 0 ? [dx - cells[i - 1]![0], dz - cells[i - 1]![1]] : [dx, dz], cx, cz, level),
    ]
    for (const [bx, by, bz] of blocks) {
      const seen = dig(bx, by, bz, cx, cz)
      if (seen) return [i + 1, seen === 'cave', seconds, uses]
    }
  }
  return [MAX + 1, false, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY]
}

async function main(): Promise<void> {
  const ours = `ours: rows ${ROW}, ${SPACING} apart, pokes ${POKE_DEPTH} deep every ${STRIDE} cells`
  type Pattern = [string, number, number, Pokes?, LevelChange?]
  const patterns: Pattern[] = [
    [ours, ROW, SPACING, OUR_POKES],
    ...(CHANGE
      ? [[`${ours}, ${CHANGE.dy} levels off every ${CHANGE.every}`, ROW, SPACING, OUR_POKES, CHANGE] as Pattern]
      : []),
    ['before (to 2026-11-25): rows 10, 4 apart, no pokes', 10, 4],
    ['straight line', 0, 0],
    ['straight line, pokes', 0, 0, OUR_POKES],
    ['rows 40, 10 apart', 40, 10],
    ['rows 40, 10 apart, pokes', 40, 10, OUR_POKES],
    ['main + 8-block branches (to 2026-11-23)', -1, 0],
  ]
  process.stderr.write(
    `search: ${ORE.source} at y ${LEVELS.join(', ')}, ${SEEDS.length} seeds, up to ${MAX} cells, caves ${CAVES ? 'on' : 'off'}\n`,
  )
  const rows: Row[] = []
  for (const level of LEVELS)
    for (const [name, row, spacing, pokes, change] of patterns) {
      const cells = pattern(row, spacing)
      const runs = await Promise.all(SEEDS.map((s) => cellsToSighting(s, level, cells, pokes, change)))
      const n = runs.map(([k]) => k)
      const secs = runs.map(([, , t]) => t)
      const within = (k: number): string => `${n.filter((c) => c <= k).length}/${n.length}`
      const inTime = (t: number): string => `${secs.filter((c) => c <= t).length}/${secs.length}`
      const med = median(secs)
      // the value by which a share `q` of the seeds saw the ore (null when fewer did within the cell limit)
      const quantile = (ts: number[], q = 0.9): number | null => {
        const t = [...ts].sort((a, b) => a - b)[Math.ceil(ts.length * q) - 1]
        return t === undefined || !Number.isFinite(t) ? null : Math.round(t)
      }
      rows.push({
        level,
        pattern: name,
        'median cells': median(n),
        '≤120': within(120),
        '≤240': within(240),
        'median s': med === null || !Number.isFinite(med) ? null : Math.round(med),
        ...Object.fromEntries(BUDGETS.map((t) => [`≤${t} s`, inTime(t)])),
        '90 % by s': quantile(secs),
        // the knowledge's searchDig (data/knowledge/world.json): blocks dug before the sighting, 3 searches in 4
        'median blocks': quantile(
          runs.map(([, , , b]) => b),
          0.5,
        ),
        'p75 blocks': quantile(
          runs.map(([, , , b]) => b),
          0.75,
        ),
        'by a cave': runs.filter(([, c]) => c).length,
      })
    }
  printTable(rows)
  const file = writeResult('search', { ore: ORE.source, seeds: SEEDS, maxCells: MAX, caves: CAVES, rows })
  process.stdout.write(`wrote ${file}\n`)
}

void main()
