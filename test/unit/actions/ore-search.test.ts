/**
 * Unit tests of the ore search's level choice (src/actions/ore-search.ts) from the real knowledge
 * (data/knowledge/world.json): the y-band is merged over an ore and its deepslate variant, the level is the best
 * level kept under the surface and above bedrock, an ore whose best level lies among the lava-filled caves (diamond
 * at -59) is searched just above them, and an ore whose best level lies above the land (coal at 96) is searched just
 * under the surface instead of in the air. The practice world's lava level is the knowledge's.
 */
import { describe, expect, it } from 'vitest'
import { COVER, bandOf, searchLevel } from '../../../src/actions/ore-search.js'
import { createKnowledge } from '../../../src/knowledge/index.js'
import { LAVA_LEVEL } from '../../../src/server/worldgen/terrain.js'

const world = createKnowledge('1.20.2').data.world
const MIN_Y = -64

function band(block: string) {
  const b = bandOf(world, [block])
  if (!b) throw new Error(`no band for ${block}`)
  return b
}

describe('the y-band from the knowledge', () => {
  it('merges an ore with its deepslate variant, whichever is named', () => {
    for (const name of ['diamond_ore', 'deepslate_diamond_ore']) {
      const b = band(name)
      expect(b.variants).toEqual(expect.arrayContaining(['diamond_ore', 'deepslate_diamond_ore']))
      expect(b.band.bestY).toBe(world.blocks.diamond_ore!.bestY)
      expect(b.band.yMin).toBe(world.blocks.diamond_ore!.yMin)
    }
  })

  it('has no band for a block the knowledge places nowhere', () => {
    expect(bandOf(world, ['bedrock'])).toBeNull()
  })
})

describe('the level to branch-mine at', () => {
  it('is the best level of iron, below the surface and above bedrock', () => {
    expect(searchLevel(band('iron_ore').band, 71, MIN_Y)).toBe(world.blocks.iron_ore!.bestY)
  })

  it('keeps the corridor floor above the lava-filled caves when the best level lies among them', () => {
    expect(world.blocks.diamond_ore!.bestY).toBeLessThan(world.lavaLevel)
    const diamond = searchLevel(band('diamond_ore').band, 71, MIN_Y)
    expect(diamond - 1).toBeGreaterThan(world.lavaLevel) // the floor under the corridor
    expect(diamond).toBe(world.lavaLevel + 2)
    // without a lava level, the best level itself
    expect(searchLevel({ ...band('diamond_ore').band, lavaLevel: null }, 71, MIN_Y)).toBe(
      world.blocks.diamond_ore!.bestY,
    )
    // a band that ends below the lava level stays in it
    expect(searchLevel({ yMin: -64, yMax: -58, bestY: -60, lavaLevel: world.lavaLevel }, 71, MIN_Y)).toBe(-59)
  })

  it('the practice world fills its caves with lava at the level the knowledge gives', () => {
    expect(LAVA_LEVEL).toBe(world.lavaLevel)
  })

  it('searches coal (best at 96, above most land) just under the surface, not in the air', () => {
    for (const surface of [64, 71, 90]) {
      const y = searchLevel(band('coal_ore').band, surface, MIN_Y)
      expect(y).toBe(surface - COVER)
      expect(y).toBeGreaterThanOrEqual(world.blocks.coal_ore!.yMin!)
    }
    // in mountains above the best level, the best level itself
    expect(searchLevel(band('coal_ore').band, 140, MIN_Y)).toBe(world.blocks.coal_ore!.bestY)
  })

  it('stays inside the band when the surface is low', () => {
    const iron = band('iron_ore').band
    expect(searchLevel(iron, 20, MIN_Y)).toBe(20 - COVER)
    expect(searchLevel({ yMin: null, yMax: null, bestY: null }, 70, MIN_Y)).toBe(70 - COVER)
  })
})
