/**
 * The safety policy of the rule book (src/rules/), as the critic enforces it at plan time and the patroller at run
 * time: no attacks on players or possible pets, no fire, lava or TNT, no breaking containers a plan did not place,
 * nothing dug, placed or opened inside a GHOST_PROTECTED box, no digging blocks the bot saw players place;
 * stored/imported plans pass the same gate.
 */
import { describe, expect, it } from 'vitest'
import { critiquePlan, vetStoredPlan, type CriticOptions } from '../../../src/agent/critic.js'
import { Patroller } from '../../../src/agent/patroller.js'
import { vetMemoryExport } from '../../../src/agent/vet-memory.js'
import { loadConfig } from '../../../src/config.js'
import { createKnowledge } from '../../../src/knowledge/index.js'
import type { PlacedView } from '../../../src/rules/index.js'
import { usedOnClick } from '../../../src/rules/policy.js'
import type { Action } from '../../../src/schemas/action.js'
import { BoxList, type Pos } from '../../../src/schemas/region.js'
import { createSimWorld } from '../../helpers/sim-world.js'

const kb = createKnowledge('1.20.2')
const house = BoxList.parse('0 60 0 10 70 10')
const opts: CriticOptions = { blueprints: ['farm_plot', 'pillar', 'shelter'], policy: { protected: house } }
const critique = (actions: Action[], inv: Record<string, number> = {}, o: CriticOptions = opts): string[] =>
  critiquePlan(kb, { explanation: '', thoughts: '', actions }, inv, o).problems

describe('critic: safety policy', () => {
  it('refuses attacking players and creatures that may be pets', () => {
    expect(critique([{ type: 'attack', object: 'player', tool: null }])).toEqual([
      'Step 1 (attack): I never attack players.',
    ])
    expect(critique([{ type: 'attack', object: 'wolf', tool: null }])).toEqual([
      "Step 1 (attack): I never attack a wolf: it may be someone's pet.",
    ])
    expect(critique([{ type: 'attack', object: 'cat', tool: null }])[0]).toMatch(/never attack a cat/)
    expect(critique([{ type: 'attack', object: 'cow', tool: null }])).toEqual([])
  })

  it('refuses fire, lava and TNT', () => {
    expect(
      critique([{ type: 'apply', object: 'oak_planks', tool: 'flint_and_steel' }], { flint_and_steel: 1 }),
    ).toEqual(['Step 1 (apply): I never use flint_and_steel: fire, lava and explosions spread to buildings.'])
    expect(critique([{ type: 'apply', object: 'oak_planks', tool: 'lava_bucket' }], { lava_bucket: 1 })[0]).toMatch(
      /never use lava_bucket/,
    )
    expect(critique([{ type: 'place', object: 'tnt' }], { tnt: 1 })[0]).toMatch(/never use tnt/)
    // getting lava into a bucket is not lighting anything
    expect(critique([{ type: 'apply', object: 'lava', tool: 'bucket' }], { bucket: 1 })).toEqual([])
  })

  it('refuses breaking a container the plan did not place', () => {
    expect(critique([{ type: 'mine', object: 'chest', tool: null, count: 1 }])).toEqual([
      "Step 1 (mine): I never break a chest I did not place: it may hold someone's things.",
    ])
    expect(critique([{ type: 'mine', object: 'barrel', tool: null, count: 1 }])[0]).toMatch(/never break a barrel/)
    expect(
      critique(
        [
          { type: 'place', object: 'chest' },
          { type: 'mine', object: 'chest', tool: null, count: 1 },
        ],
        { chest: 1 },
      ),
    ).toEqual([])
  })

  it('refuses a plan that digs or places inside a protected box, before it runs', () => {
    const inside: CriticOptions = { ...opts, policy: { protected: house, position: { x: 5.5, y: 64, z: 5.5 } } }
    const dig: Action[] = [{ type: 'dig_down', ylevel: 40, tool: 'stone_pickaxe' }]
    expect(critique(dig, { stone_pickaxe: 1 }, inside)).toEqual([
      'Step 1 (dig_down): I never dig inside the protected area 0 60 0 to 10 70 10.',
    ])
    expect(critique([{ type: 'place', object: 'dirt' }], { dirt: 1 }, inside)[0]).toMatch(
      /never place blocks inside the protected area/,
    )
    expect(critique([{ type: 'apply', object: 'chest', tool: 'stick' }], { stick: 1 }, inside)[0]).toMatch(
      /never open containers inside/,
    )
    const outside: CriticOptions = { ...opts, policy: { protected: house, position: { x: 40, y: 64, z: 40 } } }
    expect(critique(dig, { stone_pickaxe: 1 }, outside)).toEqual([])
  })
})

