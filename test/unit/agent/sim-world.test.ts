/**
 * The sim world (src/agent/sim-world.ts) on its own: visibility through explore/approach, mining with harvest tools
 * and real drops, attacks with deterministic drops, crafting against real recipe variants, smelting with fuel,
 * the other actions, the injected faults, lies and `/clear`s, and the Senses answers.
 */
import { describe, expect, it } from 'vitest'
import { createSimWorld, type SimWorld, type SimWorldOptions } from '../../helpers/sim-world.js'
import { createKnowledge } from '../../../src/knowledge/index.js'
import { ActionResult, type Action } from '../../../src/schemas/action.js'

const kb = createKnowledge('1.20.2')
const signal = new AbortController().signal
const world = (opts: SimWorldOptions = {}): SimWorld => createSimWorld(kb, opts)
async function act(w: SimWorld, ...actions: Action[]): Promise<ActionResult> {
  let last: ActionResult | null = null
  for (const a of actions) {
    last = ActionResult.parse(await w.execute(a, signal))
    if (!last.ok) return last
  }
  return last!
}
const explore = (object: string, strategy: 'surface' | 'underground' = 'surface'): Action => ({
  type: 'explore',
  object,
  strategy,
})

describe('sim world: Hands', () => {
  it('explore makes things visible; approach and mine need them visible', async () => {
    const w = world()
    expect(await act(w, { type: 'approach', object: 'oak_log' })).toMatchObject({
      ok: false,
      reason: 'not_found',
      message: "I can't see any oak_log from here; I should explore for it first.",
    })
    expect(await act(w, explore('oak_log'))).toMatchObject({ ok: true })
    const d = w.nearestVisible('oak_log')!
    expect(d).toBeGreaterThan(0)
    expect(d).toBeLessThanOrEqual(32)
    await act(w, { type: 'approach', object: 'oak_log' })
    expect(w.nearestVisible('oak_log')).toBeLessThanOrEqual(3)
    expect(await act(w, explore('unobtainium'))).toMatchObject({
      ok: false,
      reason: 'not_found',
      message: "I don't know anything called unobtainium.",
    })
    expect((await act(world({ absent: ['oak_log'] }), explore('oak_log'))).reason).toBe('not_found')
  })

  it('underground blocks need an underground search at the right depth; dig_down and go_up move the bot', async () => {
    const w = world({ inventory: { iron_pickaxe: 1 } })
    expect((await act(w, explore('iron_ore'))).message).toBe(
      'iron_ore is found underground; I should explore underground for it.',
    )
    expect((await act(w, explore('diamond_ore', 'underground'))).message).toMatch(/no diamond_ore at y=64/)
    expect(
      await act(w, { type: 'dig_down', ylevel: -58, tool: 'iron_pickaxe' }, explore('diamond_ore', 'underground')),
    ).toMatchObject({ ok: true })
    expect(w.state()).toMatchObject({ y: -58, underground: true })
    expect((await act(w, explore('cow'))).message).toBe('cow lives on the surface and I am underground.')
    await act(w, { type: 'go_up', tool: null })
    expect(w.state()).toMatchObject({ y: 64, underground: false })
    expect(w.nearestVisible('diamond_ore')).toBeNull()
  })

  it('mines with a tool that harvests the block until the wanted total is held', async () => {
    const w = world({ inventory: { wooden_pickaxe: 1, cobblestone: 2 } })
    await act(w, explore('stone'))
    expect(await act(w, { type: 'mine', object: 'stone', tool: null, count: 5 })).toMatchObject({
      ok: false,
      reason: 'missing_tool',
      message: 'a bare hand cannot harvest stone; use wooden_pickaxe or stone_pickaxe.',
    })
    expect(await act(w, { type: 'mine', object: 'stone', tool: 'stone_pickaxe', count: 5 })).toMatchObject({
      ok: false,
      reason: 'missing_tool',
      message: 'I need a stone_pickaxe to mine stone but have none.',
    })
    const r = await act(w, { type: 'mine', object: 'cobblestone', tool: 'wooden_pickaxe', count: 5 })
    expect(r).toMatchObject({ ok: true, inventoryDelta: { cobblestone: 3 } })
    expect(r.durationMs).toBeGreaterThan(0)
    expect(w.held()).toBe('wooden_pickaxe')
    const ore = world({ inventory: { stone_pickaxe: 1 } })
    await act(ore, explore('iron_ore', 'underground'))
    expect(await act(ore, { type: 'mine', object: 'iron_ore', tool: 'stone_pickaxe', count: 2 })).toMatchObject({
      ok: true,
      inventoryDelta: { raw_iron: 2 },
    })
  })

  it('attacks add the mob drops, with fractional yields accumulated deterministically', async () => {
    const w = world({ time: 'night' })
    await act(w, explore('cow'))
    expect(await act(w, { type: 'attack', object: 'cow', tool: null })).toMatchObject({
      ok: true,
      inventoryDelta: { beef: 1, leather: 1 },
    })
    await act(w, explore('spider'))
    const eyes: number[] = []
    for (let i = 0; i < 6; i++) {
      await act(w, { type: 'attack', object: 'spider', tool: null })
      eyes.push(w.count('spider_eye'))
    }
    expect(eyes).toEqual([0, 0, 0, 1, 1, 1]) // 0.33 a kill
    expect((await act(world(), explore('zombie'))).message).toBe('zombie only comes out at night and it is day.')
  })

  it('crafts with a real recipe variant, a table for 3x3, rounding up to whole crafts', async () => {
    const w = world({ inventory: { birch_planks: 5, stick: 2 } })
    const pickaxe = {
      type: 'craft',
      object: 'wooden_pickaxe',
      count: 1,
      materials: { birch_planks: 3, stick: 2 },
      tool: 'crafting_table',
    } as const
    expect(
      await act(w, { type: 'craft', object: 'stick', count: 3, materials: { birch_planks: 2 }, tool: null }),
    ).toMatchObject({ ok: true, inventoryDelta: { birch_planks: -2, stick: 4 } })
    expect(await act(w, pickaxe)).toMatchObject({
      ok: false,
      reason: 'missing_tool',
      message: 'I need a crafting_table to craft wooden_pickaxe: none in my inventory or within 6 blocks.',
    })
    w.add('crafting_table', 1)
    expect(await act(w, pickaxe)).toMatchObject({
      ok: true,
      inventoryDelta: { birch_planks: -3, stick: -2, wooden_pickaxe: 1 },
    })
    expect(
      await act(w, {
        type: 'craft',
        object: 'furnace',
        count: 1,
        materials: { cobblestone: 8 },
        tool: 'crafting_table',
      }),
    ).toMatchObject({ ok: false, reason: 'missing_materials', message: 'To craft furnace I still need 8 cobblestone.' })
    expect((await act(w, { type: 'craft', object: 'oak_log', count: 1, materials: {}, tool: null })).reason).toBe(
      'invalid',
    )
  })

  it('smelts with a furnace, the input and enough fuel', async () => {
    const smelt: Action = {
      type: 'smelt',
      object: 'iron_ingot',
      count: 3,
      materials: { raw_iron: 3 },
      fuel: 'oak_planks',
    }
    expect((await act(world({ inventory: { raw_iron: 3, oak_planks: 2 } }), smelt)).reason).toBe('missing_tool')
    expect(await act(world({ inventory: { raw_iron: 3, oak_planks: 1, furnace: 1 } }), smelt)).toMatchObject({
      ok: false,
      reason: 'missing_materials',
      message: 'To smelt 3 iron_ingot I still need 1 oak_planks.',
    })
    expect(await act(world({ inventory: { raw_iron: 3, oak_planks: 2, furnace: 1 } }), smelt)).toMatchObject({
      ok: true,
      inventoryDelta: { raw_iron: -3, oak_planks: -2, iron_ingot: 3 },
    })
    expect(
      (await act(world({ inventory: { raw_iron: 3, dirt: 2, furnace: 1 } }), { ...smelt, fuel: 'dirt' })).message,
    ).toBe('dirt is not a furnace fuel.')
  })

  it('equip, place, apply and build have their effects', async () => {
    const w = world({ inventory: { crafting_table: 1, bucket: 1, dirt: 3 } })
    expect((await act(w, { type: 'equip', object: 'diamond_sword' })).reason).toBe('missing_materials')
    await act(w, { type: 'equip', object: 'bucket' })
    expect(w.held()).toBe('bucket')
    expect(await act(w, { type: 'place', object: 'crafting_table' })).toMatchObject({
      ok: true,
      inventoryDelta: { crafting_table: -1 },
    })
    expect(w.nearestVisible('crafting_table')).toBe(1)
    expect((await act(w, { type: 'apply', object: 'water', tool: 'bucket' })).reason).toBe('not_found')
    expect(await act(w, explore('water'), { type: 'apply', object: 'water', tool: 'bucket' })).toMatchObject({
      ok: true,
      inventoryDelta: { bucket: -1, water_bucket: 1 },
    })
    expect((await act(w, { type: 'build', blueprint: 'castle' })).reason).toBe('invalid')
    expect(await act(w, { type: 'build', blueprint: 'pillar' })).toMatchObject({
      ok: true,
      inventoryDelta: { dirt: -3 },
    })
    expect(await act(w, { type: 'build', blueprint: 'pillar' })).toMatchObject({
      ok: false,
      reason: 'missing_materials',
      message: 'To build the pillar I still need 3 dirt.',
    })
  })
})

