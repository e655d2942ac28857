/**
 * One bot's memo of answers about single cells of the world, for the pathfinder's hot path: mineflayer-pathfinder
 * weighs the same cell for many moves of one search. An answer is kept per absolute cell until one of the bot events
 * named says the world changed, and the memo starts afresh past MEMO_CELLS. The danger margin (lava-margin.ts) and
 * the block cache (block-cache.ts) keep theirs here.
 */
import type { Bot } from 'mineflayer'

/** Cells kept before a memo starts afresh (a long path search weighs ~10^5). */
const MEMO_CELLS = 200_000

/** The bot events after which a memo forgets everything. */
export type WorldChange = 'blockUpdate' | 'chunkColumnLoad' | 'chunkColumnUnload'

/**
 * `memo(x, y, z, work, keep)`: the answer kept for the cell, or `work()`'s, kept unless `keep` says not (a stub for a
 * cell of a chunk not loaded yet).
 */
export type CellMemo<T> = (x: number, y: number, z: number, work: () => T, keep?: (answer: T) => boolean) => T

export function cellMemo<T>(bot: Bot, changes: readonly WorldChange[]): CellMemo<T> {
  const cells = new Map<number, T>()
  const forget = (): void => cells.clear()
  for (const change of changes) bot.on(change, forget)
  return (x, y, z, work, keep) => {
    // unique within 65536 blocks across, far more than a bot has loaded
    const key = ((y + 2048) * 65_536 + (z & 0xffff)) * 65_536 + (x & 0xffff)
    const known = cells.get(key)
    if (known !== undefined) return known
    const answer = work()
    if (keep && !keep(answer)) return answer
    if (cells.size >= MEMO_CELLS) cells.clear()
    cells.set(key, answer)
    return answer
  }
}
