/**
 * A player's box against block cells (src/util/vec.ts): 0.6 wide and 1.8 high, so a body near a cell's edge reaches
 * into the next cell, a body standing on a block is clear of it, and a body spans two cells in height. The square
 * rings of a nearest-first scan: each cell of the square once, ring by ring.
 */
import { describe, expect, it } from 'vitest'
import { Vec3 } from 'vec3'
import { overlapsCell, overlapsColumn, ringCells } from '../../../src/util/vec.js'

describe('player box against cells', () => {
  const cell = new Vec3(10, 5, 10)
  it('covers its own feet and head cells, not the cell it stands on or the one above its head', () => {
    const at = { x: 10.5, y: 5, z: 10.5 }
    expect(overlapsCell(at, cell)).toBe(true)
    expect(overlapsCell(at, cell.offset(0, 1, 0))).toBe(true)
    expect(overlapsCell(at, cell.offset(0, -1, 0))).toBe(false)
    expect(overlapsCell(at, cell.offset(0, 2, 0))).toBe(false)
  })
  it('reaches into the next cell from within 0.3 of its edge', () => {
    expect(overlapsCell({ x: 10.8, y: 5, z: 10.5 }, cell.offset(1, 0, 0))).toBe(true)
    expect(overlapsCell({ x: 10.7, y: 5, z: 10.5 }, cell.offset(1, 0, 0))).toBe(false)
    expect(overlapsCell({ x: 10.5, y: 5, z: 10.2 }, cell.offset(0, 0, -1))).toBe(true)
  })
  it('a jumping body above a cell is over its column but clear of it', () => {
    const up = { x: 10.5, y: 6.2, z: 10.5 }
    expect(overlapsColumn(up, cell)).toBe(true)
    expect(overlapsCell(up, cell)).toBe(false)
  })
})

describe('square rings', () => {
  it('ring 0 is the centre alone; ring r has 8r cells, all at Chebyshev distance r', () => {
    expect([...ringCells(0)]).toEqual([[0, 0]])
    for (const r of [1, 2, 5]) {
      const ring = [...ringCells(r)]
      expect(ring).toHaveLength(8 * r)
      for (const [dx, dz] of ring) expect(Math.max(Math.abs(dx), Math.abs(dz))).toBe(r)
    }
  })
  it('rings 0..r cover the (2r+1)² square once each', () => {
    const seen = new Set<string>()
    for (let r = 0; r <= 4; r++) for (const [dx, dz] of ringCells(r)) seen.add(`${dx},${dz}`)
    expect(seen.size).toBe(81)
  })
})
