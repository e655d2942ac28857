/**
 * A block cache for the pathfinder's searches. mineflayer-pathfinder asks `Movements.getBlock` for every cell of
 * every move it weighs — a node's neighbours share most of their cells, so a search of a few thousand nodes asks for
 * the same block tens of times — and each ask builds a whole prismarine Block through `bot.blockAt` (its light, its
 * block entity, and a fresh biome object: prismarine-block 1.23 hands prismarine-biome the version instead of the
 * registry, so every biome lookup misses and copies a blank). A bench:mp5 run's CPU profile (2026-11-28, 2-3 seed 2)
 * spent 24 of its 56 busy seconds there, 21 of them under the pathfinder. The cache keeps what `getBlock` made, per
 * absolute cell, until any block or chunk changes (the same events that reset lava-margin.ts's danger cache); what it
 * returns is what `getBlock` returned, so every move rule reads the same fields (a cell of a chunk not loaded yet is
 * asked afresh each time).
 */
import type { Bot } from 'mineflayer'
import type { Movements, SafeBlock } from 'mineflayer-pathfinder'
import type { Vec3 } from 'vec3'

/** Cells kept before the cache starts afresh (a long search weighs ~10^5 cells). */
const CACHE_CELLS = 200_000

/** Make `moves.getBlock` remember each cell's answer until a block or a chunk changes. */
export function cacheBlocks(bot: Bot, moves: Movements): void {
  const uncached = moves.getBlock.bind(moves)
  const cache = new Map<number, SafeBlock>()
  const forget = (): void => cache.clear()
  bot.on('blockUpdate', forget)
  bot.on('chunkColumnLoad', forget)
  bot.on('chunkColumnUnload', forget)
  moves.getBlock = (pos: Vec3, dx: number, dy: number, dz: number): SafeBlock => {
    // mineflayer-pathfinder asks with no position too (its own null check answers that)
    if (!pos) return uncached(pos, dx, dy, dz)
    const x = pos.x + dx
    const y = pos.y + dy
    const z = pos.z + dz
    // unique within 65536 blocks across, far more than a bot has loaded (lava-margin.ts keys its cells the same way)
    const key = ((y + 2048) * 65_536 + (z & 0xffff)) * 65_536 + (x & 0xffff)
    const known = cache.get(key)
    if (known !== undefined) return known
    const b = uncached(pos, dx, dy, dz)
    // a cell of a chunk not loaded comes as a stub whose height is the offset asked with: not kept
    if (!(b as { position?: unknown }).position) return b
    if (cache.size >= CACHE_CELLS) cache.clear()
    cache.set(key, b)
    return b
  }
}
