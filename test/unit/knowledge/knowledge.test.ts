/** Knowledge base lookups, for every supported version: names with did-you-mean, recipe groups with variants, smelting/fuels, harvest tools, loot, impossible items. */
import { describe, expect, it } from 'vitest'
import { SUPPORTED_VERSIONS } from '../../../src/versions.js'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { createKnowledge } from '../../../src/knowledge/index.js'
import { REPO_ROOT } from '../../../src/knowledge/data.js'
import { idIn } from '../../../src/knowledge/version-data.js'
import { Goal } from '../../../src/schemas/goal.js'

describe.each(SUPPORTED_VERSIONS)('Minecraft %s', (version) => {
  const k = createKnowledge(version)

  describe('names', () => {
    it('resolves ids, display names and suggests close names', () => {
      expect(k.resolveName('iron_ingot')).toEqual({ ok: true, name: 'iron_ingot', kind: 'item' })
      expect(k.resolveName('Iron Ingot')).toEqual({ ok: true, name: 'iron_ingot', kind: 'item' })
      expect(k.resolveName('minecraft:cow')).toEqual({ ok: true, name: 'cow', kind: 'entity' })
      const r = k.resolveName('iron ingto')
      expect(r.ok).toBe(false)
      if (!r.ok) expect(r.suggestions).toContain('iron_ingot')
    })
    it('rejects an unknown goal object with suggestions instead of throwing', () => {
      const d = k.decompose({ object: 'diamnod_pickaxe' })
      expect(d.ok).toBe(false)
      if (!d.ok) expect(d.reason).toMatch(/did you mean.*diamond_pickaxe/)
    })
  })

  describe('recipes', () => {
    it('groups wood variants into one recipe with "any planks" slots', () => {
      const [stick] = k.recipesFor('stick')
      expect(stick?.count).toBe(4)
      expect(stick?.needsTable).toBe(false)
      expect(stick?.slots).toHaveLength(1)
      expect(stick?.slots[0]?.count).toBe(2)
      expect(stick?.slots[0]?.options).toEqual(expect.arrayContaining(['oak_planks', 'birch_planks', 'spruce_planks']))
      expect(stick?.variants.length).toBeGreaterThan(8)
    })
    it('merges coal and charcoal for torches and keeps result counts', () => {
      const [torch] = k.recipesFor('torch')
      expect(torch?.count).toBe(4)
      expect(torch?.slots.find((s) => s.options.includes('coal'))?.options.sort()).toEqual(['charcoal', 'coal'])
    })
    it('knows which recipes need a crafting table', () => {
      expect(k.recipesFor('crafting_table')[0]?.needsTable).toBe(false)
      expect(k.recipesFor('iron_pickaxe')[0]?.needsTable).toBe(true)
      expect(k.recipesFor('oak_planks')[0]?.count).toBe(4)
    })
  })

  describe('smelting and fuels', () => {
    it('has furnace recipes minecraft-data lacks, version-aware', () => {
      expect(k.smeltResult('raw_iron')).toBe('iron_ingot')
      expect(k.smeltResult('sand')).toBe('glass')
      expect(k.smeltResult('oak_log')).toBe('charcoal')
      expect(k.smeltResult('cactus')).toBe('green_dye')
      expect(k.smeltingFor('brick')[0]?.inputs).toEqual(['clay_ball'])
      expect(k.burnItems('coal')).toBe(8)
      expect(k.burnItems('oak_planks')).toBe(1.5)
      expect(k.burnItems('stick')).toBe(0.5)
      expect(k.burnItems('dirt')).toBeNull()
    })
  })

  describe('blocks, tools and mobs', () => {
    it('uses harvestTools for the minimum tier', () => {
      expect(k.minimumTool('iron_ore')).toBe('stone_pickaxe')
      expect(k.minimumTool('diamond_ore')).toBe('iron_pickaxe')
      expect(k.minimumTool('obsidian')).toBe('diamond_pickaxe')
      expect(k.minimumTool('oak_log')).toBeNull()
      expect(k.canHarvest('iron_ore', 'wooden_pickaxe')).toBe(false)
      expect(k.canHarvest('iron_ore', 'iron_pickaxe')).toBe(true)
      expect(k.canHarvest('stone', null)).toBe(false)
      expect(k.canHarvest('dirt', null)).toBe(true)
    })
    it('knows iron ore drops raw iron and where it is', () => {
      expect(Object.keys(k.dropsOf('iron_ore'))).toEqual(['raw_iron'])
      const [w] = k.whereFound('raw_iron')
      expect(w?.from).toBe('iron_ore')
      expect(w?.location?.strategy).toBe('underground')
      expect(w?.location?.bestY).toBe(16)
      // the level to dig down to: the best level (-59) kept above the lava-filled caves (-55 and below)
      expect(k.whereFound('diamond')[0]?.location?.bestY).toBe(k.data.world.lavaLevel + 2)
      const diamond = k.decompose(Goal.parse({ object: 'diamond', count: 1 }), {})
      const dig = diamond.ok ? diamond.steps.find((s) => s.kind === 'mine' && s.goal.object === 'diamond') : null
      expect(dig?.kind === 'mine' && dig.mine.location.bestY).toBe(-53)
    })
    it('knows which mob to hunt', () => {
      expect(k.mobsFor('leather')[0]?.mob).toBe('cow')
      expect(k.mobsFor('gunpowder')[0]?.mob).toBe('creeper')
      expect(k.mobsFor('ink_sac')[0]?.mob).toBe('squid')
    })
    it('knows where mobs live, where blocks lie and what food is', () => {
      expect(k.biomesOf('cow')).toContain('plains')
      expect(k.biomesOf('cow')).not.toContain('desert')
      expect(k.biomesOf('rabbit')).toContain('desert')
      expect(k.biomesOf('zombie')).toBeNull() // everywhere at night
      expect(k.biomesOf('sand')).toContain('desert')
      expect(k.biomesOf('stone')).toBeNull()
      expect(k.foodPoints('bread')).toBe(5)
      expect(k.foodPoints('dirt')).toBe(0)
      expect(k.foods()).toEqual(expect.arrayContaining(['beef', 'porkchop', 'cooked_beef', 'apple']))
    })
    it('has info text from data, or generated', () => {
      expect(k.infoFor('diamond')).toMatch(/-59/)
      expect(k.infoFor('stone_bricks')).toMatch(/Craft/)
    })
  })

  describe('impossible items', () => {
    it('says why, for listed, patterned and derived items', () => {
      expect(k.impossibleReason('blaze_rod')).toMatch(/Nether/)
      expect(k.impossibleReason('pig_spawn_egg')).toMatch(/creative/)
      expect(k.impossibleReason('warped_planks')).toMatch(/Nether/)
      expect(k.impossibleReason('elytra')).toMatch(/End/)
      expect(k.impossibleReason('iron_ore')).toBeNull() // Silk Touch, planned through an enchanting table
      expect(k.impossibleReason('turtle_egg')).toMatch(/breeding/)
      expect(k.impossibleReason('diamond')).toBeNull()
      expect(k.impossibleReason('ender_pearl')).toBeNull()
      const d = k.decompose({ object: 'brewing_stand' })
      expect(d.ok).toBe(false)
      if (!d.ok) expect(d.reason).toMatch(/blaze rod/)
    })
    it('explains items that are only reachable through impossible ones', () => {
      const d = k.decompose({ object: 'ender_eye' })
      expect(d.ok).toBe(false)
      if (!d.ok) expect(d.reason).toMatch(/blaze/)
    })
  })

  describe('data files, as loaded for this version', () => {
    it('every GITM alias names an item of this version once renamed (the full check per data file: data-files.test.ts)', () => {
      const file = JSON.parse(readFileSync(path.join(REPO_ROOT, 'data/aliases/gitm-1.11.json'), 'utf8')) as {
        aliases: Record<string, string | { item: string }>
      }
      for (const a of Object.values(file.aliases))
        expect(
          idIn(typeof a === 'string' ? a : a.item, (n) => k.isItem(n)),
          JSON.stringify(a),
        ).toBeDefined()
    })
    it('every loaded smelting output, world block and mob exists in this version', () => {
      for (const r of k.data.smelting) expect(k.isItem(r.output), r.output).toBe(true)
      for (const b of Object.keys(k.data.world.blocks)) expect(k.isBlock(b), b).toBe(true)
      for (const m of Object.keys(k.data.world.mobs)) expect(k.isEntity(m), m).toBe(true)
    })
  })
})

describe('versions', () => {
  it('rejects unknown versions with a clear error', () => {
    expect(() => createKnowledge('0.0.1')).toThrow(/unknown Minecraft version/)
  })
})
