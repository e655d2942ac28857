/**
 * Placing a block where the bot's own body is or is about to be: a mineflayer plugin around `bot.placeBlock`.
 * A server refuses a block that would overlap the player (vanilla checks the player's box by its last reported
 * position), and mineflayer sends its position only after the tick's handlers ran — so the pathfinder, which
 * jump-places under itself as soon as its feet clear the block on the client, is refused twice per jump and, when
 * its goal is the top of the tower, calls the goal reached at the top of the jump and falls back down. So a
 * placement first waits until the body was clear one tick earlier (its position packet sent); after
 * PLACE_CLEAR_TICKS it places anyway and the server answers as it will. Then, while the server has not answered a
 * placement under the body, the bot stands on the pending block: a vanilla client shows its own placement at once
 * and lands on it, mineflayer waits for the server's block update, and with a slow round trip (a loaded server, a
 * far one) the bot fell back into the cell before the block arrived, was inside it when it did, and dug it out —
 * one block of scaffolding lost per slow jump. The hover ends when mineflayer settles the placement: on the real
 * block, or falling if the server refused it.
 */
import type { Bot } from 'mineflayer'
import type { Block } from 'prismarine-block'
import type { Vec3 } from 'vec3'
import { overlapsCell, overlapsColumn } from '../util/vec.js'

/** Ticks a placement waits at most for the body to clear the target block (a jump peaks after 6). */
export const PLACE_CLEAR_TICKS = 10

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

/**
 * While the placement into `cell` is in flight, keep the feet from sinking into it (physicsTick runs after the
 * tick's physics and before its position packet). Only for a cell right under a body already above it; returns
 * the function that ends the hover.
 */
function hoverOver(bot: Bot, cell: Vec3): () => void {
  const top = cell.y + 1
  const pos = bot.entity?.position
  if (!pos || pos.y < top || !overlapsColumn(pos, cell)) return () => {}
  const onTick = (): void => {
    const e = bot.entity
    if (!e || e.position.y >= top || !overlapsColumn(e.position, cell)) return
    if (bot.blockAt(cell)?.boundingBox !== 'empty') return // the server's answer is in: physics has the real block
    // not onGround: a held jump would leave the pending block before it exists (and the pathfinder call its goal
    // reached at the top of that extra jump)
    e.position.y = top
    if (e.velocity.y < 0) e.velocity.y = 0
  }
  bot.on('physicsTick', onTick)
  return () => bot.removeListener('physicsTick', onTick)
}

/** The plugin: wraps `bot.placeBlock` (the pathfinder and our actions both call it through the bot). */
export function placeClear(bot: Bot): void {
  const place = bot.placeBlock.bind(bot)
  bot.placeBlock = async (reference: Block, face: Vec3): Promise<void> => {
    const cell = reference.position.plus(face)
    await bodyClearOf(bot, cell)
    const land = hoverOver(bot, cell)
    try {
      await place(reference, face)
    } finally {
      land()
    }
  }
}
