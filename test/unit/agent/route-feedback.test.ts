/**
 * The executor's second way (src/agent/route-feedback.ts) against the sim world with the offline planner: a world
 * route that finds nothing is marked costly and the goal decomposed again (torches from charcoal when coal is absent,
 * another wood when oak is absent), a goal with no other way still fails with the route's reason, a death is
 * followed by a re-plan from what is held after it, and a crafting table standing nearby is used, not made again.
 */
import { describe, expect, it } from 'vitest'
import { OFFLINE_ATTEMPTS } from '../../../src/agent/subgoal-runner.js'
import { createKnowledge } from '../../../src/knowledge/index.js'
import type { GoalInput } from '../../../src/schemas/goal.js'
import type { TaskEvent } from '../../../src/schemas/task.js'
import { setLogLevel } from '../../../src/util/log.js'
import { type OfflineGoalRun, runOfflineGoal } from '../../helpers/offline-goal.js'
import { createSimWorld, type SimWorld, type SimWorldOptions } from '../../helpers/sim-world.js'

setLogLevel('error')
const kb = createKnowledge('1.20.2')

async function run(
  goal: GoalInput,
  opts: SimWorldOptions = {},
  prepare: (w: SimWorld) => void = () => {},
): Promise<OfflineGoalRun & { world: SimWorld }> {
  const world = createSimWorld(kb, opts)
  prepare(world)
  return { ...(await runOfflineGoal(kb, world, goal)), world }
}
const acted = (w: SimWorld, type: string): string[] =>
  w.calls.filter((c) => c.action.type === type).map((c) => ('object' in c.action ? String(c.action.object) : ''))
const progress = (events: TaskEvent[]): string[] => events.flatMap((e) => (e.kind === 'progress' ? [e.message] : []))

describe('a second way after a failed route', () => {
  it('torches: no coal to be found, so charcoal is smelted from a log', async () => {
    const { out, world, events } = await run(
      { object: 'torch', count: 3 },
      { absent: ['coal_ore', 'deepslate_coal_ore'] },
    )
    expect(out.ok).toBe(true)
    expect(world.count('torch')).toBeGreaterThanOrEqual(3)
    expect(acted(world, 'smelt')).toEqual(['charcoal'])
    // the coal route got one attempt (a cheap other way existed), then the goal was planned again
    expect(acted(world, 'explore').filter((o) => o.endsWith('coal_ore'))).toHaveLength(1)
    expect(progress(events).some((m) => /mine 1 coal failed \(not_found\); planning another way/.test(m))).toBe(true)
  })

  it('wood: no oak around, so the tools are made from another log', async () => {
    const { out, world } = await run({ object: 'wooden_pickaxe', count: 1 }, { absent: ['oak_log'] })
    expect(out.ok).toBe(true)
    const logs = acted(world, 'mine').filter((o) => o.endsWith('_log'))
    expect(logs.length).toBeGreaterThan(0)
    expect(logs.every((l) => l !== 'oak_log')).toBe(true)
    expect(acted(world, 'craft').some((o) => o.endsWith('_planks') && o !== 'oak_planks')).toBe(true)
  })

  it('with no other way the route is searched once more, then the goal fails with the route’s own reason', async () => {
    const { out, world, events } = await run(
      { object: 'raw_iron', count: 1 },
      { inventory: { stone_pickaxe: 1 }, absent: ['iron_ore', 'deepslate_iron_ore'] },
    )
    expect(out.ok).toBe(false)
    expect(out.message).toMatch(/raw_iron.*no iron_ore/)
    expect(world.count('raw_iron')).toBe(0)
    // two rounds of the default attempts, no detour to a far costlier route (hunting a rare iron drop)
    expect(acted(world, 'explore').filter((o) => o.endsWith('iron_ore'))).toHaveLength(2 * OFFLINE_ATTEMPTS)
    expect(acted(world, 'attack')).toEqual([])
    expect(progress(events).filter((m) => /planning another way/.test(m))).toHaveLength(2)
  })

  it('after a death the goal is planned again from what is held, not given up', async () => {
    const { out, world } = await run(
      { object: 'crafting_table', count: 1 },
      { faults: [{ type: 'mine', nth: 1, reason: 'died', message: 'I died while mining.' }] },
    )
    expect(out.ok).toBe(true)
    expect(world.count('crafting_table')).toBe(1)
    expect(acted(world, 'mine').length).toBeGreaterThanOrEqual(2)
  })
})

describe('stations', () => {
  it('a crafting table standing within reach is used instead of crafting a new one', async () => {
    const inv = { oak_planks: 3, stick: 2 }
    const { out, world } = await run({ object: 'wooden_pickaxe', count: 1 }, { inventory: inv }, (w) =>
      w.visible.set('crafting_table', 2),
    )
    expect(out.ok).toBe(true)
    expect(acted(world, 'craft')).toEqual(['wooden_pickaxe'])
    expect(world.count('crafting_table')).toBe(0)
  })

  it('a crafting table out of reach is not counted: the bot makes its own', async () => {
    const inv = { oak_planks: 7, stick: 2 }
    const { out, world } = await run({ object: 'wooden_pickaxe', count: 1 }, { inventory: inv }, (w) =>
      w.visible.set('crafting_table', 30),
    )
    expect(out.ok).toBe(true)
    expect(acted(world, 'craft')).toEqual(['crafting_table', 'wooden_pickaxe'])
  })
})
