/**
 * Fitting a blueprint to uneven ground (src/actions/site.ts) on a small in-memory world: a flat, clear spot needs no
 * work; a hillock or a tree inside the box is dug and a dip under the footprint filled; when the asked spot is worse
 * than one a few blocks away, the nearer level spot is chosen; lava, a protected area or a player standing there
 * rule a spot out. The real build runs against the server in test/integration/skills-build and skills-shelter.
 */
import type { Bot } from 'mineflayer'
import { Vec3 } from 'vec3'
import { describe, expect, it } from 'vitest'
import { loadBlueprint } from '../../../src/actions/build.js'
import { fitSite, siteWork, spotOf, type Site } from '../../../src/actions/site.js'

const HARDNESS: Record<string, number> = { grass_block: 0.6, dirt: 0.5, stone: 1.5, oak_log: 2, lava: 100 }

/** A world of ground at y 63 (grass over stone), with changes, seen through the bits of a Bot site.ts reads. */
function world(changes: Record<string, string> = {}, players: Vec3[] = []): Bot {
  const nameAt = (p: Vec3): string => changes[`${p.x} ${p.y} ${p.z}`] ?? (p.y < 63 ? 'stone' : 'air')
  const blockAt = (p: Vec3) => {
    const name = nameAt(p.floored())
    const solid = name !== 'air' && name !== 'lava' && name !== 'short_grass'
    return { name, position: p.floored(), boundingBox: solid ? 'block' : 'empty', hardness: HARDNESS[name] ?? 0 }
  }
  const entries = players.map((position, i) => [`P${i}`, { username: `P${i}`, entity: { position } }])
  return { username: 'Ghost', players: Object.fromEntries(entries), blockAt } as unknown as Bot
}

const shelter = loadBlueprint('shelter')!
const asked: Site = { origin: new Vec3(0, 63, 0), fx: 0, fz: 1 }

describe('fitting a blueprint to the ground', () => {
  it('needs no work on flat, clear ground', () => {
    expect(siteWork(world(), shelter, asked, [])).toEqual({ dig: [], fill: [] })
    expect(fitSite(world(), shelter, asked, [])).toMatchObject({ moved: 0, site: asked })
  })

  it('digs what stands in the box (top first) and fills a dip under the footprint', () => {
    const w = world({ '0 63 2': 'dirt', '0 64 2': 'oak_log', '1 62 3': 'air', '-1 63 1': 'short_grass' })
    const work = siteWork(w, shelter, asked, [])!
    expect(work.dig.map(String)).toEqual(['(0, 64, 2)', '(0, 63, 2)', '(-1, 63, 1)'])
    expect(work.fill.map(String)).toEqual(['(1, 62, 3)'])
  })

  it('moves to nearby level ground rather than dig into a hill, and never onto lava, a player or a protected box', () => {
    const hill: Record<string, string> = {}
    for (let x = -2; x <= 0; x++)
      for (let z = 0; z <= 4; z++) for (let y = 63; y <= 65; y++) hill[`${x} ${y} ${z}`] = 'stone'
    const fit = fitSite(world(hill), shelter, asked, [])!
    expect(fit.moved).toBeGreaterThan(0)
    expect(siteWork(world(hill), shelter, fit.site, [])).toEqual({ dig: [], fill: [] })
    const cells = shelter.blocks.map((b) => spotOf(asked, b))
    expect(siteWork(world({ '0 62 2': 'lava' }), shelter, asked, [])).toBeNull()
    expect(siteWork(world({}, [new Vec3(0.5, 63, 2.5)]), shelter, asked, [])).toBeNull()
    const box = { x1: cells[0]!.x, y1: 63, z1: cells[0]!.z, x2: cells[0]!.x, y2: 63, z2: cells[0]!.z }
    expect(siteWork(world(), shelter, asked, [box])).toBeNull()
  })
})