describe('critic: blocks players placed', () => {
  // What the perception's tracker answers: Alice's planks at 3 64 3 and 4 64 3; the floor under 20 64 20 is Bob's.
  const alices = [
    { x: 3, y: 64, z: 3, block: 'oak_planks', player: 'Alice' },
    { x: 4, y: 64, z: 3, block: 'oak_planks', player: 'Alice' },
  ]
  const seen = (visible: Record<string, boolean>): PlacedView => ({
    at: (p) => (p.x === 20 && p.y === 63 && p.z === 20 ? { block: 'stone', player: 'Bob' } : null),
    // every oak_planks in sight is Alice's unless an unplaced one is visible too
    onlyPlaced: (blocks) => (blocks.includes('oak_planks') && !visible.oak_planks ? alices : []),
  })
  const withPlaced = (v: PlacedView, position: Pos | null = null): CriticOptions => ({
    ...opts,
    policy: { protected: [], playerPlaced: v, position },
  })
  const mine: Action = { type: 'mine', object: 'oak_planks', tool: null, count: 1 }

  it('refuses digging them when they are all the bot sees of that block, saying who placed them where', () => {
    expect(critique([mine], {}, withPlaced(seen({})))).toEqual([
      'Step 1 (mine): I never dig oak_planks that players placed: Alice placed the one at 3 64 3 and 1 more, and I see no other oak_planks.',
    ])
    // a natural (or the bot's own) block of the same name in sight: the plan may run, the hands skip Alice's
    expect(critique([mine], {}, withPlaced(seen({ oak_planks: true })))).toEqual([])
    // the plan placed its own planks first: taking them back is fine
    expect(critique([{ type: 'place', object: 'oak_planks' }, mine], { oak_planks: 1 }, withPlaced(seen({})))).toEqual(
      [],
    )
    expect(
      critique(
        [{ type: 'mine', object: 'stone', tool: 'wooden_pickaxe', count: 1 }],
        { wooden_pickaxe: 1 },
        withPlaced(seen({})),
      ),
    ).toEqual([])
  })

  it('refuses digging down through a floor a player placed', () => {
    const dig: Action[] = [{ type: 'dig_down', ylevel: 40, tool: 'stone_pickaxe' }]
    expect(critique(dig, { stone_pickaxe: 1 }, withPlaced(seen({}), { x: 20.5, y: 64, z: 20.5 }))).toEqual([
      'Step 1 (dig_down): I never dig stone that players placed: Bob placed the one at 20 63 20.',
    ])
    expect(critique(dig, { stone_pickaxe: 1 }, withPlaced(seen({}), { x: 22.5, y: 64, z: 20.5 }))).toEqual([])
  })

  it('does not judge a stored plan by what the bot stands next to now', () => {
    expect(vetStoredPlan(kb, [mine], withPlaced(seen({}))).ok).toBe(true)
  })
})

