/**
 * Unit tests of the practice world's block loot (`rollBlockLoot`), straight from minecraft-data 1.20.2 without a
 * server: harvest tools, silk-touch alternatives, ore counts, and leaves/gravel/grass chances measured over many
 * rolls with a seeded random source (bounds are ±5 standard deviations, so a correct table never fails).
 */
import { describe, expect, it } from 'vitest'
import prismarineRegistry from 'prismarine-registry'
import { canHarvest, rollBlockLoot, type LootRegistry } from '../../../src/server/plugins/drops-loot.js'
import { mulberry32 } from '../../../src/util/random.js'

const reg = (prismarineRegistry as unknown as (v: string) => LootRegistry)('1.20.2')

const rng = mulberry32

function rate(block: string, item: string, n: number, tool: { name: string } | null = null): number {
  const r = rng(42)
  let hits = 0
  for (let i = 0; i < n; i++) if (rollBlockLoot(reg, block, tool, r).some((d) => d.name === item)) hits++
  return hits / n
}

function within(observed: number, p: number, n: number): void {
  const sd = Math.sqrt((p * (1 - p)) / n)
  expect(Math.abs(observed - p)).toBeLessThanOrEqual(5 * sd + 1e-9)
}

describe('rollBlockLoot', () => {
  it('enforces harvest tools', () => {
    expect(rollBlockLoot(reg, 'stone', null)).toEqual([])
    expect(rollBlockLoot(reg, 'iron_ore', { name: 'wooden_pickaxe' })).toEqual([])
    expect(rollBlockLoot(reg, 'stone', { name: 'wooden_pickaxe' })).toEqual([{ name: 'cobblestone', count: 1 }])
    expect(rollBlockLoot(reg, 'iron_ore', { name: 'stone_pickaxe' })).toEqual([{ name: 'raw_iron', count: 1 }])
    expect(rollBlockLoot(reg, 'deepslate_diamond_ore', { name: 'iron_pickaxe' })).toEqual([
      { name: 'diamond', count: 1 },
    ])
    expect(canHarvest(reg, 'diamond_ore', { name: 'stone_pickaxe' })).toBe(false)
  })

  it('drops the block-independent items by hand', () => {
    expect(rollBlockLoot(reg, 'grass_block', null)).toEqual([{ name: 'dirt', count: 1 }])
    expect(rollBlockLoot(reg, 'oak_log', null)).toEqual([{ name: 'oak_log', count: 1 }])
    expect(rollBlockLoot(reg, 'dirt', null)).toEqual([{ name: 'dirt', count: 1 }])
    expect(rollBlockLoot(reg, 'sand', null)).toEqual([{ name: 'sand', count: 1 }])
    expect(rollBlockLoot(reg, 'crafting_table', null)).toEqual([{ name: 'crafting_table', count: 1 }])
    expect(rollBlockLoot(reg, 'glass', null)).toEqual([])
    expect(rollBlockLoot(reg, 'air', null)).toEqual([])
  })

  it('honours silk touch alternatives', () => {
    expect(rollBlockLoot(reg, 'grass_block', { name: 'iron_shovel', silkTouch: true })).toEqual([
      { name: 'grass_block', count: 1 },
    ])
    expect(rollBlockLoot(reg, 'stone', { name: 'iron_pickaxe', silkTouch: true })).toEqual([
      { name: 'stone', count: 1 },
    ])
  })

  it('gives vanilla ore counts', () => {
    const r = rng(7)
    for (let i = 0; i < 300; i++) {
      const red = rollBlockLoot(reg, 'redstone_ore', { name: 'iron_pickaxe' }, r)
      expect(red).toHaveLength(1)
      expect(red[0]!.count).toBeGreaterThanOrEqual(4)
      expect(red[0]!.count).toBeLessThanOrEqual(5)
      const lapis = rollBlockLoot(reg, 'deepslate_lapis_ore', { name: 'stone_pickaxe' }, r)[0]!
      expect(lapis.name).toBe('lapis_lazuli')
      expect(lapis.count).toBeGreaterThanOrEqual(4)
      expect(lapis.count).toBeLessThanOrEqual(9)
      const copper = rollBlockLoot(reg, 'copper_ore', { name: 'stone_pickaxe' }, r)[0]!
      expect(copper.count).toBeGreaterThanOrEqual(2)
      expect(copper.count).toBeLessThanOrEqual(5)
      expect(rollBlockLoot(reg, 'coal_ore', { name: 'wooden_pickaxe' }, r)).toEqual([{ name: 'coal', count: 1 }])
    }
  })

  it('rolls leaves drops by their vanilla chances, never all at once', () => {
    const n = 40_000
    within(rate('oak_leaves', 'oak_sapling', n), 0.05, n)
    within(rate('oak_leaves', 'stick', n), 0.02, n)
    within(rate('oak_leaves', 'apple', n), 0.005, n)
    within(rate('jungle_leaves', 'jungle_sapling', n), 0.025, n)
    expect(rate('birch_leaves', 'apple', 2000)).toBe(0)
    expect(rate('oak_leaves', 'oak_leaves', 2000)).toBe(0)
    expect(rollBlockLoot(reg, 'spruce_leaves', { name: 'shears' })).toEqual([{ name: 'spruce_leaves', count: 1 }])
    const r = rng(3)
    let empty = 0
    for (let i = 0; i < 1000; i++) if (rollBlockLoot(reg, 'oak_leaves', null, r).length === 0) empty++
    within(empty / 1000, 0.95 * 0.98 * 0.995, 1000)
  })

  it('rolls gravel flint and grass seeds by their vanilla chances', () => {
    const n = 20_000
    within(rate('gravel', 'flint', n), 0.1, n)
    within(rate('gravel', 'gravel', n), 0.9, n)
    within(rate('grass', 'wheat_seeds', n), 0.125, n)
    expect(rate('grass', 'grass', 1000)).toBe(0)
  })
})
