/**
 * The rule book itself: every action type has a rules entry; requirements and changes as data (give as the example
 * of a new action), and the agent-layer entry point `Patroller.guarded` running `give` the checked way.
 */
import { describe, expect, it } from 'vitest'
import { Patroller } from '../../../src/agent/patroller.js'
import { createKnowledge } from '../../../src/knowledge/index.js'
import { changes, check, inventoryWorld, requires, RULES, ruleContext } from '../../../src/rules/index.js'
import { furnacesFed } from '../../../src/rules/smelt.js'
import { ACTION_TYPES, type Action } from '../../../src/schemas/action.js'
import { createSimWorld } from '../../helpers/sim-world.js'

const kb = createKnowledge('1.20.2')
const ctx = ruleContext(kb)
const signal = new AbortController().signal

describe('rule book', () => {
  it('has rules for every action type', () => {
    expect(Object.keys(RULES).sort()).toEqual([...ACTION_TYPES].sort())
  })

  it('says what give requires and changes', () => {
    const give: Action = { type: 'give', object: 'oak_planks', count: 4, to: 'Alice' }
    expect(requires(give, ctx)).toEqual([
      { kind: 'items', items: { oak_planks: 4 }, doing: 'give 4 oak_planks to Alice' },
      { kind: 'player', name: 'Alice' },
    ])
    expect(changes(give, ctx)).toEqual({ inventory: { oak_planks: -4 } })
    // a plain inventory cannot see players: the player need waits for run time
    expect(check(give, ctx, inventoryWorld({ oak_planks: 4 }))).toEqual({ ok: true })
    expect(check(give, ctx, inventoryWorld({ oak_planks: 3 }))).toMatchObject({
      ok: false,
      reason: 'missing_materials',
    })
  })

  it('says what smelt changes, fuel included', () => {
    expect(
      changes({ type: 'smelt', object: 'iron_ingot', count: 3, materials: { raw_iron: 3 }, fuel: 'oak_planks' }, ctx),
    ).toEqual({ inventory: { raw_iron: -3, oak_planks: -2, iron_ingot: 3 } })
  })

  it('shares a smelt among as many furnaces as the fuel held feeds, each burning its own', () => {
    // 3 iron in 3 furnaces takes a coal each; 2 coal feed 2 furnaces (2 + 1 items), 1 coal one
    expect(furnacesFed(kb, 'coal', 3, 3, 3)).toBe(3)
    expect(furnacesFed(kb, 'coal', 3, 3, 2)).toBe(2)
    expect(furnacesFed(kb, 'coal', 3, 3, 1)).toBe(1)
    // never more furnaces than items or than asked for, and at least one however little is held
    expect(furnacesFed(kb, 'coal', 2, 3, 9)).toBe(2)
    expect(furnacesFed(kb, 'coal', 7, 0, 0)).toBe(1)
    // a plank burns 1.5 items: 7 iron in 3 furnaces (3, 2, 2) takes 2 + 2 + 2 planks, in 2 (4, 3) 3 + 2
    expect(furnacesFed(kb, 'oak_planks', 7, 3, 6)).toBe(3)
    expect(furnacesFed(kb, 'oak_planks', 7, 3, 5)).toBe(2)
    expect(furnacesFed(kb, 'oak_planks', 7, 3, 4)).toBe(1)
  })
})

describe('Patroller.guarded: give from the agent layer', () => {
  it('hands items over, and refuses before running when the player is unknown', async () => {
    const w = createSimWorld(kb, { inventory: { oak_planks: 6, wooden_pickaxe: 1 }, players: ['Alice'] })
    const p = new Patroller(kb, w)
    const r = await p.guarded({ type: 'give', object: 'oak_planks', count: 4, to: 'Alice' }, w, signal)
    expect(r).toMatchObject({ ok: true, inventoryDelta: { oak_planks: -4 } })
    expect(w.state().inventory).toEqual({ oak_planks: 2, wooden_pickaxe: 1 })
    const calls = w.calls.length
    const nobody = await p.guarded({ type: 'give', object: 'oak_planks', count: 1, to: 'Bob' }, w, signal)
    expect(nobody).toMatchObject({ ok: false, reason: 'not_found' })
    expect(w.calls.length).toBe(calls)
  })
})
