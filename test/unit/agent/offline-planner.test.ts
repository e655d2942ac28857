/**
 * The offline planner: for every sub-goal kind the decomposer emits (mine on the surface and underground, craft,
 * smelt, hunt, apply, collect), the plan is schema-valid, passes the critic for a fresh inventory holding just the
 * sub-goal's needs, and — run action by action in the sim world — really yields the sub-goal's object. Also the
 * strategy changes on later attempts (surface → underground after not_found, back to the surface first).
 */
import { describe, expect, it } from 'vitest'
import { critiquePlan } from '../../../src/agent/critic.js'
import { planOffline } from '../../../src/agent/offline-planner.js'
import { createSimWorld } from '../../helpers/sim-world.js'
import { createKnowledge } from '../../../src/knowledge/index.js'
import { Plan, type BotState, type Feedback } from '../../../src/schemas/action.js'
import type { SubGoal } from '../../../src/schemas/subgoal.js'

const kb = createKnowledge('1.20.2')
const state = (inventory: Record<string, number>, over: Partial<BotState> = {}): BotState => ({
  inventory,
  biome: 'plains',
  y: 64,
  underground: false,
  health: 20,
  food: 20,
  ...over,
})

/** The first step of `kind` in the decomposition of a goal from an inventory. */
function stepOf(kind: SubGoal['kind'], object: string, count: number, inv: Record<string, number> = {}): SubGoal {
  const d = kb.decompose({ object, count }, inv)
  if (!d.ok) throw new Error(d.reason)
  const s = d.steps.find((x) => x.kind === kind && x.goal.object === object) ?? d.steps.find((x) => x.kind === kind)
  if (!s) throw new Error(`no ${kind} step for ${object}: ${d.steps.map((x) => x.kind).join(', ')}`)
  return s
}

/** Exactly what the step needs: its materials, its tool or station. */
function needs(s: SubGoal): Record<string, number> {
  const inv: Record<string, number> = { ...s.goal.material }
  if (s.goal.tool) inv[s.goal.tool] = Math.max(inv[s.goal.tool] ?? 0, 1)
  if (s.kind === 'craft' && s.craft.needsTable) inv.crafting_table = 1
  if (s.kind === 'smelt') inv.furnace = 1
  if (s.kind === 'apply') inv[s.apply.tool] = Math.max(inv[s.apply.tool] ?? 0, s.apply.toolConsumed ? s.apply.uses : 1)
  return inv
}

const CASES: Array<[string, SubGoal['kind'], string, number, Record<string, number>]> = [
  ['mine on the surface', 'mine', 'oak_log', 3, {}],
  ['mine with a tool', 'mine', 'cobblestone', 5, { wooden_pickaxe: 1 }],
  ['mine underground', 'mine', 'raw_iron', 2, { stone_pickaxe: 1 }],
  ['mine deep', 'mine', 'diamond', 1, { iron_pickaxe: 1 }],
  ['mine a side drop', 'mine', 'flint', 2, {}],
  ['mine a block that drops itself', 'mine', 'dirt', 4, {}],
  ['craft in the grid', 'craft', 'stick', 4, { oak_planks: 2 }],
  ['craft at a table', 'craft', 'wooden_pickaxe', 1, { oak_planks: 3, stick: 2, crafting_table: 1 }],
  ['smelt', 'smelt', 'iron_ingot', 3, { raw_iron: 3, furnace: 1, coal: 1 }],
  ['hunt', 'hunt', 'leather', 2, {}],
  ['apply to a mob', 'apply', 'milk_bucket', 1, { bucket: 1 }],
  ['apply to a fluid', 'apply', 'water_bucket', 1, { bucket: 1 }],
  ['apply to a placed block', 'apply', 'stripped_oak_log', 1, { wooden_axe: 1, oak_log: 1 }],
  ['collect', 'collect', 'egg', 2, {}],
]

