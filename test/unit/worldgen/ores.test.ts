/**
 * Ore distribution of the practice world, computed straight from the generator over 64 chunks of seed 7: every
 * ore at its vanilla 1.20 depths (diamond ≤ 16, redstone ≤ 15, gold ≤ 32, lapis ≤ 64, iron mostly -24..56,
 * copper -16..112, coal above 0), the deepslate variant exactly where the rock is deepslate (below y=8 only), and
 * per-chunk counts in the vanilla range.
 */
import { describe, expect, it } from 'vitest'
import { PracticeWorld } from '../../../src/server/worldgen/generator.js'
import { MIN_Y, ORES } from '../../../src/server/worldgen/palette.js'

const world = PracticeWorld.forVersion(7)
const N = 8
const ys: Record<string, number[]> = {}
for (let cx = 0; cx < N; cx++) {
  for (let cz = 0; cz < N; cz++) {
    const d = world.generate(cx, cz)
    for (let i = 0; i < d.blocks.length; i++) {
      const n = world.palette.nameOf.get(d.blocks[i]!)
      if (!n?.endsWith('_ore')) continue
      ys[n] ??= []
      ys[n].push((i >> 8) + MIN_Y)
    }
  }
}
const all = (ore: string): number[] => [...(ys[`${ore}_ore`] ?? []), ...(ys[`deepslate_${ore}_ore`] ?? [])]
const perChunk = (ore: string): number => all(ore).length / (N * N)
const share = (ore: string, lo: number, hi: number): number =>
  all(ore).filter((y) => y >= lo && y <= hi).length / all(ore).length

describe('ore distribution', () => {
  it('places every ore', () => {
    for (const ore of ORES) expect(all(ore).length, ore).toBeGreaterThan(0)
  })

  it('keeps ores within their vanilla height ranges', () => {
    expect(Math.max(...all('diamond'))).toBeLessThanOrEqual(16)
    expect(Math.max(...all('redstone'))).toBeLessThanOrEqual(16)
    expect(Math.max(...all('gold'))).toBeLessThanOrEqual(33)
    expect(Math.max(...all('lapis'))).toBeLessThanOrEqual(65)
    expect(Math.min(...all('copper'))).toBeGreaterThanOrEqual(-18)
    expect(Math.min(...all('coal'))).toBeGreaterThanOrEqual(-2)
    expect(share('iron', -26, 58)).toBeGreaterThan(0.6)
    expect(share('diamond', -64, -16)).toBeGreaterThan(0.6)
    expect(share('redstone', -64, -32)).toBeGreaterThan(0.6)
  })

  it('uses the deepslate variant below y=0 and the stone variant above y=8', () => {
    for (const [name, list] of Object.entries(ys)) {
      if (name.startsWith('deepslate_')) expect(Math.max(...list), name).toBeLessThan(8)
      else expect(Math.min(...list), name).toBeGreaterThanOrEqual(0)
    }
  })

  it('has about vanilla numbers per chunk', () => {
    expect(perChunk('diamond')).toBeGreaterThan(1.5)
    expect(perChunk('diamond')).toBeLessThan(8)
    expect(perChunk('iron')).toBeGreaterThan(8)
    expect(perChunk('iron')).toBeLessThan(40)
    expect(perChunk('coal')).toBeGreaterThan(8)
    expect(perChunk('copper')).toBeGreaterThan(8)
    expect(perChunk('gold')).toBeGreaterThan(2)
    expect(perChunk('gold')).toBeLessThan(15)
    expect(perChunk('redstone')).toBeGreaterThan(3)
    expect(perChunk('lapis')).toBeGreaterThan(1.5)
    expect(perChunk('lapis')).toBeLessThan(12)
  })
})
