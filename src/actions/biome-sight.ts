/**
 * Where a biome lies in sight from the surface: whether the bot stands in one (`standsIn`), whether a column lies
 * BIOME_DEPTH inside one (`deepIn`), how far the server has sent the land (`landInSight`), a column's top
 * (`columnTop`) and whether it is dry land (`dryLand`), and the nearest column inside one of a set of biomes within
 * that land (`biomeInSight`). The surface search (surface-search.ts) walks to it; explore's biome finds use `deepIn`
 * and `standsIn`.
 */
import type { Block } from 'prismarine-block'
import { Vec3 } from 'vec3'
import { biomeAt } from '../perception/vision.js'
import type { Run } from './types.js'

/** Does the bot stand in one of these biomes? */
export const standsIn = (run: Run, biomes: string[]): boolean =>
  biomes.includes(biomeAt(run.bot, run.bot.entity.position))

/**
 * How far inside a biome a find of it stands: found at its very edge, the bot drifted a block back out as it stopped,
 * and the condition check after the search saw the biome it came from (bench mp5 2-3 seed 2: found and lost again
 * 40 times in a row at a desert's edge).
 */
export const BIOME_DEPTH = 4
/** The four compass steps in turning order (east, south, west, north): the spiral's arms and the sides deepIn looks
 * to. */
export const COMPASS = [
  [1, 0],
  [0, 1],
  [-1, 0],
  [0, -1],
] as const
/** Are the column at x/z and those BIOME_DEPTH blocks to each side all in one of these biomes? */
export function deepIn(run: Run, biomes: string[], x: number, z: number): boolean {
  const y = run.bot.entity.position.y
  const inside = (dx: number, dz: number) => biomes.includes(biomeAt(run.bot, new Vec3(x + dx, y, z + dz)))
  return inside(0, 0) && COMPASS.every(([dx, dz]) => inside(dx * BIOME_DEPTH, dz * BIOME_DEPTH))
}

/**
 * How far (blocks) a biome is seen across the land: sand, snow and the trees show it long before the bot stands in
 * it — as far as the server has sent the land (its view distance: 6 chunks on the practice server, often 10 on real
 * ones), measured in whole chunks along the four compass directions, within MIN_SIGHT … MAX_SIGHT. A fixed 80 blocks
 * wasted a sixth of a 96-block view and half of a 160-block one (mp5 4-3: 320–360 s of spiral to a desert).
 */
const MIN_SIGHT = 48
const MAX_SIGHT = 160
const BIOME_STEP = 8
/** Blocks of land the server has sent around the bot (whole chunks along the compass, MIN_SIGHT … MAX_SIGHT). */
export function landInSight(bot: Run['bot']): number {
  const p = bot.entity.position
  let chunks = 0
  while ((chunks + 1) * 16 <= MAX_SIGHT) {
    const d = (chunks + 1) * 16
    if (COMPASS.some(([dx, dz]) => biomeAt(bot, new Vec3(p.x + dx * d, p.y, p.z + dz * d)) === 'unknown')) break
    chunks++
  }
  return Math.max(MIN_SIGHT, chunks * 16)
}

/** Columns walked to once (16-block squares): one the bot could not reach is not walked at again. */
export const columnKey = (x: number, z: number): string => `${x >> 4},${z >> 4}`

/** How far above and below the bot's height `dryLand` looks for a column's top. */
const LAND_RISE = 24

/**
 * The top of the column x/z: the first block from LAND_RISE above the bot's height down that is solid or a fluid;
 * null when none lies within reach, undefined while the chunk is not loaded.
 */
export function columnTop(bot: Run['bot'], x: number, z: number): Block | null | undefined {
  const y0 = Math.floor(bot.entity.position.y)
  for (let y = y0 + LAND_RISE; y >= y0 - LAND_RISE; y--) {
    const b = bot.blockAt(new Vec3(x, y, z))
    if (!b) return undefined
    if (b.name === 'water' || b.name === 'lava' || b.boundingBox === 'block') return b
  }
  return null
}

/**
 * Is the top of the column x/z (`columnTop`) dry land? False under water or lava and while the chunk is not loaded;
 * true when no top lies within reach.
 */
export function dryLand(bot: Run['bot'], x: number, z: number): boolean {
  const top = columnTop(bot, x, z)
  return top === null || (top !== undefined && top.name !== 'water' && top.name !== 'lava')
}

/**
 * The nearest column BIOME_DEPTH inside one of the biome `names`, at the bot's height within the land in sight
 * (`landInSight`; loaded chunks only). With `dry`, only a column whose top is dry land (`dryLand`): a block or a
 * creature of the biome lives on its land, and a lake keeps the biome of the land round it (bench:diamond d50 seed 24
 * swam 450 s across a lake our generator marks forest and plains, looking for oak, spruce and birch, and got no log).
 */
export function biomeInSight(run: Run, names: string[], tried: Set<string>, dry = false): [number, number] | null {
  const me = run.bot.entity.position.floored()
  const sight = Math.floor(landInSight(run.bot) / BIOME_STEP) * BIOME_STEP
  let best: [number, number] | null = null
  let bestD = Number.POSITIVE_INFINITY
  for (let dx = -sight; dx <= sight; dx += BIOME_STEP)
    for (let dz = -sight; dz <= sight; dz += BIOME_STEP) {
      const d = dx * dx + dz * dz
      if (d >= bestD || d > sight * sight || tried.has(columnKey(me.x + dx, me.z + dz))) continue
      if (deepIn(run, names, me.x + dx, me.z + dz) && (!dry || dryLand(run.bot, me.x + dx, me.z + dz))) {
        best = [me.x + dx, me.z + dz]
        bestD = d
      }
    }
  return best
}
