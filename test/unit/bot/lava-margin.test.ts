/**
 * The pathfinder's lava margin (src/bot/lava-margin.ts) on a tiny world of state ids: a step beside (feet or head
 * height), over, under or on the rim of lava costs LAVA_STEP_COST, one two blocks off costs nothing, and the stub the pathfinder passes for a cell in
 * an unloaded chunk (no position) costs nothing instead of throwing inside the pathfinder's tick (skills-goto.test
 * threw 184 times so).
 */
import type { Bot } from 'mineflayer'
import type { Movements, SafeBlock } from 'mineflayer-pathfinder'
import { Vec3 } from 'vec3'
import { describe, expect, it } from 'vitest'
import { clearOfLava, keepOffLava, LAVA_STEP_COST } from '../../../src/bot/lava-margin.js'

const LAVA = { minStateId: 90, maxStateId: 105 }

function margin(lava: Vec3[], into: Bot = {} as Bot): (block: SafeBlock) => number {
  const cells = new Set(lava.map((p) => p.toString()))
  const bot = Object.assign(into, {
    registry: { blocksByName: { lava: LAVA } },
    world: { getBlockStateId: (p: Vec3) => (cells.has(p.floored().toString()) ? 95 : 1) },
  }) as unknown as Bot
  const moves = { exclusionAreasStep: [] as Array<(b: SafeBlock) => number> }
  keepOffLava(bot, moves as unknown as Movements)
  return moves.exclusionAreasStep[0]!
}
const at = (x: number, y: number, z: number): SafeBlock => ({ position: new Vec3(x, y, z) }) as unknown as SafeBlock

describe('keepOffLava', () => {
  it('weighs steps in, over, beside and on the rim of lava, and nothing two blocks off', () => {
    const step = margin([new Vec3(5, 9, 0)])
    expect(step(at(5, 10, 0))).toBe(LAVA_STEP_COST) // over it
    expect(step(at(5, 9, 0))).toBe(LAVA_STEP_COST) // in it
    expect(step(at(4, 9, 0))).toBe(LAVA_STEP_COST) // beside it
    expect(step(at(4, 10, 0))).toBe(LAVA_STEP_COST) // on its rim
    expect(step(at(4, 8, 0))).toBe(LAVA_STEP_COST) // beside it at head height (the guard sees it from there)
    expect(step(at(5, 8, 0))).toBe(LAVA_STEP_COST) // under it
    expect(step(at(3, 10, 0))).toBe(0)
    expect(step(at(5, 12, 0))).toBe(0)
    expect(step(at(4, 7, 0))).toBe(0)
  })

  it("rules steps near lava out (over the pathfinder's 100 a move) while a walk keeps clear of lava", async () => {
    const bot = {} as Bot
    const step = margin([new Vec3(5, 9, 0)], bot)
    const inside = await clearOfLava(bot, async () => [step(at(4, 10, 0)), step(at(3, 10, 0))])
    expect(inside[0]).toBeGreaterThan(100)
    expect(inside[1]).toBe(0)
    expect(step(at(4, 10, 0))).toBe(LAVA_STEP_COST)
  })

  it('costs nothing for the stub of an unloaded cell', () => {
    const stub = { safe: false, physical: false, liquid: false, height: 0 } as unknown as SafeBlock
    expect(margin([new Vec3(0, 0, 0)])(stub)).toBe(0)
  })
})
