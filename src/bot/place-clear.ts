/**
 * Placing a block where the bot's own body still is: a mineflayer plugin that makes `bot.placeBlock` wait until the
 * server has seen the body leave the target block. A server refuses a block that would overlap the player (vanilla
 * checks the player's box by its last reported position), and mineflayer sends its position only after the tick's
 * handlers ran — so the pathfinder, which jump-places under itself as soon as its feet clear the block on the
 * client, is refused twice per jump and, when its goal is the top of the tower, calls the goal reached at the top of
 * the jump and falls back down. Waiting until the body was clear one tick earlier (its position packet sent) makes
 * the placement land; after PLACE_CLEAR_TICKS it places anyway and the server answers as it will.
 */
import type { Bot } from 'mineflayer'
import type { Block } from 'prismarine-block'
import type { Vec3 } from 'vec3'

/** Ticks a placement waits at most for the body to clear the target block (a jump peaks after 6). */
export const PLACE_CLEAR_TICKS = 10
/** Half the width and the height of a player's box. */
const HALF_WIDTH = 0.3
const HEIGHT = 1.8

/** Whether the player's box at `pos` overlaps the block cell at `cell`. */
export function overlapsCell(pos: Vec3, cell: Vec3): boolean {
  return (
    pos.x + HALF_WIDTH > cell.x &&
    pos.x - HALF_WIDTH < cell.x + 1 &&
    pos.y + HEIGHT > cell.y &&
    pos.y < cell.y + 1 &&
    pos.z + HALF_WIDTH > cell.z &&
    pos.z - HALF_WIDTH < cell.z + 1
  )
}

/** Resolves at the first tick whose previous tick already had the body clear of `cell` (or after the limit). */
function bodyClearOf(bot: Bot, cell: Vec3): Promise<void> {
  if (!bot.entity || !overlapsCell(bot.entity.position, cell)) return Promise.resolve()
  return new Promise((resolve) => {
    let ticks = 0
    let clearBefore = false
    const onTick = (): void => {
      ticks++
      if (clearBefore || ticks >= PLACE_CLEAR_TICKS || !bot.entity) {
        bot.removeListener('physicsTick', onTick)
        bot.removeListener('end', onEnd)
        resolve()
        return
      }
      clearBefore = !overlapsCell(bot.entity.position, cell)
    }
    const onEnd = (): void => {
      bot.removeListener('physicsTick', onTick)
      resolve()
    }
    bot.on('physicsTick', onTick)
    bot.once('end', onEnd)
  })
}

/** The plugin: wraps `bot.placeBlock` (the pathfinder and our actions both call it through the bot). */
export function placeClear(bot: Bot): void {
  const place = bot.placeBlock.bind(bot)
  bot.placeBlock = async (reference: Block, face: Vec3): Promise<void> => {
    await bodyClearOf(bot, reference.position.plus(face))
    return place(reference, face)
  }
}
