/**
 * src/bot/block-cache.ts over a stand-in for mineflayer-pathfinder's Movements: a cell asked twice (from two nodes,
 * with two offsets) is built once; a block or chunk change forgets everything; a stub for a cell of a chunk not
 * loaded is never kept.
 */
import { EventEmitter } from 'node:events'
import type { Bot } from 'mineflayer'
import type { Movements, SafeBlock } from 'mineflayer-pathfinder'
import { Vec3 } from 'vec3'
import { describe, expect, it } from 'vitest'
import { cacheBlocks } from '../../../src/bot/block-cache.js'

/** Movements whose getBlock counts its calls; cells with x < 0 lie in a chunk not loaded (a stub, no position). */
function movesAndBot(): { bot: Bot & EventEmitter; moves: Movements; built: () => number } {
  let built = 0
  const moves = {
    getBlock(pos: Vec3, dx: number, dy: number, dz: number): SafeBlock {
      built++
      const at = pos.offset(dx, dy, dz)
      return (at.x < 0 ? { height: dy } : { position: at, height: at.y }) as unknown as SafeBlock
    },
  } as unknown as Movements
  const bot = new EventEmitter() as unknown as Bot & EventEmitter
  cacheBlocks(bot, moves)
  return { bot, moves, built: () => built }
}

describe('cacheBlocks', () => {
  it('builds a cell once, whichever node and offset it is asked from', () => {
    const { moves, built } = movesAndBot()
    const a = moves.getBlock(new Vec3(5, 64, 5), 1, 0, 0)
    const b = moves.getBlock(new Vec3(6, 63, 5), 0, 1, 0)
    expect(b).toBe(a)
    expect(built()).toBe(1)
    moves.getBlock(new Vec3(6, 64, 6), 0, 0, 0)
    expect(built()).toBe(2)
  })

  it('forgets every cell when a block or a chunk changes', () => {
    const { bot, moves, built } = movesAndBot()
    const at = new Vec3(1, 70, 1)
    for (const event of ['blockUpdate', 'chunkColumnLoad', 'chunkColumnUnload']) {
      moves.getBlock(at, 0, 0, 0)
      const warm = built()
      moves.getBlock(at, 0, 0, 0)
      expect(built()).toBe(warm)
      bot.emit(event)
      moves.getBlock(at, 0, 0, 0)
      expect(built(), event).toBe(warm + 1)
    }
  })

  it('never keeps the stub of a cell whose chunk is not loaded', () => {
    const { moves, built } = movesAndBot()
    expect(moves.getBlock(new Vec3(-3, 64, 0), 0, -1, 0).height).toBe(-1)
    expect(moves.getBlock(new Vec3(-3, 62, 0), 0, 1, 0).height).toBe(1)
    expect(built()).toBe(2)
  })
})
