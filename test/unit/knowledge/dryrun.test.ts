/** Dry-run world: executes sub-goals with real game data and fails with a reason on wrong tools, missing materials or bad recipes. */
import { describe, expect, it } from 'vitest'
import { SUPPORTED_VERSIONS } from '../../../src/versions.js'
import { createKnowledge, runDryRun } from '../../../src/knowledge/index.js'
import { SubGoal } from '../../../src/schemas/subgoal.js'

describe.each(SUPPORTED_VERSIONS)('Minecraft %s', (version) => {
  const k = createKnowledge(version)
  const underground = { strategy: 'underground', yMin: -64, yMax: 72, bestY: 16, biomes: [], time: null } as const

  function mineIron(tool: string | null): SubGoal {
    return SubGoal.parse({
      id: 0,
      kind: 'mine',
      estimatedSteps: 5,
      goal: { object: 'raw_iron', count: 1, tool },
      mine: { blocks: ['iron_ore'], tool, acceptableTools: ['stone_pickaxe'], blocksToDig: 1, location: underground },
    })
  }

  describe('dry-run world', () => {
    it('refuses mining with the wrong tool tier', () => {
      const r = runDryRun(
        k,
        [mineIron('wooden_pickaxe')],
        { object: 'raw_iron', count: 1 },
        { inventory: { wooden_pickaxe: 1 } },
      )
      expect(r.ok).toBe(false)
      expect(r.reason).toBe('missing_tool')
      expect(r.message).toMatch(/stone_pickaxe/)
    })
    it('mines with the right tool and yields the loot item', () => {
      const r = runDryRun(
        k,
        [mineIron('stone_pickaxe')],
        { object: 'raw_iron', count: 1 },
        { inventory: { stone_pickaxe: 1 } },
      )
      expect(r.ok).toBe(true)
      expect(r.inventory.raw_iron).toBe(1)
      expect(r.cost).toBeGreaterThan(0)
    })
    it('gives the ore block itself only to a Silk Touch tool (vanilla loot)', () => {
      const bad = SubGoal.parse({
        ...mineIron('stone_pickaxe'),
        goal: { object: 'iron_ore', count: 1, tool: 'stone_pickaxe' },
      })
      const r = runDryRun(k, [bad], { object: 'iron_ore', count: 1 }, { inventory: { stone_pickaxe: 1 } })
      expect(r.reason).toBe('missing_tool')
      expect(r.message).toMatch(/stone_pickaxe\+silk_touch/)
      const silk = runDryRun(
        k,
        [bad],
        { object: 'iron_ore', count: 1 },
        { inventory: { 'stone_pickaxe+silk_touch': 1 } },
      )
      expect(silk.ok).toBe(true)
      expect(silk.inventory.raw_iron).toBeUndefined()
    })
    it('needs a crafting table for 3x3 recipes and consumes materials', () => {
      const craft = SubGoal.parse({
        id: 0,
        kind: 'craft',
        estimatedSteps: 1,
        goal: { object: 'wooden_pickaxe', count: 1 },
        craft: { materials: { oak_planks: 3, stick: 2 }, needsTable: true, runs: 1, outputPerRun: 1 },
      })
      const goal = { object: 'wooden_pickaxe', count: 1 }
      expect(runDryRun(k, [craft], goal, { inventory: { oak_planks: 3, stick: 2 } }).reason).toBe('missing_tool')
      expect(runDryRun(k, [craft], goal, { inventory: { oak_planks: 2, stick: 2, crafting_table: 1 } }).reason).toBe(
        'missing_materials',
      )
      const ok = runDryRun(k, [craft], goal, { inventory: { oak_planks: 3, stick: 2, crafting_table: 1 } })
      expect(ok.ok).toBe(true)
      expect(ok.inventory).toEqual({ crafting_table: 1, wooden_pickaxe: 1 })
    })
    it('rejects a recipe the game does not have', () => {
      const craft = SubGoal.parse({
        id: 0,
        kind: 'craft',
        estimatedSteps: 1,
        goal: { object: 'stick', count: 4 },
        craft: { materials: { dirt: 2 }, needsTable: false, runs: 1, outputPerRun: 4 },
      })
      expect(runDryRun(k, [craft], { object: 'stick', count: 4 }, { inventory: { dirt: 2 } }).reason).toBe('invalid')
    })
    it('smelting needs a furnace and enough fuel', () => {
      const smelt = SubGoal.parse({
        id: 0,
        kind: 'smelt',
        estimatedSteps: 1,
        goal: { object: 'iron_ingot', count: 3, tool: 'furnace' },
        smelt: { input: 'raw_iron', inputCount: 3, fuel: 'oak_planks', fuelCount: 1 },
      })
      const goal = { object: 'iron_ingot', count: 3 }
      expect(runDryRun(k, [smelt], goal, { inventory: { raw_iron: 3, oak_planks: 1 } }).reason).toBe('missing_tool')
      expect(runDryRun(k, [smelt], goal, { inventory: { raw_iron: 3, oak_planks: 1, furnace: 1 } }).reason).toBe(
        'missing_materials',
      )
      const fixed = SubGoal.parse({ ...smelt, smelt: { ...(smelt.kind === 'smelt' ? smelt.smelt : {}), fuelCount: 2 } })
      expect(runDryRun(k, [fixed], goal, { inventory: { raw_iron: 3, oak_planks: 2, furnace: 1 } }).ok).toBe(true)
    })
    it('reports a goal that the steps do not reach', () => {
      const r = runDryRun(
        k,
        [mineIron('stone_pickaxe')],
        { object: 'raw_iron', count: 5 },
        { inventory: { stone_pickaxe: 1 } },
      )
      expect(r.ok).toBe(false)
      expect(r.reason).toBe('unverified')
    })
  })
})
