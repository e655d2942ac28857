/**
 * The rule book itself: every action type has a rules entry; requirements and changes as data (give as the example
 * of a new action), and the agent-layer entry point `Patroller.guarded` running `give` the checked way.
 */
import { describe, expect, it } from 'vitest'
import { Patroller } from '../../../src/agent/patroller.js'
import { createKnowledge } from '../../../src/knowledge/index.js'
import { changes, check, inventoryWorld, requires, RULES, ruleContext } from '../../../src/rules/index.js'
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