describe('patroller: the policy at run time, with real positions', () => {
  it('refuses mining inside a protected box and never runs the action', async () => {
    const w = createSimWorld(kb, { inventory: { wooden_pickaxe: 1 }, position: { x: 3, y: 64, z: 3 } })
    await w.execute({ type: 'explore', object: 'stone', strategy: 'surface' }, new AbortController().signal)
    const p = new Patroller(kb, w, { protected: house })
    const mine: Action = { type: 'mine', object: 'stone', tool: 'wooden_pickaxe', count: 1 }
    expect(p.before(mine, w.state())).toEqual({
      ok: false,
      reason: 'unsafe',
      message: 'I never dig inside the protected area 0 60 0 to 10 70 10.',
    })
    expect(new Patroller(kb, w).before(mine, w.state())).toEqual({ ok: true })
    const away = createSimWorld(kb, { inventory: { wooden_pickaxe: 1 }, position: { x: 30, y: 64, z: 30 } })
    await away.execute({ type: 'explore', object: 'stone', strategy: 'surface' }, new AbortController().signal)
    expect(new Patroller(kb, away, { protected: house }).before(mine, away.state())).toEqual({ ok: true })
  })

  it('give needs the items and the player', () => {
    const w = createSimWorld(kb, { inventory: { oak_planks: 4 }, players: ['Alice'] })
    const p = new Patroller(kb, w)
    expect(p.before({ type: 'give', object: 'oak_planks', count: 4, to: 'Alice' }, w.state())).toEqual({ ok: true })
    expect(p.before({ type: 'give', object: 'oak_planks', count: 5, to: 'Alice' }, w.state())).toEqual({
      ok: false,
      reason: 'missing_materials',
      message: 'To give 5 oak_planks to Alice I still need 1 oak_planks.',
    })
    expect(p.before({ type: 'give', object: 'oak_planks', count: 1, to: 'Bob' }, w.state())).toMatchObject({
      ok: false,
      reason: 'not_found',
    })
  })
})

describe('stored and imported plans pass the same critic and policy', () => {
  it('vets a stored plan without knowing the inventory, but with names, recipes and policy', () => {
    expect(
      vetStoredPlan(kb, [{ type: 'craft', object: 'stick', count: 4, materials: { oak_planks: 2 }, tool: null }], opts)
        .ok,
    ).toBe(true)
    expect(vetStoredPlan(kb, [{ type: 'mine', object: 'chest', tool: null, count: 1 }], opts).problems[0]).toMatch(
      /never break a chest/,
    )
    expect(vetStoredPlan(kb, [{ type: 'equip', object: 'iron_pickaxee' }], opts).ok).toBe(false)
  })

  it('leaves unsafe plans out of an import', () => {
    const good = {
      goalKey: 'stick',
      actions: [{ type: 'craft', object: 'stick', count: 4, materials: { oak_planks: 2 }, tool: null }],
    }
    const bad = { goalKey: 'leather', actions: [{ type: 'attack', object: 'player', tool: null }] }
    const v = vetMemoryExport(
      kb,
      { format: 'ghostcraft-memory', plans: [good, bad], references: [bad], lessons: [] },
      opts,
    )
    expect(v.data).toMatchObject({ plans: [good], references: [], lessons: [] })
    expect(v.refused.map((r) => r.goalKey)).toEqual(['leather', 'leather'])
  })
})

describe('GHOST_PROTECTED', () => {
  it('parses boxes and lists a malformed one as a start-up problem with how to fix it', () => {
    const ok = loadConfig({ GHOST_PROTECTED: '10 70 10 0 60 0; -5 0 -5 5 10 5' }, '')
    expect(ok.ok && ok.config.GHOST_PROTECTED).toEqual([
      { x1: 0, y1: 60, z1: 0, x2: 10, y2: 70, z2: 10 },
      { x1: -5, y1: 0, z1: -5, x2: 5, y2: 10, z2: 5 },
    ])
    const bad = loadConfig({ GHOST_PROTECTED: '0 60 0 10 70' }, '')
    expect(bad.ok).toBe(false)
    if (!bad.ok)
      expect(bad.problems[0]).toMatchObject({
        key: 'GHOST_PROTECTED',
        problem: expect.stringMatching(/box 1 "0 60 0 10 70" is not six whole numbers/),
        fix: expect.stringMatching(/six whole numbers/),
      })
  })
})

describe('blocks a click uses (never placed against)', () => {
  it('knows containers, work tables and doors from plain blocks', () => {
    for (const n of ['chest', 'furnace', 'crafting_table', 'oak_door', 'spruce_trapdoor', 'red_bed', 'stone_button'])
      expect(usedOnClick(n), n).toBe(true)
    for (const n of ['stone', 'cobblestone', 'oak_planks', 'dirt', 'oak_log', 'glass'])
      expect(usedOnClick(n), n).toBe(false)
  })
})
