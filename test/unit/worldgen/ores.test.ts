/**
 * Ore distribution of the practice world, computed straight from the generator over 64 chunks of seed 7: every
 * ore at its vanilla 1.20 depths (diamond ≤ 16, redstone ≤ 15, gold ≤ 32, lapis ≤ 64, iron mostly -24..56,
 * copper -16..112, coal above 0), the deepslate variant exactly where the rock is deepslate (below y=8 only), and
 * per-chunk counts in the vanilla range, and veins of vanilla size.
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

  // Vanilla's expectation for land around y 67 (no mountains): veins per chunk × the share of the height range in the
  // world × the mean vein of vanilla's OreFeature (size 4 ≈ 2.3 blocks, 8 ≈ 4.9, 9 ≈ 6.1, 17 ≈ 22), less what caves
  // and the discard-when-exposed rule take: diamond ≈ 18, iron ≈ 84, coal ≈ 100, gold ≈ 25, lapis ≈ 23.
  it('has about vanilla numbers per chunk', () => {
    expect(perChunk('diamond')).toBeGreaterThan(8)
    expect(perChunk('diamond')).toBeLessThan(30)
    expect(perChunk('iron')).toBeGreaterThan(40)
    expect(perChunk('iron')).toBeLessThan(150)
    expect(perChunk('coal')).toBeGreaterThan(40)
    expect(perChunk('coal')).toBeLessThan(200)
    expect(perChunk('copper')).toBeGreaterThan(30)
    expect(perChunk('gold')).toBeGreaterThan(10)
    expect(perChunk('gold')).toBeLessThan(45)
    expect(perChunk('redstone')).toBeGreaterThan(15)
    expect(perChunk('lapis')).toBeGreaterThan(8)
    expect(perChunk('lapis')).toBeLessThan(40)
  })

  it('grows veins of vanilla size (coal, size 17: clusters of a dozen blocks and more, across chunk borders)', () => {
    // connected coal clusters (6-neighbourhood) over a 4×4-chunk area, borders included
    const coal = new Set<string>()
    for (let cx = 0; cx < 4; cx++) {
      for (let cz = 0; cz < 4; cz++) {
        const d = world.generate(cx, cz)
        for (let i = 0; i < d.blocks.length; i++)
          if (world.palette.nameOf.get(d.blocks[i]!)?.endsWith('coal_ore'))
            coal.add(`${cx * 16 + (i & 15)},${(i >> 8) + MIN_Y},${cz * 16 + ((i >> 4) & 15)}`)
      }
    }
    const sizes: number[] = []
    const seen = new Set<string>()
    for (const start of coal) {
      if (seen.has(start)) continue
      let n = 0
      const todo = [start]
      seen.add(start)
      while (todo.length) {
        const [x, y, z] = todo.pop()!.split(',').map(Number) as [number, number, number]
        n++
        for (const [dx, dy, dz] of [
          [1, 0, 0],
          [-1, 0, 0],
          [0, 1, 0],
          [0, -1, 0],
          [0, 0, 1],
          [0, 0, -1],
        ]) {
          const k = `${x + dx!},${y + dy!},${z + dz!}`
          if (coal.has(k) && !seen.has(k)) {
            seen.add(k)
            todo.push(k)
          }
        }
      }
      sizes.push(n)
    }
    expect(Math.max(...sizes)).toBeGreaterThanOrEqual(15)
    expect(sizes.filter((n) => n >= 8).length / sizes.length).toBeGreaterThan(0.3)
  })
})
