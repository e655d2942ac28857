/**
 * A block cache for the pathfinder's searches. mineflayer-pathfinder asks `Movements.getBlock` for every cell of
 * every move it weighs — a node's neighbours share most of their cells, so a search of a few thousand nodes asks for
 * the same block tens of times — and each ask builds a whole prismarine Block through `bot.blockAt` (its light, its
 * block entity, and a fresh biome object: prismarine-block 1.23 hands prismarine-biome the version instead of the
 * registry, so every biome lookup misses and copies a blank). A bench:mp5 run's CPU profile (2026-11-28, 2-3 seed 2)
 * spent 24 of its 56 busy seconds there, 21 of them under the pathfinder. The cache keeps what `getBlock` made, per
 * absolute cell (cell-memo.ts), until any block or chunk changes or a chunk is unloaded; what it returns is what
 * `getBlock` returned, so every move rule reads the same fields (a cell of a chunk not loaded yet is asked afresh each
 * time).
 */
import type { Bot } from 'mineflayer'
import type { Movements, SafeBlock } from 'mineflayer-pathfinder'
import type { Vec3 } from 'vec3'
import { cellMemo } from './cell-memo.js'

/** Make `moves.getBlock` remember each cell's answer until a block or a chunk changes. */
export function cacheBlocks(bot: Bot, moves: Movements): void {
  const uncached = moves.getBlock.bind(moves)
  const memo = cellMemo<SafeBlock>(bot, ['blockUpdate', 'chunkColumnLoad', 'chunkColumnUnload'])
  // a cell of a chunk not loaded comes as a stub whose height is the offset asked with: not kept
  const loaded = (b: SafeBlock): boolean => Boolean((b as { position?: unknown }).position)
  moves.getBlock = (pos: Vec3, dx: number, dy: number, dz: number): SafeBlock =>
    // mineflayer-pathfinder asks with no position too (its own null check answers that)
    pos ? memo(pos.x + dx, pos.y + dy, pos.z + dz, () => uncached(pos, dx, dy, dz), loaded) : uncached(pos, dx, dy, dz)
}
