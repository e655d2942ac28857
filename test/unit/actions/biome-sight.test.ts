/**
 * Where a biome lies in sight (src/actions/biome-sight.ts) on a small in-memory world seen through the bits of a Bot
 * it reads (`blockAt` with each block's biome): land at y 63, a forest east of x 20 whose first 40 blocks are a lake.
 * The nearest column inside the forest is in the lake; the nearest one with dry land on top is past it. The search
 * for a tree walks to the second (bench:diamond d50 seed 24 swam 450 s across such a lake and got no log).
 */
import type { Bot } from 'mineflayer'
import { Vec3 } from 'vec3'
import { describe, expect, it } from 'vitest'
import { biomeInSight, dryLand } from '../../../src/actions/biome-sight.js'
import type { Run } from '../../../src/actions/types.js'

const LAKE = { from: 20, to: 60 }

/** Plains west of x 20, forest from there; water from y 55 to 62 over the lake, stone under everything else. */
function world(): Bot {
  const blockAt = (p: Vec3) => {
    const { x, y } = p.floored()
    const biome = { name: x >= LAKE.from ? 'forest' : 'plains' }
    const lake = x >= LAKE.from && x < LAKE.to
    const name = lake ? (y <= 62 ? (y >= 55 ? 'water' : 'stone') : 'air') : y < 63 ? 'stone' : 'air'
    return { name, position: p.floored(), boundingBox: name === 'stone' ? 'block' : 'empty', biome }
  }
  return { entity: { position: new Vec3(0.5, 63, 0.5) }, blockAt } as unknown as Bot
}

const run = (): Run => ({ bot: world() }) as unknown as Run

describe('biomes in sight', () => {
  it('tells dry land from a lake', () => {
    expect(dryLand(world(), 10, 0)).toBe(true)
    expect(dryLand(world(), 30, 0)).toBe(false)
    expect(dryLand(world(), 70, 0)).toBe(true)
  })

  it('finds the nearest column inside the forest; on dry land only, the one past the lake', () => {
    const any = biomeInSight(run(), ['forest'], new Set())
    expect(any).not.toBeNull()
    expect(any![0]).toBeGreaterThanOrEqual(LAKE.from)
    expect(any![0]).toBeLessThan(LAKE.to)
    const dry = biomeInSight(run(), ['forest'], new Set(), true)
    expect(dry).not.toBeNull()
    expect(dry![0]).toBeGreaterThanOrEqual(LAKE.to)
    expect(dryLand(world(), ...dry!)).toBe(true)
  })
})
