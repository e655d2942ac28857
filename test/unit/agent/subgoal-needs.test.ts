/**
 * What the steps ahead of a sub-goal consume (`materialsAhead`), over a real decomposition: while the compass's
 * redstone is mined, its 4 iron ingots are reserved (a pickaxe re-made in the tunnel must leave them), and over the
 * whole plan the iron of the pickaxe and of the compass add up.
 */
import { describe, expect, it } from 'vitest'
import { materialsAhead } from '../../../src/agent/subgoal-needs.js'
import { createKnowledge } from '../../../src/knowledge/index.js'

const kb = createKnowledge('1.20.2')

describe('materialsAhead', () => {
  it('reserves what the steps ahead consume, summed by name', () => {
    const d = kb.decompose({ object: 'compass', count: 1 }, {})
    if (!d.ok) throw new Error(d.reason)
    const redstone = d.steps.findIndex((s) => s.kind === 'mine' && s.goal.object === 'redstone')
    expect(redstone).toBeGreaterThan(0)
    expect(materialsAhead(d.steps.slice(redstone + 1))).toMatchObject({ iron_ingot: 4, redstone: 1 })
    expect(materialsAhead(d.steps).iron_ingot).toBe(7)
    expect(materialsAhead([])).toEqual({})
  })
})
