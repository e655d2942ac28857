/**
 * `npm run bench:search` — how many corridor cells an honest (no x-ray) search digs before the first sighting of an
 * ore, on the practice world's own generator (no server, no bot): from each seed's spawn column at a given level, a
 * 1×2 corridor follows a pattern (our serpentine: ROW-cell rows SPACING apart, from src/actions/ore-search.ts; a
 * straight line; a wider serpentine; the main corridor with side branches used before), and an ore counts as seen
 * when it touches a dug cell — or, with SEARCH_CAVES=1, any air of a cave the corridor opens into (bounded flood,
 * every wall seen: an upper bound of what walking the cave shows). Lava, gravel and travel are ignored, so real runs
 * are slower. Prints per level × pattern the median and mean cells and how many seeds saw the ore within
 * 60/120/180/240 cells; writes bench/results/search.json. Env: SEARCH_ORE (regexp, default diamond_ore),
 * SEARCH_LEVELS (default -59,-50), SEARCH_SEEDS (count, default 40), SEARCH_MAX (cells, default 300), SEARCH_CAVES
 * (0/1, default 1).
 */
import { ROW, SPACING } from '../src/actions/ore-search.js'
import { WorldScanner } from '../src/server/worldgen/scan.js'
import { FACES } from '../src/util/vec.js'
import { median } from './lib/mp5-tasks.js'
import { printTable, writeResult, type Row } from './lib/table.js'

const ORE = new RegExp(process.env.SEARCH_ORE ?? 'diamond_ore')
const LEVELS = (process.env.SEARCH_LEVELS ?? '-59,-50').split(',').map(Number)
const SEEDS = Array.from({ length: Number(process.env.SEARCH_SEEDS ?? 40) }, (_, i) => i + 1)
const MAX = Number(process.env.SEARCH_MAX ?? 300)
const CAVES = (process.env.SEARCH_CAVES ?? '1') === '1'
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

/** Cells dug until the ore is first seen (MAX + 1: not within MAX), and whether a cave showed it. */
async function cellsToSighting(
  seed: number,
  level: number,
  cells: Array<[number, number]>,
): Promise<[number, boolean]> {
  const w = WorldScanner.forSeed(seed)
  const spawn = await w.spawnPoint()
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
  for (let i = 0; i < cells.length; i++) {
    const [dx, dz] = cells[i]!
    const [cx, cz] = [ox + dx, oz + dz]
    for (const dy of [0, 1]) dug.add(`${cx},${level + dy},${cz}`)
    for (const dy of [0, 1])
      for (const f of FACES) {
        const [x, y, z] = [cx + f.x, level + dy + f.y, cz + f.z]
        if (dug.has(`${x},${y},${z}`)) continue
        const name = w.blockName(x, y, z)
        if (ORE.test(name)) return [i + 1, false]
        if (CAVES && isAir(name) && !air.has(`${x},${y},${z}`) && cave(x, y, z, cx, cz)) return [i + 1, true]
      }
  }
  return [MAX + 1, false]
}

async function main(): Promise<void> {
  const patterns: Array<[string, number, number]> = [
    [`ours: rows ${ROW}, ${SPACING} apart`, ROW, SPACING],
    ['straight line', 0, 0],
    ['rows 40, 10 apart', 40, 10],
    ['before: main + 8-block branches', -1, 0],
  ]
  process.stderr.write(
    `search: ${ORE.source} at y ${LEVELS.join(', ')}, ${SEEDS.length} seeds, up to ${MAX} cells, caves ${CAVES ? 'on' : 'off'}\n`,
  )
  const rows: Row[] = []
  for (const level of LEVELS)
    for (const [name, row, spacing] of patterns) {
      const cells = pattern(row, spacing)
      const runs = await Promise.all(SEEDS.map((s) => cellsToSighting(s, level, cells)))
      const n = runs.map(([k]) => k)
      const within = (k: number): string => `${n.filter((c) => c <= k).length}/${n.length}`
      rows.push({
        level,
        pattern: name,
        'median cells': median(n),
        'mean cells': Math.round(n.reduce((a, b) => a + b, 0) / n.length),
        '≤60': within(60),
        '≤120': within(120),
        '≤180': within(180),
        '≤240': within(240),
        'by a cave': runs.filter(([, c]) => c).length,
      })
    }
  printTable(rows)
  const file = writeResult('search', { ore: ORE.source, seeds: SEEDS, maxCells: MAX, caves: CAVES, rows })
  process.stdout.write(`wrote ${file}\n`)
}

void main()
