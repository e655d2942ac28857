/**
 * Keeps the pathfinder a block away from lava: a cell to stand or walk in costs LAVA_STEP_COST more when the guard
 * reflex (src/actions/reflexes/guard.ts) would see lava from it, that is when lava is in the guard's probe
 * (`LAVA_PROBE`: feet, below, head) of the cell or of a cell beside it (the rim of a pool, lava at head height beside
 * the way), so the pathfinder goes round when it can. mineflayer-pathfinder avoids lava cells themselves but walks
 * their rims, where one slip or a step back from the guard ends in the lava: two bench:diamond runs (seeds 2 and 7)
 * died so, walking the caves at y -54 above the lava-filled ones. With head height left out (before 2026-11-26), a
 * path passed lava beside the head and the guard stopped it (bench d12 seed 1 then gave up a diamond 13 blocks off).
 * Breaking a block beside lava the pathfinder already refuses (its `dontCreateFlow`).
 */
import type { Bot } from 'mineflayer'
import type { Movements, SafeBlock } from 'mineflayer-pathfinder'
import { Vec3 } from 'vec3'
import { FACES } from '../util/vec.js'

/** Extra cost of a step next to lava: more than a long detour, so a path along a lava rim is the last resort. */
export const LAVA_STEP_COST = 50

/** Where the guard looks for lava in a cell the bot walks into: feet, below the feet, head. */
export const LAVA_PROBE: readonly Vec3[] = [new Vec3(0, 0, 0), new Vec3(0, -1, 0), new Vec3(0, 1, 0)]

/** Where lava makes a cell unsafe to walk in: the guard's probe of the cell and of the four cells beside it. */
const STEP_NEAR: readonly Vec3[] = [new Vec3(0, 0, 0), ...FACES.filter((f) => f.y === 0)].flatMap((c) =>
  LAVA_PROBE.map((p) => c.plus(p)),
)

/** More than the 100 mineflayer-pathfinder allows one move: the move is ruled out. */
const RULED_OUT = 101

/** Bots whose walks now rule steps near lava out instead of weighing them (`clearOfLava`). */
const strict = new WeakSet<Bot>()

/**
 * Run `walk` with every step near lava ruled out, not only weighed: the pathfinder then goes round through the rock
 * (it digs), or finds no path. For a walk the guard already turned back once (bench d13 seed 1: a diamond 13 blocks
 * off, the bot in a cave pocket with lava at head height beside it; the weighed path set off past the lava twice).
 */
export async function clearOfLava<T>(bot: Bot, walk: () => Promise<T>): Promise<T> {
  strict.add(bot)
  try {
    return await walk()
  } finally {
    strict.delete(bot)
  }
}

/** Add the lava margin to a pathfinder's movements. */
export function keepOffLava(bot: Bot, moves: Movements): void {
  const lava = bot.registry.blocksByName.lava
  if (!lava) return
  // state ids, not Block objects: the pathfinder asks for every cell of every move it weighs
  const isLava = (p: Vec3): boolean => {
    const id = bot.world.getBlockStateId(p)
    return id >= lava.minStateId && id <= lava.maxStateId
  }
  // a cell in an unloaded chunk comes as a stub without a position (not safe to step in anyway)
  const step = (block: SafeBlock): number => {
    const at = (block as Partial<SafeBlock>).position
    if (!at || !STEP_NEAR.some((d) => isLava(at.plus(d)))) return 0
    return strict.has(bot) ? RULED_OUT : LAVA_STEP_COST
  }
  moves.exclusionAreasStep.push(step)
}
