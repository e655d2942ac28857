/**
 * The geometry of a branch-mining search's rows (ore-search.ts digs them): the pattern's sizes — rows ROW cells long,
 * SPACING apart, a poke POKE_DEPTH deep every STRIDE cells — and, from the cells already dug, which way is fresh rock:
 * how much dug rock lies ahead (`dugAhead`), how many cells of a row would run beside old rows (`staleAhead`), and
 * the heading and row side a search turns to (`turnToFresh`, `freshRow`). Pure functions of the dug cells: unit-tested
 * without a world.
 */
import { Vec3 } from 'vec3'

/** Blocks between two rows of the search: the pokes of each row reach half way across (POKE_DEPTH plus the wall). */
export const SPACING = 10
/** Length of each row. */
export const ROW = 12
/** Cells opened ahead of the bot before it walks (the farthest block is about 3.2 blocks from the eyes). */
export const STRIDE = 3
/** Blocks each poke goes into the rock; the deepest is about 4 blocks from the eyes (vanilla's reach is 4.5). */
export const POKE_DEPTH = 4

/** Cells already dug across the strip ahead of `from` along `dir`, `k` cells on: as wide as two rows' pokes reach. */
function dugAcross(dug: ReadonlySet<string>, from: Vec3, dir: Vec3, k: number): number {
  const across = new Vec3(-dir.z, 0, dir.x)
  const half = POKE_DEPTH + 1
  let n = 0
  for (let w = -half; w <= half; w++)
    for (let dy = -1; dy <= 1; dy++)
      if (dug.has(from.plus(dir.scaled(k)).plus(across.scaled(w)).offset(0, dy, 0).toString())) n++
  return n
}

/**
 * Cells already dug in the strip ahead of `from` along `dir`: ROW cells long and as wide as two rows' pokes reach
 * (the rock there has been looked at). A turn takes the freshest way.
 */
export function dugAhead(dug: ReadonlySet<string>, from: Vec3, dir: Vec3): number {
  let n = 0
  for (let k = 1; k <= ROW; k++) n += dugAcross(dug, from, dir, k)
  return n
}

/**
 * How many of the next ROW cells along `dir` have dug rock beside them within the pokes' reach: a row this way would
 * look at rock already looked at for that many cells (an old row alongside: all of them; one crossed: one).
 */
export function staleAhead(dug: ReadonlySet<string>, from: Vec3, dir: Vec3): number {
  let n = 0
  for (let k = 1; k <= ROW; k++) if (dugAcross(dug, from, dir, k) > 0) n++
  return n
}

/** A row that would run beside old rock for more than this many of its ROW cells is turned (branchMine). */
export const STALE_ROW = ROW / 2

/**
 * The heading (an index into `dirs`) and row direction for a search whose next row would run beside old rows: the row
 * goes the way with the fewest stale cells ahead (then the least dug rock), the heading across it to the fresher side.
 */
export function freshRow(dug: ReadonlySet<string>, from: Vec3, dirs: readonly Vec3[]): { d: number; rowDir: Vec3 } {
  const cost = (i: number): number => staleAhead(dug, from, dirs[i]!) * 1000 + dugAhead(dug, from, dirs[i]!)
  const r = [0, 1, 2, 3].reduce((a, b) => (cost(b) < cost(a) ? b : a))
  const [m1, m2] = [(r + 1) % 4, (r + 3) % 4]
  return { d: dugAhead(dug, from, dirs[m2]!) < dugAhead(dug, from, dirs[m1]!) ? m2 : m1, rowDir: dirs[r]! }
}

/**
 * The heading (an index into `dirs`) among `choices` that leads onto the least rock already dug (the first on a tie),
 * and the side its rows run to, the fresher one: a search starts this way, and turns this way when blocked (left,
 * right or back). Turning by rote walked bench seed 4's iron search back across its own rows, two blocks from one.
 */
export function turnToFresh(
  dug: ReadonlySet<string>,
  from: Vec3,
  dirs: readonly Vec3[],
  choices: readonly number[],
): { d: number; rowDir: Vec3 } {
  const ahead = (i: number): number => dugAhead(dug, from, dirs[i % 4]!)
  const best = choices.reduce((a, b) => (ahead(b) < ahead(a) ? b : a))
  const main = dirs[best % 4]!
  const side = new Vec3(-main.z, 0, main.x)
  const rowDir = dugAhead(dug, from, side.scaled(-1)) < dugAhead(dug, from, side) ? side.scaled(-1) : side
  return { d: best, rowDir }
}
