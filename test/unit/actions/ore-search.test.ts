/**
 * Unit tests of the ore search's level choice (src/actions/ore-search.ts, its rows' geometry in ore-rows.ts) from the real knowledge
 * (data/knowledge/world.json): the y-band is merged over an ore and its deepslate variant, the level is the best
 * level kept under the surface and above bedrock, an ore whose best level lies among the lava-filled caves (diamond
 * at -59) is searched just above them, and an ore whose best level lies above the land (coal at 96) is searched just
 * under the surface instead of in the air. The practice world's lava level is the knowledge's. And the turn of a
 * blocked search: it heads for the rock it has not dug near, and runs its rows to the fresher side. And what it does
 * when its way down stops short of the level.
 */
import { describe, expect, it } from 'vitest'
import { afterDescent } from '../../../src/actions/ore-descent.js'
import { COVER, searchLevel } from '../../../src/actions/ore-search.js'
import { bandOf } from '../../../src/actions/ore-band.js'
import {
  POKE_DEPTH,
  ROW,
  SPACING,
  STALE_ROW,
  dugAhead,
  freshRow,
  staleAhead,
  turnToFresh,
} from '../../../src/actions/ore-rows.js'
import { Vec3 } from 'vec3'
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

describe('the turn of a blocked search', () => {
  const dirs = [new Vec3(1, 0, 0), new Vec3(0, 0, 1), new Vec3(-1, 0, 0), new Vec3(0, 0, -1)]
  const at = new Vec3(0, 16, 0)
  // rows already dug to the east of the bot: a row along z at x = 2 and one at x = 12, joined along z = -6
  const dug = new Set<string>()
  for (let z = -6; z <= 6; z++) for (const x of [2, 12]) dug.add(new Vec3(x, 16, z).toString())
  for (let x = 2; x <= 12; x++) dug.add(new Vec3(x, 16, -6).toString())

  it('counts the dug cells in the strip ahead, as wide as the pokes reach', () => {
    expect(dugAhead(dug, at, dirs[0]!)).toBeGreaterThan(0)
    expect(dugAhead(dug, at, dirs[2]!)).toBe(0)
    // a cell just beyond the pokes' reach to the side does not count; one within it does
    expect(dugAhead(new Set([new Vec3(3, 16, POKE_DEPTH + 2).toString()]), at, dirs[0]!)).toBe(0)
    expect(dugAhead(new Set([new Vec3(3, 16, POKE_DEPTH + 1).toString()]), at, dirs[0]!)).toBe(1)
    expect(dugAhead(new Set([new Vec3(ROW + 1, 16, 0).toString()]), at, dirs[0]!)).toBe(0)
  })

  it('heads away from its own rows whatever the rote order says, and runs its rows to the fresh side', () => {
    // east (+x) comes first in the order given, but leads onto the dug rows
    const t = turnToFresh(dug, at, dirs, [0, 3, 2])
    expect(t.d % 4).toBe(2) // west: no dug rock that way
    // from z = 4: +z passes the rows' ends onto fresh rock, -z runs along the row at x = 2
    const south = turnToFresh(dug, new Vec3(0, 16, 4), dirs, [3, 1])
    expect(south.d % 4).toBe(1)
    expect(south.rowDir.x).toBe(-1) // its rows go west, away from the rows at x = 2 and 12
  })

  it('keeps the first choice on a tie (fresh rock every way)', () => {
    expect(turnToFresh(new Set(), at, dirs, [3, 1, 0]).d).toBe(3)
  })
})

describe('a row beside old rows', () => {
  const dirs = [new Vec3(1, 0, 0), new Vec3(0, 0, 1), new Vec3(-1, 0, 0), new Vec3(0, 0, -1)]
  // a row dug along x at z = 9 from x = 5 to 17, then the leg along -z cut short at z = 5 (bench d15 seed 7)
  const dug = new Set<string>()
  for (let x = 5; x <= 17; x++) dug.add(new Vec3(x, -53, 9).toString())
  for (let z = 5; z <= 8; z++) dug.add(new Vec3(17, -53, z).toString())
  const at = new Vec3(17, -53, 5)

  it('counts the cells of a row that would run beside old rock: all of them alongside a row, one across it', () => {
    expect(staleAhead(dug, at, dirs[2]!)).toBe(ROW) // west, 4 blocks beside the row at z = 9
    expect(staleAhead(dug, at, dirs[2]!)).toBeGreaterThan(STALE_ROW)
    expect(staleAhead(dug, at, dirs[0]!)).toBe(0) // east: fresh rock
    // a row crossing an old one at right angles looks at old rock for one cell only
    const across = new Set<string>()
    for (let z = -6; z <= 6; z++) across.add(new Vec3(4, 16, z).toString())
    expect(staleAhead(across, new Vec3(0, 16, 0), dirs[0]!)).toBe(1)
  })

  it('turns the row to fresh rock, with the heading away from the old rows', () => {
    const t = freshRow(dug, at, dirs)
    expect(staleAhead(dug, at, t.rowDir)).toBe(0)
    expect(t.d % 4).toBe(3) // the heading runs on to -z, away from the row at z = 9
  })

  it('leaves the serpentine alone: the next row, SPACING blocks from the last, looks at fresh rock', () => {
    const serp = new Set<string>()
    for (let x = 1; x <= ROW; x++) serp.add(new Vec3(x, 16, 0).toString())
    for (let z = 1; z <= SPACING; z++) serp.add(new Vec3(ROW, 16, z).toString())
    expect(staleAhead(serp, new Vec3(ROW, 16, SPACING), dirs[2]!)).toBe(0)
  })
})

describe('a way down that stops short of the level', () => {
  const tries = (shaftMoves: number, descents: number) => ({ shaftMoves, descents })
  it('goes on down after some progress instead of digging rows up there (bench d41 seed 5, rows at y -10)', () => {
    expect(afterDescent(-8, -10, -53, tries(0, 0))).toBe('descend')
    expect(afterDescent(-8, -10, -53, tries(3, 3))).toBe('descend')
  })
  it('digs a row between tries when each try gains only a little, so it cannot spend the search going down', () => {
    expect(afterDescent(-10, -11, -53, tries(0, 4))).toBe('row first')
  })
  it('moves its shaft when it got no lower, a few times, then searches where it stands', () => {
    expect(afterDescent(-9, -9, -53, tries(0, 0))).toBe('move shaft')
    expect(afterDescent(-9, -9, -53, tries(2, 4))).toBe('move shaft')
    expect(afterDescent(-9, -9, -53, tries(3, 0))).toBe('search here')
  })
  it('searches once within reach of the level', () => {
    expect(afterDescent(-9, -51, -53, tries(0, 0))).toBe('on level')
    expect(afterDescent(-50, -51, -53, tries(3, 4))).toBe('on level')
  })
})