describe('sim world: injected trouble', () => {
  it('the Nth call of a type fails with the given reason', async () => {
    const w = world({ faults: [{ type: 'explore', nth: 2, reason: 'no_path', message: 'A ravine is in the way.' }] })
    expect((await act(w, explore('stone'))).ok).toBe(true)
    expect(await act(w, explore('oak_log'))).toMatchObject({
      ok: false,
      reason: 'no_path',
      message: 'A ravine is in the way.',
    })
    expect(w.nearestVisible('oak_log')).toBeNull()
    expect((await act(w, explore('oak_log'))).ok).toBe(true)
    expect(w.calls.map((c) => c.fault)).toEqual([false, true, false])
  })

  it('a lie reports success without the effect', async () => {
    const w = world({ inventory: { oak_log: 1 }, lies: [{ type: 'craft', nth: 1 }] })
    expect(
      await act(w, { type: 'craft', object: 'oak_planks', count: 4, materials: { oak_log: 1 }, tool: null }),
    ).toMatchObject({ ok: true, inventoryDelta: {} })
    expect(w.state().inventory).toEqual({ oak_log: 1 })
    expect(w.calls[0]!.lied).toBe(true)
  })

  it('items are removed before the Nth call (a /clear), or on demand', async () => {
    const w = world({ inventory: { oak_log: 2, stick: 3 }, clears: [{ beforeCall: 2, items: { oak_log: 2 } }] })
    await act(w, explore('stone'))
    expect(
      await act(w, { type: 'craft', object: 'oak_planks', count: 4, materials: { oak_log: 1 }, tool: null }),
    ).toMatchObject({ ok: false, reason: 'missing_materials' })
    w.removeItems('all')
    expect(w.state().inventory).toEqual({})
  })

  it('an aborted signal interrupts', async () => {
    const ac = new AbortController()
    ac.abort()
    expect(await world().execute(explore('stone'), ac.signal)).toMatchObject({ ok: false, reason: 'interrupted' })
  })
})

describe('sim world: Senses', () => {
  it('checks conditions against the settable biome, time and weather', async () => {
    const w = world()
    const c = { biome: 'desert', time: 'night' as const, weather: 'rain' as const, near: 'cactus', brightness: null }
    expect(w.checkConditions(c, 'rabbit').unmet).toEqual([
      'biome desert (I am in plains)',
      'time night (it is day)',
      'weather rain (it is clear)',
      'cactus near the rabbit',
    ])
    await act(w, explore('desert'), explore('cactus'), explore('rabbit'))
    w.setTime('night')
    w.setWeather('rain')
    // both in sight, but not seen together: only an explore with `near` finds the pair
    expect(w.checkConditions(c, 'rabbit').unmet).toEqual(['cactus near the rabbit'])
    await act(w, { type: 'explore', object: 'rabbit', strategy: 'surface', near: 'cactus' })
    expect(w.checkConditions(c, 'rabbit')).toMatchObject({ met: true, unmet: [] })
    expect(w.state().biome).toBe('desert')
    expect(w.blockCountNear('cactus', 16)).toBeGreaterThan(0)
    expect(w.blockCountNear('stone', 4)).toBe(0)
    expect(w.identity()).toEqual({ bot: 'SimGhost', server: 'sim' })
  })
})