describe('offline planner', () => {
  it.each(CASES)(
    '%s: valid, accepted by the critic, and it works in the sim world',
    async (_name, kind, object, count, start) => {
      const step = stepOf(kind, object, count, start)
      const inv = needs(step)
      const plan = planOffline({ step, state: state(inv), attempt: 0, feedback: null })
      expect(Plan.safeParse(plan).success).toBe(true)
      expect(critiquePlan(kb, plan, inv, { blueprints: [] })).toEqual({ ok: true, problems: [] })
      const world = createSimWorld(kb, { inventory: inv })
      for (const a of plan.actions) {
        const r = await world.execute(a, new AbortController().signal)
        expect(r, `${a.type} ${JSON.stringify(a)}`).toMatchObject({ ok: true })
      }
      expect(world.count(step.goal.object)).toBeGreaterThanOrEqual((inv[step.goal.object] ?? 0) + step.goal.count)
    },
  )

  it('mines a surface block as a total: what is held plus what is wanted', () => {
    const step = stepOf('mine', 'oak_log', 3)
    const plan = planOffline({ step, state: state({ oak_log: 2 }), attempt: 0, feedback: null })
    expect(plan.actions).toEqual([
      { type: 'explore', object: 'oak_log', strategy: 'surface' },
      { type: 'mine', object: 'oak_log', tool: null, count: 5 },
    ])
  })

  it('digs down for underground ores and returns to the surface for surface things', () => {
    const iron = stepOf('mine', 'raw_iron', 1, { stone_pickaxe: 1 })
    expect(
      planOffline({ step: iron, state: state({ stone_pickaxe: 1 }), attempt: 0, feedback: null }).actions.map(
        (a) => a.type,
      ),
    ).toEqual(['dig_down', 'explore', 'mine'])
    const logs = stepOf('mine', 'oak_log', 1)
    expect(
      planOffline({ step: logs, state: state({}, { y: 10, underground: true }), attempt: 0, feedback: null })
        .actions[0],
    ).toEqual({ type: 'go_up', tool: null })
  })

  it('underground, goes up to place a table it must craft at, but not when one stands here', () => {
    const inv = { cobblestone: 3, stick: 2 }
    const pickaxe = stepOf('craft', 'stone_pickaxe', 1, inv)
    const below = state(inv, { y: 60, underground: true })
    const types = (stationsNear: string[]): string[] =>
      planOffline({ step: pickaxe, state: below, attempt: 0, feedback: null, stationsNear }).actions.map((a) => a.type)
    expect(types([])).toEqual(['go_up', 'craft'])
    // the table the furnace's craft left standing for it (bench d21 seed 2 climbed out and placed cobblestone to do so)
    expect(types(['crafting_table'])).toEqual(['craft'])
  })

  it('stays put for stone when already underground, but still digs to the depth of deepslate', () => {
    const under = state({ wooden_pickaxe: 1 }, { y: 59, underground: true })
    const stone = stepOf('mine', 'cobblestone', 1, { wooden_pickaxe: 1 })
    expect(planOffline({ step: stone, state: under, attempt: 0, feedback: null }).actions.map((a) => a.type)).toEqual([
      'explore',
      'mine',
    ])
    const deep = stepOf('mine', 'cobbled_deepslate', 1, { wooden_pickaxe: 1 })
    expect(planOffline({ step: deep, state: under, attempt: 0, feedback: null }).actions[0]).toMatchObject({
      type: 'dig_down',
      ylevel: -8,
    })
  })

  it('watches for an ore on the way down, not for a block only buried under the dirt', () => {
    const surface = state({ iron_pickaxe: 1 }, { y: 70, underground: false })
    const diamond = planOffline({
      step: stepOf('mine', 'diamond', 1, { iron_pickaxe: 1 }),
      state: surface,
      attempt: 0,
      feedback: null,
    })
    const dig = diamond.actions[0]
    expect(dig?.type).toBe('dig_down')
    const explore = diamond.actions[1]
    expect(explore?.type).toBe('explore')
    // the block the dig watches for is the one the explore after it looks for
    expect(dig).toMatchObject({ watch: explore?.type === 'explore' ? explore.object : 'no explore' })
    const stone = planOffline({
      step: stepOf('mine', 'cobblestone', 3, { wooden_pickaxe: 1 }),
      state: surface,
      attempt: 0,
      feedback: null,
    })
    expect(stone.actions[0]).toMatchObject({ type: 'dig_down', watch: null })
  })

  it('after a dig_down stopped over a cave above the ore band, searches underground from there (its own ways down)', () => {
    const inv = { iron_pickaxe: 1 }
    const step = stepOf('mine', 'diamond', 1, inv)
    const here = state(inv, { y: 31, underground: true })
    const first = planOffline({ step, state: here, attempt: 0, feedback: null })
    expect(first.actions.map((a) => a.type)).toEqual(['dig_down', 'explore', 'mine'])
    const stopped = (reason: 'unsafe' | 'missing_tool'): Feedback => ({
      action: first.actions[0]!,
      state: here,
      result: { ok: false, reason, message: 'I stopped digging at y 31.', inventoryDelta: {}, durationMs: 1 },
    })
    const second = planOffline({ step, state: here, attempt: 1, feedback: stopped('unsafe') })
    expect(second.actions.map((a) => a.type)).toEqual(['explore', 'mine'])
    expect(second.actions[0]).toMatchObject({ strategy: 'underground' })
    // any other failure of the dig (no pickaxe) is no reason to skip it
    const third = planOffline({ step, state: here, attempt: 1, feedback: stopped('missing_tool') })
    expect(third.actions[0]).toMatchObject({ type: 'dig_down' })
  })

  it('goes underground on a later attempt after a surface search found nothing', () => {
    const step = stepOf('mine', 'raw_iron', 1, { stone_pickaxe: 1 })
    const surface: SubGoal =
      step.kind === 'mine'
        ? { ...step, mine: { ...step.mine, location: { ...step.mine.location, strategy: 'surface' } } }
        : step
    const first = planOffline({ step: surface, state: state({ stone_pickaxe: 1 }), attempt: 0, feedback: null })
    expect(first.actions.map((a) => a.type)).toEqual(['explore', 'mine'])
    const feedback: Feedback = {
      action: first.actions[0]!,
      state: state({ stone_pickaxe: 1 }),
      result: {
        ok: false,
        reason: 'not_found',
        message: 'I searched but found no iron_ore around here.',
        inventoryDelta: {},
        durationMs: 1,
      },
    }
    const second = planOffline({ step: surface, state: state({ stone_pickaxe: 1 }), attempt: 1, feedback })
    expect(second.actions.map((a) => a.type)).toEqual(['dig_down', 'explore', 'mine'])
    // digging to iron's best y (16) stays above deepslate, so it keeps looking for the plain ore
    expect(second.actions[0]).toMatchObject({ type: 'dig_down', ylevel: 16 })
    expect(second.actions[1]).toMatchObject({ object: 'iron_ore', strategy: 'underground' })
    const deep = planOffline({
      step: surface,
      state: { ...state({ stone_pickaxe: 1 }), y: -20, underground: true },
      attempt: 0,
      feedback: null,
    })
    expect(deep.actions.find((a) => a.type === 'explore')).toMatchObject({ object: 'deepslate_iron_ore' })
    expect(second.explanation).toMatch(/not_found/)
  })

  it('hunts with the best sword held', () => {
    const step = stepOf('hunt', 'leather', 1)
    const plan = planOffline({ step, state: state({ wooden_sword: 1, iron_sword: 1 }), attempt: 0, feedback: null })
    expect(plan.actions.filter((a) => a.type === 'attack')[0]).toEqual({
      type: 'attack',
      object: 'cow',
      tool: 'iron_sword',
    })
  })
})
