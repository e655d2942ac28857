/**
 * Route feedback in the decomposer (src/knowledge/routes.ts): a failed world route is marked costly and the next
 * decomposition takes the other way the game data offers (charcoal from any log for torches, another wood for oak);
 * blocks in sight make their route cheap; stations within reach are used, not made; every log, planks and stone
 * variant a recipe accepts counts when held.
 */
import { describe, expect, it } from 'vitest'
import { createKnowledge, runDryRun } from '../../../src/knowledge/index.js'
import { type RouteBias, sourceRouteKeys, stepRouteKeys } from '../../../src/knowledge/routes.js'
import type { SubGoal } from '../../../src/schemas/subgoal.js'

const k = createKnowledge('1.20.2')
const bias = (failed: string[], seen: string[] = [], stations: string[] = []): RouteBias => ({
  failed: new Map(failed.map((f) => [f, 1])),
  seen: new Set(seen),
  stations: new Set(stations),
})
function plan(object: string, count: number, inv: Record<string, number>, b?: RouteBias): SubGoal[] {
  const d = k.decompose({ object, count }, inv, b)
  if (!d.ok) throw new Error(d.reason)
  const stations = [...(b?.stations ?? [])]
  expect(runDryRun(k, d.steps, d.goal, { inventory: inv, stations }).message).toBe('goal reached')
  return d.steps
}
const names = (steps: SubGoal[]): string[] => steps.map((s) => `${s.kind} ${s.goal.object}`)
const materials = (steps: SubGoal[]): string[] => steps.flatMap((s) => Object.keys(s.goal.material))
/** The route keys of every step that digs `item`'s first source block. */
const mineKeys = (item: string): string[] => {
  const s = k.sources.sourcesFor(item).find((x) => x.kind === 'mine')
  if (!s) throw new Error(`no mine source for ${item}`)
  return sourceRouteKeys(s)
}

describe('route feedback', () => {
  it('torches take coal first, and charcoal smelted from a log once the coal route has failed', () => {
    const plain = plan('torch', 3, {})
    expect(names(plain)).toContain('mine coal')
    const steps = plan('torch', 3, {}, bias(mineKeys('coal')))
    expect(names(steps)).not.toContain('mine coal')
    const smelt = steps.find((s) => s.kind === 'smelt')
    expect(smelt?.goal.object).toBe('charcoal')
    expect(smelt?.kind === 'smelt' && smelt.smelt.input).toMatch(/_log$/)
    expect(steps.at(-1)?.goal.material).toHaveProperty('charcoal')
  })

  it('the charcoal fallback uses the log already held (any log the smelting data accepts)', () => {
    const inv = { wooden_pickaxe: 1, crafting_table: 1, birch_log: 3, stick: 2 }
    const steps = plan('torch', 4, inv, bias(mineKeys('coal')))
    const smelt = steps.find((s) => s.kind === 'smelt')
    expect(smelt?.kind === 'smelt' && smelt.smelt.input).toBe('birch_log')
    expect(names(steps).filter((n) => n.endsWith('_log'))).toEqual([])
  })

  it('a failed oak route moves the whole wood chain to another log', () => {
    const steps = plan('iron_pickaxe', 1, {}, bias(mineKeys('oak_log')))
    const logs = steps.filter((s) => s.kind === 'mine' && s.goal.object.endsWith('_log'))
    expect(logs).toHaveLength(1)
    expect(logs[0]?.goal.object).not.toBe('oak_log')
    const wood = logs[0]!.goal.object.replace(/_log$/, '')
    expect(materials(steps).filter((m) => m.endsWith('_planks'))).toEqual(expect.arrayContaining([`${wood}_planks`]))
    expect(materials(steps).some((m) => m.startsWith('oak_'))).toBe(false)
  })

  it('a log in sight wins over one that must be searched for', () => {
    const steps = plan('crafting_table', 1, {}, bias([], ['birch_log']))
    expect(names(steps)[0]).toBe('mine birch_log')
    expect(steps.find((s) => s.goal.object === 'crafting_table')?.goal.material).toEqual({ birch_planks: 4 })
  })

  it('a failure outweighs sight: the failed route is planned only when nothing else exists', () => {
    const steps = plan('crafting_table', 1, {}, bias(mineKeys('oak_log'), ['oak_log']))
    expect(names(steps)[0]).not.toBe('mine oak_log')
    // cobblestone has no other source: the failed route is still the plan
    const cobble = plan('cobblestone', 3, { wooden_pickaxe: 1 }, bias(mineKeys('cobblestone')))
    expect(names(cobble)).toEqual(['mine cobblestone'])
  })

  it('held wood of any kind makes planks, and any stone variant a recipe accepts makes stone tools', () => {
    expect(names(plan('crafting_table', 1, { birch_log: 1 }))).toEqual(['craft birch_planks', 'craft crafting_table'])
    for (const stone of ['cobbled_deepslate', 'blackstone', 'cobblestone']) {
      const steps = plan('stone_pickaxe', 1, { [stone]: 3, stick: 2, crafting_table: 1 })
      expect(steps.map((s) => s.goal.material)).toEqual([{ [stone]: 3, stick: 2 }])
    }
    expect(plan('furnace', 1, { cobbled_deepslate: 8, crafting_table: 1 })[0]?.goal.material).toEqual({
      cobbled_deepslate: 8,
    })
  })

  it('deepslate in sight makes cobbled_deepslate the stone of a stone pickaxe', () => {
    const inv = { wooden_pickaxe: 1, crafting_table: 1, stick: 2 }
    expect(names(plan('stone_pickaxe', 1, inv, bias([], ['deepslate'])))[0]).toBe('mine cobbled_deepslate')
  })

  it('a step carries the same route keys as the source it came from', () => {
    const steps = plan('torch', 3, {})
    const coal = steps.find((s) => s.goal.object === 'coal')!
    expect(stepRouteKeys(coal)).toEqual(mineKeys('coal'))
    expect(stepRouteKeys(steps.find((s) => s.kind === 'craft')!)).toEqual([])
  })

  it('a crafting table and furnace standing within reach are used where they stand, never made or consumed', () => {
    const inv = { oak_planks: 3, stick: 2, raw_iron: 1, coal: 1 }
    const steps = plan('wooden_pickaxe', 1, inv, bias([], [], ['crafting_table']))
    expect(names(steps)).toEqual(['craft wooden_pickaxe'])
    expect(names(plan('iron_ingot', 1, inv, bias([], [], ['furnace'])))).toEqual(['smelt iron_ingot'])
    // the dry run without the station refuses the same list: the station is really what makes it work
    expect(runDryRun(k, steps, { object: 'wooden_pickaxe', count: 1 }, { inventory: inv }).ok).toBe(false)
    // a station wanted as the goal itself is still made
    expect(names(plan('crafting_table', 1, { oak_planks: 4 }, bias([], [], ['crafting_table'])))).toEqual([
      'craft crafting_table',
    ])
  })
})
