/**
 * The practice world's light computation (src/server/light.ts) on a real prismarine-chunk column: open sky is 15
 * down to the ground, a leaf lets 14 through, a stone roof's shade is filled in from the side (14 right below, less
 * further in), an enclosed room stays 0, and a torch gives 14 on its block and one less per step; the levels survive
 * prismarine-chunk's dumpLight/loadParsedLight round trip (what a mineflayer client does with map_chunk).
 */
import { createRequire } from 'node:module'
import { Vec3 } from 'vec3'
import { describe, expect, it } from 'vitest'
import { lightColumn, lightTables, type LightColumn } from '../../../src/server/light.js'

const require = createRequire(import.meta.url)
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- prismarine-chunk and minecraft-data are untyped here
const registry = require('minecraft-data')('1.20.2') as any
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped constructor
const Chunk = require('prismarine-chunk')('1.20.2') as any

interface TestChunk extends LightColumn {
  setBlockStateId(p: Vec3, s: number): void
  getSkyLight(p: Vec3): number
  getBlockLight(p: Vec3): number
  dumpLight(): Record<string, unknown[]>
  loadParsedLight(...a: unknown[]): void
}

function column(): TestChunk {
  const c = new Chunk({ minY: -64, worldHeight: 384 }) as TestChunk
  const stone = registry.blocksByName.stone.defaultState as number
  for (let x = 0; x < 16; x++)
    for (let z = 0; z < 16; z++) for (let y = -64; y <= 64; y++) c.setBlockStateId(new Vec3(x, y, z), stone)
  return c
}

const t = lightTables(registry.blocksArray)
const state = (name: string): number => registry.blocksByName[name].defaultState as number

describe('light', () => {
  const c = column()
  c.setBlockStateId(new Vec3(3, 70, 3), state('oak_leaves'))
  c.setBlockStateId(new Vec3(8, 67, 8), state('stone')) // a one-block roof two above the ground
  // an enclosed room at y 40..41 inside the stone, with a torch in another
  for (const y of [40, 41]) c.setBlockStateId(new Vec3(12, y, 12), state('air'))
  for (let x = 2; x <= 6; x++) c.setBlockStateId(new Vec3(x, 30, 10), state('air'))
  c.setBlockStateId(new Vec3(2, 30, 10), state('torch'))
  lightColumn(c, t)

  it('gives open sky 15 down to the ground, 14 under a leaf, side light under a roof', () => {
    expect(c.getSkyLight(new Vec3(0, 65, 0))).toBe(15)
    expect(c.getSkyLight(new Vec3(0, 300, 0))).toBe(15)
    expect(c.getSkyLight(new Vec3(0, 64, 0))).toBe(0)
    expect(c.getSkyLight(new Vec3(3, 69, 3))).toBe(14)
    expect(c.getSkyLight(new Vec3(8, 66, 8))).toBe(14)
  })

  it('keeps enclosed rooms dark and spreads torch light', () => {
    expect(c.getSkyLight(new Vec3(12, 40, 12))).toBe(0)
    expect(c.getBlockLight(new Vec3(12, 40, 12))).toBe(0)
    expect([2, 3, 4, 5, 6].map((x) => c.getBlockLight(new Vec3(x, 30, 10)))).toEqual([14, 13, 12, 11, 10])
  })

  it('survives the map_chunk round trip', () => {
    const copy = new Chunk({ minY: -64, worldHeight: 384 }) as TestChunk
    const l = c.dumpLight()
    copy.loadParsedLight(
      l.skyLight,
      l.blockLight,
      l.skyLightMask,
      l.blockLightMask,
      l.emptySkyLightMask,
      l.emptyBlockLightMask,
    )
    expect(copy.getSkyLight(new Vec3(3, 69, 3))).toBe(14)
    expect(copy.getBlockLight(new Vec3(4, 30, 10))).toBe(12)
  })
})
