/**
 * The square spiral a biome search walks (surface-search.ts `spiral`): every hop goes on from the one before (no walk back
 * across the start), and the walk passes within hop / √2 of every point of the disc it has wound round (the corners
 * are the farthest), so land seen that far from it leaves no gap. Which targets live on the dry land of their biomes
 * (a walk toward their home skips its lakes) and which in the water.
 */
import { describe, expect, it } from 'vitest'
import type { Target } from '../../../src/actions/names.js'
import type { Run } from '../../../src/actions/types.js'
import { livesOnLand, searchCells, spiral } from '../../../src/actions/surface-search.js'

function take(n: number, hop: number): Array<[number, number]> {
  const out: Array<[number, number]> = []
  for (const p of spiral(0, 0, hop)) {
    out.push(p)
    if (out.length === n) break
  }
  return out
}

/** Distance from point p to the segment a–b. */
function toSegment(p: [number, number], a: [number, number], b: [number, number]): number {
  const [dx, dz] = [b[0] - a[0], b[1] - a[1]]
  const len2 = dx * dx + dz * dz
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dz) / len2))
  return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dz)
}

describe('spiral', () => {
  it('goes east, south, west, north with arms 1, 1, 2, 2, 3 … hops long, each hop from the last', () => {
    expect(take(8, 10)).toEqual([
      [10, 0],
      [10, 10],
      [0, 10],
      [-10, 10],
      [-10, 0],
      [-10, -10],
      [0, -10],
      [10, -10],
    ])
    const path = [[0, 0] as [number, number], ...take(40, 7)]
    for (let i = 1; i < path.length; i++)
      expect(Math.hypot(path[i]![0] - path[i - 1]![0], path[i]![1] - path[i - 1]![1])).toBe(7)
  })

  it('passes within hop / √2 of every point it has wound round, and not within half a hop', () => {
    const hop = 113
    let worst = 0
    const path = [[0, 0] as [number, number], ...take(30, hop)] // arms up to 5 hops: the disc of 2 hops is wound round
    for (let x = -2 * hop; x <= 2 * hop; x += 8)
      for (let z = -2 * hop; z <= 2 * hop; z += 8) {
        if (Math.hypot(x, z) > 2 * hop) continue
        let best = Number.POSITIVE_INFINITY
        for (let i = 1; i < path.length; i++) best = Math.min(best, toSegment([x, z], path[i - 1]!, path[i]!))
        expect(best, `${x},${z}`).toBeLessThanOrEqual(hop / Math.SQRT2)
        worst = Math.max(worst, best)
      }
    expect(worst, 'a corner lies farther than half a hop').toBeGreaterThan(hop / 2)
  })
})

describe('searchCells', () => {
  const first = (n: number, skip: (cx: number, cz: number) => boolean): Array<[number, number]> => {
    const out: Array<[number, number]> = []
    for (const c of searchCells(5, 5, skip)) {
      out.push(c)
      if (out.length === n) break
    }
    return out
  }
  const ring = ([x, z]: [number, number]): number => Math.max(Math.abs(x - 5), Math.abs(z - 5))

  it('walks the start cell, then ring after ring, each cell beside the last', () => {
    const cells = first(49, () => false)
    expect(cells[0]).toEqual([5, 5])
    expect(cells.map(ring)).toEqual([0, ...Array(8).fill(1), ...Array(16).fill(2), ...Array(24).fill(3)])
    for (let i = 2; i < cells.length; i++)
      expect(Math.abs(cells[i]![0] - cells[i - 1]![0]) + Math.abs(cells[i]![1] - cells[i - 1]![1])).toBe(1)
    expect(new Set(cells.map((c) => c.join(','))).size).toBe(49)
  })

  it('leaves out the cells skip names and ends after a ring with none left to walk', () => {
    // a strip of biome three cells wide running east: rings 1 to 3 still hold some of it, ring 4 does not
    const cells = first(1000, (cx, cz) => Math.abs(cz - 5) > 1 || cx > 8 || cx < 2)
    expect(cells.length).toBeLessThan(1000)
    expect(cells.every((c, i) => i === 0 || Math.abs(c[1] - 5) <= 1)).toBe(true)
    expect(cells).toHaveLength(3 * 7)
    expect(first(1000, () => true)).toEqual([[5, 5]])
  })

  it('passes the cells looked over from afar without walking them, and goes on past a ring of them', () => {
    // rings 1 to 3 were all in sight: the walk goes from the start cell straight on to ring 4
    const looked = (cx: number, cz: number): boolean => Math.max(Math.abs(cx - 5), Math.abs(cz - 5)) <= 3
    const cells: Array<[number, number]> = []
    for (const c of searchCells(5, 5, () => false, looked)) {
      cells.push(c)
      if (cells.length === 33) break
    }
    expect(cells[0]).toEqual([5, 5])
    expect(cells.slice(1).map(ring)).toEqual(Array(32).fill(4))
  })
})

describe('livesOnLand', () => {
  const run = { bot: { version: '1.20.2' } } as unknown as Run
  const block = (name: string): Target => ({ kind: 'block', block: { blockNames: [name] } }) as unknown as Target
  const mob = (name: string): Target => ({ kind: 'entity', names: [name] })

  it('logs and cows live on the land; squid, kelp and clay in the water of an ocean or a river', () => {
    expect(livesOnLand(run, block('oak_log'), ['forest', 'plains'])).toBe(true)
    expect(livesOnLand(run, mob('cow'), ['plains', 'forest', 'savanna'])).toBe(true)
    expect(livesOnLand(run, mob('squid'), ['ocean', 'river'])).toBe(false)
    expect(livesOnLand(run, block('kelp'), ['ocean'])).toBe(false)
    expect(livesOnLand(run, block('clay'), ['river', 'swamp', 'lush_caves'])).toBe(false)
    expect(livesOnLand(run, block('sugar_cane'), ['frozen_river', 'beach'])).toBe(false)
  })
})
