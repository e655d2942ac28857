/**
 * Every supported Minecraft version against our data: the supported list matches what mineflayer and minecraft-data
 * both handle (releases ≥1.20.2) and the README's table is generated from it; every id our data files name exists in
 * every version once renamed, or is explicitly version-limited; the renames and each correction of minecraft-data
 * are still needed (the defect is still in the raw data) and still work; server versions map to supported ones.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import minecraftData from 'minecraft-data'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../../src/knowledge/data.js'
import { dataFileIds, type IdKind } from '../../../src/knowledge/data-ids.js'
import { createKnowledge } from '../../../src/knowledge/index.js'
import {
  DURABILITY_FROM,
  ENCHANT_COSTS_FROM,
  RECIPES_FROM,
  RENAMES,
  VERSION_LIMITED,
  applies,
  renamesFor,
} from '../../../src/knowledge/version-data.js'
import {
  PRACTICE_VERSIONS,
  SUPPORTED_VERSIONS,
  UNSUPPORTED_PROVEN,
  VERSIONS,
  resolveServerVersion,
  versionTableMarkdown,
} from '../../../src/versions.js'

const require = createRequire(import.meta.url)
const ids = dataFileIds()

describe('the supported versions', () => {
  it('are every release from 1.20.2 to the newest both mineflayer and minecraft-data handle', () => {
    const mineflayer = require('mineflayer/lib/version.js') as { latestSupportedVersion: string }
    expect(SUPPORTED_VERSIONS[0]).toBe('1.20.2')
    expect(SUPPORTED_VERSIONS.at(-1)).toBe(mineflayer.latestSupportedVersion)
    expect(SUPPORTED_VERSIONS).toEqual(expect.arrayContaining(['1.20.4', '1.21', '1.21.1', '1.21.4', '1.21.11']))
    for (const v of SUPPORTED_VERSIONS) {
      expect(minecraftData.supportedVersions.pc, v).toContain(v)
      expect(v, 'no snapshots or pre-releases').toMatch(/^\d+\.\d+(\.\d+)?$/)
    }
    expect(PRACTICE_VERSIONS).toEqual(expect.arrayContaining(['1.20.2', '1.21.4']))
    expect(UNSUPPORTED_PROVEN).toEqual([])
  })
  it('are listed in the README, in the table generated from src/versions.ts (npm run versions:table)', () => {
    const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8')
    const m = /<!-- versions:begin -->\n([\s\S]*?)\n<!-- versions:end -->/.exec(readme)
    expect(m, 'README.md has no <!-- versions:begin --> … <!-- versions:end --> block').not.toBeNull()
    expect(m![1]).toBe(versionTableMarkdown())
  })
  it('map what a server reports to a supported version, or say which ones are supported', () => {
    expect(resolveServerVersion('1.21.4', 769)).toEqual({ ok: true, version: '1.21.4' })
    expect(resolveServerVersion('Paper 1.21.4', 769)).toEqual({ ok: true, version: '1.21.4' })
    expect(resolveServerVersion('1.21.2', 768)).toMatchObject({ ok: true, version: '1.21.3' })
    expect(resolveServerVersion('1.21.7', 772)).toMatchObject({ ok: true, version: '1.21.8' })
    expect(resolveServerVersion('Velocity 3.3.0', 769)).toMatchObject({ ok: true, version: '1.21.4' })
    const old = resolveServerVersion('1.19.4', 762)
    expect(old.ok).toBe(false)
    if (!old.ok) expect(old.reason).toContain(`supported: ${SUPPORTED_VERSIONS.join(', ')}`)
    for (const v of VERSIONS)
      expect(resolveServerVersion(v.version, v.protocol)).toMatchObject({ ok: true, version: v.version })
  })
})

describe.each(SUPPORTED_VERSIONS)('data files against Minecraft %s', (version) => {
  const mc = minecraftData(version)
  const ren = renamesFor(mc)
  const has: Record<IdKind, (n: string) => boolean> = {
    item: (n) => !!mc.itemsByName[n],
    block: (n) => !!mc.blocksByName[n],
    entity: (n) => !!mc.entitiesByName[n],
    biome: (n) => !!mc.biomesByName[n],
    any: (n) => !!mc.itemsByName[n] || !!mc.blocksByName[n] || !!mc.entitiesByName[n],
  }
  it('name only ids this version has (once renamed), unless the entry is limited to other versions', () => {
    const missing = ids
      .filter((d) => !(d.minVersion && !mc.isNewerOrEqualTo(d.minVersion)) && applies(d.id, mc))
      .filter((d) => !has[d.kind](ren.get(d.id) ?? d.id))
      .map((d) => `${d.file} ${d.field}: ${d.kind} ${d.id}`)
    expect([...new Set(missing)]).toEqual([])
  })
  it('load into the knowledge base: a stone pickaxe plans from nothing', () => {
    expect(createKnowledge(version).decompose({ object: 'stone_pickaxe' }).ok).toBe(true)
  })
})

describe('version-limited ids and renames', () => {
  it('each VERSION_LIMITED id is missing from, or its entry wrong for, some supported version', () => {
    for (const [id, l] of Object.entries(VERSION_LIMITED)) {
      if (l.until) {
        expect(
          SUPPORTED_VERSIONS.some((v) => minecraftData(v).isNewerOrEqualTo(l.until!)),
          id,
        ).toBe(true)
        continue
      }
      expect(
        SUPPORTED_VERSIONS.some((v) => !minecraftData(v).itemsByName[id] && !minecraftData(v).blocksByName[id]),
        id,
      ).toBe(true)
      expect(
        minecraftData(l.since!).itemsByName[id] ?? minecraftData(l.since!).blocksByName[id],
        `${id} exists from ${l.since}`,
      ).toBeDefined()
    }
  })
  it('each rename is real: the old id until `since`, the new one from then on', () => {
    for (const r of RENAMES) {
      for (const v of SUPPORTED_VERSIONS) {
        const mc = minecraftData(v)
        const newer = mc.isNewerOrEqualTo(r.since)
        expect(!!mc.itemsByName[r.to] || !!mc.blocksByName[r.to], `${v} ${r.to}`).toBe(newer)
        expect(!!mc.itemsByName[r.from] || !!mc.blocksByName[r.from], `${v} ${r.from}`).toBe(!newer)
      }
    }
  })
})

describe('corrections of minecraft-data', () => {
  it('block loot: raw data still has the 1.20 table at 1.21.4; ours renames it and covers 1.21 blocks', () => {
    const raw = minecraftData('1.21.4')
    expect(raw.blockLoot.grass).toBeDefined()
    expect(raw.blockLoot.crafter).toBeUndefined()
    const mc = createKnowledge('1.21.4').data.mc
    expect(mc.blockLoot.grass).toBeUndefined()
    expect(mc.blockLoot.short_grass?.drops.map((d) => d.item)).toContain('short_grass')
    expect(mc.blockLoot.crafter?.drops.map((d) => d.item)).toEqual(['crafter'])
    expect(mc.blockLoot.trial_spawner?.drops).toEqual([])
    expect(raw.blockLoot.short_grass).toBeUndefined() // the view never changes minecraft-data itself
  })
  it('recipes: raw 1.20.5/1.20.6 sticks come from oak planks only; ours from every plank', () => {
    for (const v of Object.keys(RECIPES_FROM)) {
      const raw = minecraftData(v)
      expect(raw.recipes[raw.itemsByName.stick!.id]!.length, v).toBeLessThan(4)
      const [stick] = createKnowledge(v).recipesFor('stick')
      expect(stick?.slots[0]?.options, v).toEqual(
        expect.arrayContaining(['oak_planks', 'birch_planks', 'bamboo_planks']),
      )
      expect(createKnowledge(v).recipesFor('wolf_armor').length, `${v} keeps its own new recipes`).toBe(1)
    }
  })
  it('enchantment costs: raw ≥1.21.8 costs are all 1; ours plan Silk Touch as before', () => {
    for (const v of Object.keys(ENCHANT_COSTS_FROM)) {
      expect(minecraftData(v).enchantmentsByName.silk_touch?.minCost, v).toEqual({ a: 0, b: 1 })
      expect(createKnowledge(v).impossibleReason('iron_ore'), v).toBeNull()
    }
  })
})

describe('the item durability repair (made in place, shared with the bot and the practice server)', () => {
  const itemsFile = (v: string): Array<{ name: string; maxDurability?: number }> => {
    const paths = createRequire(import.meta.url)('minecraft-data/minecraft-data/data/dataPaths.json') as {
      pc: Record<string, { items: string }>
    }
    const dir = path.dirname(
      createRequire(import.meta.url).resolve('minecraft-data/minecraft-data/data/dataPaths.json'),
    )
    return JSON.parse(readFileSync(path.join(dir, paths.pc[v]!.items, 'items.json'), 'utf8'))
  }
  it('raw 1.20.5/1.20.6 durabilities are all 1 in the data files; ours are vanilla for the knowledge and registries', () => {
    for (const v of Object.keys(DURABILITY_FROM)) {
      // the file itself, not the loaded objects: the repair writes those, and another test may have run it already
      expect(itemsFile(v).find((i) => i.name === 'iron_pickaxe')?.maxDurability, v).toBe(1)
      createKnowledge(v)
      expect(minecraftData(v).itemsByName.iron_pickaxe?.maxDurability, v).toBe(250)
      expect(minecraftData(v).itemsByName.shears?.maxDurability, v).toBe(238)
      expect(minecraftData(v).itemsByName.stick?.maxDurability, v).toBeUndefined()
      // a diamond is dug with a spare iron pickaxe, as at 1.20.2; redstone is not (with every tool worn after one use,
      // every dig took a spare)
      const pickaxes = (object: string): number[] => {
        const d = createKnowledge(v).decompose({ object })
        return d.ok ? d.steps.filter((s) => s.goal.object === 'iron_pickaxe').map((s) => s.goal.count) : []
      }
      expect(pickaxes('diamond'), v).toEqual([2])
      expect(pickaxes('redstone'), v).toEqual([1])
    }
  })
})

describe('new in 1.21', () => {
  const k = createKnowledge('1.21.4')
  it('plans the crafter and tuff and copper blocks, and marks trial-chamber loot not craftable', () => {
    for (const item of ['crafter', 'tuff_bricks', 'chiseled_copper', 'copper_grate'])
      expect(k.decompose({ object: item }).ok, item).toBe(true)
    for (const item of ['heavy_core', 'trial_key', 'ominous_trial_key', 'flow_banner_pattern'])
      expect(k.impossibleReason(item), item).toMatch(/not obtainable by crafting/)
    expect(k.impossibleReason('mace')).toMatch(/heavy_core/)
    expect(k.impossibleReason('bundle')).toBeNull()
    expect(createKnowledge('1.20.2').impossibleReason('bundle')).toMatch(/experimental/)
  })
})
