/**
 * Keeps the pathfinder a block away from lava: a cell to stand or walk in with lava in it, under it, beside it or
 * beside and one down (the rim of a pool) costs LAVA_STEP_COST more, so the pathfinder goes round when it can.
 * mineflayer-pathfinder avoids lava cells themselves but walks their rims, where one slip or a step back from the
 * guard reflex ends in the lava: two bench:diamond runs (seeds 2 and 7) died so, walking the caves at y -54 above
 * the lava-filled ones. Breaking a block beside lava the pathfinder already refuses (its `dontCreateFlow`).
 */
import type { Bot } from 'mineflayer'
import type { Movements, SafeBlock } from 'mineflayer-pathfinder'
import { Vec3 } from 'vec3'
import { FACES } from '../util/vec.js'

/** Extra cost of a step next to lava: more than a long detour, so a path along a lava rim is the last resort. */
export const LAVA_STEP_COST = 50

/** Where lava makes a cell unsafe to walk in: the cell, its faces, and beside-and-below (a pool's rim). */
const STEP_NEAR: readonly Vec3[] = [
  new Vec3(0, 0, 0),
  ...FACES.filter((f) => f.y <= 0),
  ...FACES.filter((f) => f.y === 0).map((f) => f.offset(0, -1, 0)),
]

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
    return at && STEP_NEAR.some((d) => isLava(at.plus(d))) ? LAVA_STEP_COST : 0
  }
  moves.exclusionAreasStep.push(step)
}
