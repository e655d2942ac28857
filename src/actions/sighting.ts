/**
 * Which blocks in sight count as within reach, for explore's "seen" and for the block `mine` digs next (one rule
 * for both, so mine never walks at a block the search would have looked past): never a block remembered as out of
 * reach (src/actions/memory.ts); underground, only blocks within UNDERGROUND_SIGHT blocks and at most MAX_RISE
 * above the feet. Ore seen across a cave 30 blocks off, or high up the shaft the bot came down, is mostly out of
 * reach (drops, lava between): bench:diamond seed 1 lost 27 s walking at three such from explore, and after a lava
 * detour its mine walked at two diamonds 25 blocks off and 20 up until the stall stopped it. Nor a block whose drop
 * would fall into lava (`dropBurns`): MP5 bench p5 (diamond pickaxe, seed 2) dug two diamond ores in the roof of a
 * cave over a lava lake, 9 blocks up, and both diamonds burned; a player leaves such ore. On the surface, blocks seen
 * beyond the near sight, up to FAR_SIGHT, lead the search's walk (`farSighting`, used by far-look.ts).
 */
import type { Bot } from 'mineflayer'
import type { Block } from 'prismarine-block'
import type { Vec3 } from 'vec3'
import { fallFrom, isLava } from '../bot/lava-margin.js'
import { VIEW_DISTANCE, visibleBlocks, visibleBlocksBeyond } from '../perception/vision.js'
import { isUnreachable } from './memory.js'

/** Underground, a block higher than this above the feet (up the shaft the bot came down) is out of reach. */
export const MAX_RISE = 8
/** Underground, a block farther than this is out of reach too; the search shows nearer ones soon. */
export const UNDERGROUND_SIGHT = 16

/** How far down the fall of a drop is followed: below that the world has ended anyway. */
const DROP_FALL = 384

/**
 * Would the drop of the block at `pos`, once it is broken, fall into lava? It pops out in the block's own cell and
 * falls straight down through what is not solid until it lands (the guard's own fall rule, lava-margin.ts `fallFrom`,
 * followed all the way down: water or a floor catch it).
 */
export function dropBurns(bot: Bot, pos: Vec3): boolean {
  const below = pos.offset(0, -1, 0)
  return isLava(bot, below) || fallFrom(bot, below, DROP_FALL) === 'lava'
}

/** May `mine` go for the block at `pos` at all: not remembered as out of reach, its drop not lost to lava. */
export function worthDigging(bot: Bot, pos: Vec3): boolean {
  return !isUnreachable(bot, pos) && !dropBurns(bot, pos)
}

/** Is the block at `pos` within reach by the rule above (its sight aside)? */
function withinReach(bot: Bot, pos: Vec3, underground: boolean): boolean {
  const me = bot.entity.position
  if (underground && (pos.y > me.y + MAX_RISE || pos.distanceTo(me) > UNDERGROUND_SIGHT)) return false
  return worthDigging(bot, pos)
}

/** Visible blocks of `ids` within reach (nearest first, up to `count`), by the rule above. */
export function reachableSightings(bot: Bot, ids: Set<number>, underground: boolean, count: number): Block[] {
  return visibleBlocks(bot, ids, underground ? UNDERGROUND_SIGHT : VIEW_DISTANCE, count).filter((b) =>
    withinReach(bot, b.position, underground),
  )
}

/**
 * How far the surface search's far look sees a block across open land (far-look.ts), by the same line-of-sight rule,
 * when the server has sent the land that far.
 */
export const FAR_SIGHT = 96

/** The nearest block of `ids` seen beyond VIEW_DISTANCE and within `far` (far-look.ts caps it), worth digging. */
export function farSighting(bot: Bot, ids: Set<number>, far: number, skip: (pos: Vec3) => boolean): Vec3 | null {
  return (
    visibleBlocksBeyond(bot, ids, VIEW_DISTANCE, far, 4).find((b) => !skip(b.position) && worthDigging(bot, b.position))
      ?.position ?? null
  )
}
