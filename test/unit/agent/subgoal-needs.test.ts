/**
 * What a plan's steps consume or are to hold (`reservedFor`), over a real decomposition: while the compass's redstone
 * is mined, the redstone it mines and the compass's iron ingots are reserved (a pickaxe re-made in the tunnel must
 * leave them), and the same item over several steps adds up.
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
})
