/**
 * The plan critic against the real 1.20.2 game data: names with "did you mean", harvest tools, materials, fuel and
 * stations simulated along the plan, blueprints, the schema, and a good plan that passes untouched.
 */
import { describe, expect, it } from 'vitest'
import { critiquePlan } from '../../../src/agent/critic.js'
import { createKnowledge } from '../../../src/knowledge/index.js'
import type { Action } from '../../../src/schemas/action.js'

const kb = createKnowledge('1.20.2')
const opts = { blueprints: ['farm_plot', 'pillar', 'shelter'] }
const critique = (actions: Action[], inv: Record<string, number> = {}): ReturnType<typeof critiquePlan> =>
  critiquePlan(kb, { explanation: '', thoughts: '', actions }, inv, opts)

describe('critic', () => {
  it('passes a good plan: a stone pickaxe from nothing, in order', () => {
    const c = critique([
      { type: 'explore', object: 'oak_log', strategy: 'surface' },
      { type: 'mine', object: 'oak_log', tool: null, count: 3 },
      { type: 'craft', object: 'oak_planks', count: 12, materials: { oak_log: 3 }, tool: null },
      { type: 'craft', object: 'crafting_table', count: 1, materials: { oak_planks: 4 }, tool: null },
      { type: 'craft', object: 'stick', count: 4, materials: { oak_planks: 2 }, tool: null },
      {
        type: 'craft',
        object: 'wooden_pickaxe',
        count: 1,
        materials: { oak_planks: 3, stick: 2 },
        tool: 'crafting_table',
      },
      { type: 'explore', object: 'stone', strategy: 'surface' },
      { type: 'mine', object: 'stone', tool: 'wooden_pickaxe', count: 3 },
      {
        type: 'craft',
        object: 'stone_pickaxe',
        count: 1,
        materials: { cobblestone: 3, stick: 2 },
        tool: 'crafting_table',
      },
      { type: 'equip', object: 'stone_pickaxe' },
    ])
    expect(c).toEqual({ ok: true, problems: [] })
  })

  it('says "did you mean" for wrong names', () => {
    expect(critique([{ type: 'mine', object: 'magma', tool: null, count: 1 }]).problems).toEqual([
      'Step 1 (mine): "magma" is not a block in Minecraft 1.20.2. Did you mean "magma_cube" or "magma_block" or "magma_cream"?',
    ])
    const smelt = critique([{ type: 'smelt', object: 'iron', count: 1, materials: { raw_iron: 1 }, fuel: 'coal' }], {
      raw_iron: 1,
      coal: 1,
      furnace: 1,
    })
    expect(smelt.problems[0]).toMatch(
      /^Step 1 \(smelt\): "iron" is not an item in Minecraft 1\.20\.2\. Did you mean "iron_ingot"/,
    )
    expect(critique([{ type: 'equip', object: 'Stone Pickaxe' }], { stone_pickaxe: 1 }).problems).toEqual([
      'Step 1 (equip): Use the game name "stone_pickaxe" instead of "Stone Pickaxe".',
    ])
    expect(critique([{ type: 'attack', object: 'oak_log', tool: null }]).problems).toEqual([
      'Step 1 (attack): "oak_log" is not an entity; attack needs a mob name.',
    ])
  })

  it('notes that lava is a fluid', () => {
    expect(critique([{ type: 'mine', object: 'lava', tool: null, count: 1 }]).problems).toEqual([
      'Step 1 (mine): lava is a fluid and cannot be mined; use apply with a bucket on it.',
    ])
  })

  it('rejects a tool that cannot harvest the block, and mining stone by hand', () => {
    expect(
      critique([{ type: 'mine', object: 'iron_ore', tool: 'wooden_pickaxe', count: 1 }], { wooden_pickaxe: 1 })
        .problems,
    ).toEqual(['Step 1 (mine): wooden_pickaxe cannot harvest iron_ore; use stone_pickaxe or iron_pickaxe.'])
    expect(critique([{ type: 'mine', object: 'cobblestone', tool: null, count: 3 }]).problems[0]).toBe(
      'Step 1 (mine): a bare hand cannot harvest cobblestone; use wooden_pickaxe or stone_pickaxe.',
    )
  })

  it('needs the tool in the inventory (or made earlier in the plan)', () => {
    expect(critique([{ type: 'mine', object: 'stone', tool: 'wooden_pickaxe', count: 1 }]).problems).toEqual([
      'Step 1 (mine): I need a wooden_pickaxe to mine stone but have none.',
    ])
  })

  it('tracks materials along the plan: consumed by one step, missing for the next', () => {
    const c = critique(
      [
        { type: 'craft', object: 'oak_planks', count: 4, materials: { oak_log: 1 }, tool: null },
        { type: 'craft', object: 'crafting_table', count: 1, materials: { oak_planks: 4 }, tool: null },
        { type: 'craft', object: 'stick', count: 4, materials: { oak_planks: 2 }, tool: null },
      ],
      { oak_log: 1 },
    )
    expect(c.problems).toEqual(['Step 3 (craft): To craft stick I still need 2 oak_planks.'])
  })

  it('needs a crafting table for table recipes and a furnace plus enough fuel for smelting', () => {
    expect(
      critique(
        [
          {
            type: 'craft',
            object: 'wooden_pickaxe',
            count: 1,
            materials: { oak_planks: 3, stick: 2 },
            tool: 'crafting_table',
          },
        ],
        { oak_planks: 3, stick: 2 },
      ).problems,
    ).toEqual([
      'Step 1 (craft): I need a crafting_table to craft wooden_pickaxe: none in my inventory or within 6 blocks.',
    ])
    const smelt: Action = {
      type: 'smelt',
      object: 'iron_ingot',
      count: 3,
      materials: { raw_iron: 3 },
      fuel: 'oak_planks',
    }
    expect(critique([smelt], { raw_iron: 3, oak_planks: 2 }).problems).toEqual([
      'Step 1 (smelt): I need a furnace to smelt iron_ingot: none in my inventory or within 6 blocks.',
    ])
    expect(critique([smelt], { raw_iron: 3, oak_planks: 1, furnace: 1 }).problems).toEqual([
      'Step 1 (smelt): To smelt 3 iron_ingot I still need 1 oak_planks.',
    ])
    expect(critique([smelt], { raw_iron: 3, oak_planks: 2, furnace: 1 }).ok).toBe(true)
    expect(critique([{ ...smelt, fuel: 'dirt' }], { raw_iron: 3, dirt: 9, furnace: 1 }).problems[0]).toBe(
      'Step 1 (smelt): dirt is not a furnace fuel.',
    )
  })

  it('rejects items without a recipe and unknown blueprints', () => {
    expect(
      critique([{ type: 'craft', object: 'diamond', count: 1, materials: { diamond_block: 1 }, tool: null }], {
        diamond_block: 1,
      }).ok,
    ).toBe(true)
    expect(critique([{ type: 'craft', object: 'oak_log', count: 1, materials: {}, tool: null }]).problems).toEqual([
      'Step 1 (craft): oak_log has no crafting recipe.',
    ])
    expect(critique([{ type: 'build', blueprint: 'castle' }]).problems).toEqual([
      'Step 1 (build): no blueprint "castle"; shipped: farm_plot, pillar, shelter.',
    ])
  })

  it('does not flag needs that unpredictable mob drops may cover', () => {
    const c = critique(
      [
        { type: 'explore', object: 'cow', strategy: 'surface' },
        { type: 'attack', object: 'cow', tool: null },
        { type: 'attack', object: 'cow', tool: null },
        { type: 'craft', object: 'book', count: 1, materials: { paper: 3, leather: 1 }, tool: null },
      ],
      { paper: 3 },
    )
    expect(c.ok).toBe(true)
  })

  it('reports a plan that does not match the schema', () => {
    const c = critiquePlan(kb, { explanation: '', thoughts: '', actions: [{ type: 'fly', object: 'moon' }] }, {}, opts)
    expect(c.ok).toBe(false)
    expect(c.problems[0]).toMatch(/^The plan does not match the schema/)
  })
})

