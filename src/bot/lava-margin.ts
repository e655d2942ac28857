/**
 * Keeps the pathfinder a block away from lava: a cell to stand or walk in costs LAVA_STEP_COST more when the guard
 * reflex (src/actions/reflexes/guard.ts) would see lava from it, that is when lava is in the guard's probe
 * (`LAVA_PROBE`: feet, below, head) of the cell or of a cell beside it (the rim of a pool, lava at head height beside
 * the way), or when a cell beside it is an open hole whose fall ends in lava (`fallFrom`, the guard's own rule: a ledge
 * over the lava-filled caves, bench seed 1's diamond 13 blocks off, where every walk along the ledge was turned back,
 * the second one clear of lava too), so the pathfinder goes round when it can. mineflayer-pathfinder avoids lava cells
 * themselves but walks their rims, where one slip or a step back from the guard ends in the lava: two bench:diamond
 * runs (seeds 2 and 7) died so, walking the caves at y -54 above the lava-filled ones. With head height left out
 * (before 2026-11-26), a path passed lava beside the head and the guard stopped it (bench d12 seed 1 then gave up a
 * diamond 13 blocks off). Breaking a block beside lava the pathfinder already refuses (its `dontCreateFlow`).
 */
import type { Bot } from 'mineflayer'
import type { Movements, SafeBlock } from 'mineflayer-pathfinder'
import { Vec3 } from 'vec3'
import { BESIDE } from '../util/vec.js'
import { cellMemo } from './cell-memo.js'

/** A fall of more than this many blocks counts as deadly (the guard reflex's default, and the margin's). */
export const MAX_SAFE_DROP = 4

/** Extra cost of a step next to lava: more than a long detour, so a path along a lava rim is the last resort. */
export const LAVA_STEP_COST = 50

/** Where the guard looks for lava in a cell the bot walks into: feet, below the feet, head. */
export const LAVA_PROBE: readonly Vec3[] = [new Vec3(0, 0, 0), new Vec3(0, -1, 0), new Vec3(0, 1, 0)]

/** Where lava makes a cell unsafe to walk in: the guard's probe of the cell and of the four cells beside it. */
const STEP_NEAR: readonly Vec3[] = [new Vec3(0, 0, 0), ...BESIDE].flatMap((c) => LAVA_PROBE.map((p) => c.plus(p)))

/** Whether a block state id is lava (any level). */
function isLavaState(bot: Bot, id: number): boolean {
  const lava = bot.registry.blocksByName.lava
  return lava !== undefined && id >= lava.minStateId && id <= lava.maxStateId
}

/** Is the cell `p` lava (any level; false where its chunk is not loaded)? */
export function isLava(bot: Bot, p: Vec3): boolean {
  return bot.world.getColumnAt(p) ? isLavaState(bot, bot.world.getBlockStateId(p)) : false
}

/**
 * What a step into the cell `p` falls into: 'none' when there is ground to stand on (`p` or the cell under it is
 * solid) or a floor, water or an unloaded cell within `maxDrop + 1` blocks down, 'lava' when lava comes first, and
 * 'deep' when nothing does. The guard reflex stops a walk at 'lava' and 'deep'; the margin keeps the pathfinder off
 * the cells beside a 'lava' hole. On block state ids: the pathfinder asks for every cell of every move it weighs.
 */
export function fallFrom(bot: Bot, p: Vec3, maxDrop: number): 'none' | 'lava' | 'deep' {
  const stateAt = (q: Vec3): number | null => (bot.world.getColumnAt(q) ? bot.world.getBlockStateId(q) : null)
  const solid = (id: number | null): boolean => id !== null && bot.registry.blocksByStateId[id]?.boundingBox === 'block'
  if (solid(stateAt(p)) || solid(stateAt(p.offset(0, -1, 0)))) return 'none'
  for (let d = 1; d <= maxDrop + 1; d++) {
    const id = stateAt(p.offset(0, -d, 0))
    if (id === null) return 'none' // unloaded: do not guess
    if (isLavaState(bot, id)) return 'lava'
    if (solid(id) || bot.registry.blocksByStateId[id]?.name === 'water') return 'none'
  }
  return 'deep'
}

/** More than the 100 mineflayer-pathfinder allows one move: the move is ruled out. */
const RULED_OUT = 101

/** Bots whose walks now rule steps the guard would turn back out instead of weighing them (`clearOfDanger`). */
const strict = new WeakSet<Bot>()

/**
 * Run `walk` with every step the guard would turn back ruled out, not only weighed: steps near lava, and steps beside
 * a hole too deep to fall into (the weighed margin leaves those to the guard). The pathfinder then goes round through
 * the rock (it digs), or finds no path. For a walk the guard already turned back once (bench d13 seed 1: a diamond 13
 * blocks off, the bot in a cave pocket with lava at head height beside it; the weighed path set off past the lava
 * twice; then on the way up the same cave's wall, a ledge over a 6-block drop turned both walks back).
 */
export async function clearOfDanger<T>(bot: Bot, walk: () => Promise<T>): Promise<T> {
  strict.add(bot)
  try {
    return await walk()
  } finally {
    strict.delete(bot)
  }
}

/** What the guard would see from a cell: lava near it, a deadly drop beside it, or nothing. */
type CellDanger = 'lava' | 'drop' | 'none'

/** Add the lava margin to a pathfinder's movements. */
export function keepOffLava(bot: Bot, moves: Movements): void {
  if (!bot.registry.blocksByName.lava) return
  // state ids, not Block objects: the pathfinder asks for every cell of every move it weighs
  const lavaAt = (p: Vec3): boolean => isLavaState(bot, bot.world.getBlockStateId(p))
  // many moves weigh the same cell: each cell's danger is worked out once, until a block or a chunk changes
  const memo = cellMemo<CellDanger>(bot, ['blockUpdate', 'chunkColumnLoad'])
  // the holes beside a cell, looked into only when no lava is near the cell itself
  const besideHoles = (at: Vec3): CellDanger => {
    const falls = BESIDE.map((f) => fallFrom(bot, at.plus(f), MAX_SAFE_DROP))
    return falls.includes('lava') ? 'lava' : falls.includes('deep') ? 'drop' : 'none'
  }
  const danger = (at: Vec3): CellDanger =>
    memo(at.x, at.y, at.z, () => (STEP_NEAR.some((f) => lavaAt(at.plus(f))) ? 'lava' : besideHoles(at)))
  // a cell in an unloaded chunk comes as a stub without a position (not safe to step in anyway)
  const step = (block: SafeBlock): number => {
    const at = (block as Partial<SafeBlock>).position
    if (!at) return 0
    const d = danger(at)
    if (d === 'lava') return strict.has(bot) ? RULED_OUT : LAVA_STEP_COST
    return strict.has(bot) && d === 'drop' ? RULED_OUT : 0
  }
  moves.exclusionAreasStep.push(step)
}
