/**
 * What a plan's steps consume or are to hold (`reservedFor`), over a real decomposition: while the compass's redstone
 * is mined, the redstone it mines and the compass's iron ingots are reserved (a pickaxe re-made in the tunnel must
 * leave them), and the same item over several steps adds up; a spare tool's share is not held back (the stone pickaxe
 * re-made on the way to the diamonds' iron may take the spare iron pickaxe's sticks).
 */
import { describe, expect, it } from 'vitest'
import { reservedFor } from '../../../src/agent/subgoal-needs.js'
import { createKnowledge } from '../../../src/knowledge/index.js'

const kb = createKnowledge('1.20.2')

describe('reservedFor', () => {
  it('reserves what the steps from the running one consume and make, summed by name', () => {
    const d = kb.decompose({ object: 'compass', count: 1 }, {})
    if (!d.ok) throw new Error(d.reason)
    const at = d.steps.findIndex((s) => s.kind === 'mine' && s.goal.object === 'redstone')
    expect(at).toBeGreaterThan(0)
    const now = d.steps[at]!
    const compass = d.steps.find((s) => s.goal.object === 'compass')!
    const reserve = reservedFor(d.steps.slice(at))
    expect(reserve.iron_ingot).toBe(compass.goal.material.iron_ingot)
    expect(reserve.redstone).toBe(now.goal.count + (compass.goal.material.redstone ?? 0))
    expect(reserve.compass).toBe(1)
    expect(reservedFor([])).toEqual({})
  })
  it("leaves a spare tool's share out: the plan does without it", () => {
    const d = kb.decompose({ object: 'diamond', count: 1 }, {})
    if (!d.ok) throw new Error(d.reason)
    const at = d.steps.findIndex((s) => s.kind === 'mine' && s.goal.object === 'raw_iron')
    const picks = d.steps.find((s) => s.kind === 'craft' && s.goal.object === 'iron_pickaxe')!
    expect([picks.goal.count, picks.spare?.count]).toEqual([2, 1])
    expect(picks.spare?.material).toEqual({ iron_ingot: 3, stick: 2 })
    const reserve = reservedFor(d.steps.slice(at))
    expect(reserve.iron_pickaxe).toBe(1)
    expect(reserve.stick).toBe(picks.goal.material.stick! - 2)
    // without the spare's share the same steps hold back as much as the plain plan's do
    const plain = d.steps.slice(at).map(({ spare: _spare, ...s }) => s)
    expect(reservedFor(plain).stick).toBe(picks.goal.material.stick)
  })
})
