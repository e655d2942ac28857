/**
 * The pathfinder's lava margin (src/bot/lava-margin.ts) on a tiny world of state ids: a step beside (feet or head
 * height), over, under or on the rim of lava costs LAVA_STEP_COST, one two blocks off costs nothing, and the stub the
 * pathfinder passes for a cell in an unloaded chunk (no position) costs nothing instead of throwing inside the
 * pathfinder's tick (skills-goto.test threw 184 times so). A step beside an open hole is weighed like lava when the
 * fall ends in lava (`fallFrom`, the guard's rule), and ruled out only while a walk keeps clear of danger when the
 * hole is deeper than a safe fall; a shallow hole with a floor costs nothing. An action's walks keep clear of danger
 * once the guard has turned one of them back (src/actions/world.ts `clearAfterTurnBack`).
 */
import type { Bot } from 'mineflayer'
import type { Movements, SafeBlock } from 'mineflayer-pathfinder'
import { Vec3 } from 'vec3'
import { describe, expect, it } from 'vitest'
import { clearOfDanger, keepOffLava, LAVA_STEP_COST } from '../../../src/bot/lava-margin.js'
import type { Run } from '../../../src/actions/types.js'
import { clearAfterTurnBack } from '../../../src/actions/world.js'

const LAVA = { minStateId: 90, maxStateId: 105 }
const STATES: Record<number, { name: string; boundingBox: string }> = {
  0: { name: 'air', boundingBox: 'empty' },
  1: { name: 'stone', boundingBox: 'block' },
  95: { name: 'lava', boundingBox: 'empty' },
}

/** A world of stone with lava at `lava` and air at `air`. */
function margin(lava: Vec3[], into: Bot = {} as Bot, air: Vec3[] = []): (block: SafeBlock) => number {
  const cells = new Set(lava.map((p) => p.toString()))
  const open = new Set(air.map((p) => p.toString()))
  const bot = Object.assign(into, {
    on: () => bot,
    registry: { blocksByName: { lava: LAVA }, blocksByStateId: STATES },
    world: {
      getColumnAt: () => ({}),
      getBlockStateId: (p: Vec3) => {
        const k = p.floored().toString()
        return cells.has(k) ? 95 : open.has(k) ? 0 : 1
      },
    },
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
    const inside = await clearOfDanger(bot, async () => [step(at(4, 10, 0)), step(at(3, 10, 0))])
    expect(inside[0]).toBeGreaterThan(100)
    expect(inside[1]).toBe(0)
    expect(step(at(4, 10, 0))).toBe(LAVA_STEP_COST)
  })

  it('weighs a step beside a hole whose fall ends in lava, and rules out one beside a deadly drop while clear of danger', async () => {
    // a cave floor at y 9 with air above it; beside the cell (4, 10, 0) a hole (5, 10..y, 0) down to what lies below
    const room = [3, 4].flatMap((x) => [10, 11].map((y) => new Vec3(x, y, 0)))
    const hole = (depth: number): Vec3[] => Array.from({ length: depth + 2 }, (_, i) => new Vec3(5, 11 - i, 0))
    const intoLava = margin([new Vec3(5, 5, 0)], {} as Bot, [...room, ...hole(4)])
    expect(intoLava(at(4, 10, 0))).toBe(LAVA_STEP_COST)
    expect(intoLava(at(3, 10, 0))).toBe(0)
    const bot = {} as Bot
    const deep = margin([], bot, [...room, ...hole(8)])
    expect(deep(at(4, 10, 0))).toBe(0)
    expect(await clearOfDanger(bot, async () => deep(at(4, 10, 0)))).toBeGreaterThan(100)
    const shallow = {} as Bot
    const floor = margin([], shallow, [...room, ...hole(2)])
    expect(await clearOfDanger(shallow, async () => floor(at(4, 10, 0)))).toBe(0)
  })

  it('rules out a step beside a deadly drop in the walks of a run only once the guard has turned one of them back', async () => {
    const room = [3, 4].flatMap((x) => [10, 11].map((y) => new Vec3(x, y, 0)))
    const hole = Array.from({ length: 10 }, (_, i) => new Vec3(5, 11 - i, 0))
    const bot = {} as Bot
    const deep = margin([], bot, [...room, ...hole])
    let detours = 0
    const run = { bot, detours: () => detours } as unknown as Run
    expect(await clearAfterTurnBack(run, async () => deep(at(4, 10, 0)))).toBe(0)
    detours = 1
    expect(await clearAfterTurnBack(run, async () => deep(at(4, 10, 0)))).toBeGreaterThan(100)
    expect(deep(at(4, 10, 0))).toBe(0) // only while the walk runs
  })

  it('costs nothing for the stub of an unloaded cell', () => {
    const stub = { safe: false, physical: false, liquid: false, height: 0 } as unknown as SafeBlock
    expect(margin([new Vec3(0, 0, 0)])(stub)).toBe(0)
  })
})
