/** Sharing a smelt among furnaces: the shares, each furnace's own fuel, and when more furnaces pay. */
import { describe, expect, it } from 'vitest'
import { furnacesWorth, shares, sharedFuel } from '../../../src/knowledge/furnaces.js'

describe('furnaces', () => {
  it('shares items as evenly as can be, never more furnaces than items', () => {
    expect(shares(3, 3)).toEqual([1, 1, 1])
    expect(shares(7, 3)).toEqual([3, 2, 2])
    expect(shares(2, 4)).toEqual([1, 1])
    expect(shares(5, 1)).toEqual([5])
  })
  it('burns fuel per furnace: a coal each for 3 items in 3, planks per 1.5 items', () => {
    expect(sharedFuel(8, 3, 1)).toBe(1)
    expect(sharedFuel(8, 3, 3)).toBe(3)
    expect(sharedFuel(1.5, 3, 1)).toBe(2)
    expect(sharedFuel(1.5, 3, 3)).toBe(3)
    expect(sharedFuel(8, 16, 4)).toBe(4)
  })
  it('pays when the time saved beats placing, digging back and crafting them', () => {
    expect(furnacesWorth(3, 3, 2)).toBeGreaterThan(0)
    expect(furnacesWorth(3, 3, 2)).toBeGreaterThan(furnacesWorth(3, 2, 1))
    expect(furnacesWorth(2, 2, 1)).toBeLessThanOrEqual(0)
    expect(furnacesWorth(1, 4, 3)).toBeLessThanOrEqual(0)
    // a second furnace made in the craft that makes the first costs no trip to a table of its own
    expect(furnacesWorth(3, 2, 1)).toBeLessThanOrEqual(0)
    expect(furnacesWorth(3, 2, 1, true)).toBeGreaterThan(0)
  })
})