describe('critic: effects of placing, using and picking up', () => {
  it('a station placed earlier in the plan serves later steps', () => {
    const c = critique(
      [
        { type: 'place', object: 'crafting_table' },
        {
          type: 'craft',
          object: 'wooden_pickaxe',
          count: 1,
          materials: { oak_planks: 3, stick: 2 },
          tool: 'crafting_table',
        },
        { type: 'place', object: 'furnace' },
        { type: 'smelt', object: 'iron_ingot', count: 1, materials: { raw_iron: 1 }, fuel: 'coal' },
      ],
      { crafting_table: 1, furnace: 1, oak_planks: 3, stick: 2, raw_iron: 1, coal: 1 },
    )
    expect(c).toEqual({ ok: true, problems: [] })
  })

  it('items from apply and pick-ups are there for later steps', () => {
    const c = critique(
      [
        { type: 'explore', object: 'water', strategy: 'surface' },
        { type: 'apply', object: 'water', tool: 'bucket' },
        { type: 'apply', object: 'white_concrete_powder', tool: 'water_bucket' },
        { type: 'explore', object: 'chicken', strategy: 'surface' },
        { type: 'approach', object: 'chicken' },
        { type: 'equip', object: 'egg' },
      ],
      { bucket: 1, white_concrete_powder: 1, wooden_pickaxe: 1 },
    )
    expect(c).toEqual({ ok: true, problems: [] })
  })
})
