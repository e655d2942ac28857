/**
 * The failure analyser: offline answers from the fixed failure reasons (with patterns for repeats, weak pickaxes,
 * missing materials, low health, stalled progress), and the LLM path through prompts/analyser.md against the fake
 * OpenAI server, with fallback to the offline answer.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Analysis, analyseOffline, createAnalyser, type AnalyserInput } from '../../../src/agent/analyser.js'
import { createKnowledge } from '../../../src/knowledge/index.js'

const kb = createKnowledge('1.20.2')
import { createLlm } from '../../../src/llm/client.js'
import { FailureReason, type Action, type BotState, type Feedback } from '../../../src/schemas/action.js'
import { Goal } from '../../../src/schemas/goal.js'
import { setLogLevel } from '../../../src/util/log.js'
import { startFakeOpenAI, type FakeOpenAI } from '../../helpers/fake-openai.js'

setLogLevel('error')
const state = (over: Partial<BotState> = {}): BotState => ({
  inventory: {},
  biome: 'plains',
  y: 64,
  underground: false,
  health: 20,
  food: 20,
  ...over,
})
const step = (action: Action, reason: FailureReason | null, message = '', st = state()): Feedback => ({
  action,
  state: st,
  result: { ok: reason === null, reason, message, inventoryDelta: {}, durationMs: 100 },
})
const input = (steps: Feedback[], over: Partial<AnalyserInput> = {}): AnalyserInput => ({
  goal: Goal.parse({ object: 'iron_ingot', count: 3 }),
  steps,
  state: state(),
  nearbyBlocks: ['stone', 'dirt'],
  progress: { startCount: 0, currentCount: 0, stepsSinceProgress: steps.length },
  ...over,
})
const mineIron: Action = { type: 'mine', object: 'iron_ore', tool: null, count: 3 }

describe('offline analyser', () => {
  it('has an answer for every failure reason', () => {
    for (const reason of FailureReason.options) {
      const a = analyseOffline(input([step(mineIron, reason, 'something happened')]))
      expect(Analysis.safeParse(a).success, reason).toBe(true)
    }
  })

  it('names the pickaxe needed for an ore', () => {
    const a = analyseOffline(
      input([step(mineIron, 'missing_tool')], { state: state({ inventory: { wooden_pickaxe: 1 } }) }),
      kb,
    )
    expect(a.cause).toMatch(/stone_pickaxe/)
    expect(a.suggestions[0]).toBe('craft a stone_pickaxe before mining iron_ore')
  })

  it('lists missing materials', () => {
    const craft: Action = {
      type: 'craft',
      object: 'stone_pickaxe',
      count: 1,
      materials: { cobblestone: 3, stick: 2 },
      tool: 'crafting_table',
    }
    const a = analyseOffline(
      input([step(craft, 'missing_materials')], { state: state({ inventory: { cobblestone: 1, stick: 2 } }) }),
    )
    expect(a.cause).toMatch(/missing 2 cobblestone/)
    expect(a.suggestions).toEqual(['gather 2 cobblestone before crafting stone_pickaxe'])
  })

  it('sends ore searches underground to a good y-level', () => {
    const explore: Action = { type: 'explore', object: 'iron_ore', strategy: 'surface' }
    expect(analyseOffline(input([step(explore, 'not_found')]), kb).suggestions[0]).toMatch(/dig_down to about y=16/)
    // from data/knowledge/world.json (bestY -59, kept above the lava-filled caves at -55), also for the deepslate variant
    const diamonds: Action = { type: 'explore', object: 'deepslate_diamond_ore', strategy: 'underground' }
    expect(analyseOffline(input([step(diamonds, 'not_found')]), kb).suggestions[0]).toMatch(/dig_down to about y=-53/)
  })

  it('notices the same action failing again and again', () => {
    const a = analyseOffline(input([step(mineIron, 'no_path'), step(mineIron, 'no_path'), step(mineIron, 'no_path')]))
    expect(a.cause).toMatch(/3 times/)
    expect(a.suggestions).toHaveLength(2)
    expect(a.suggestions[1]).toMatch(/stop repeating mine iron_ore/)
  })

  it('mentions low health', () => {
    const a = analyseOffline(input([step(mineIron, 'timeout')], { state: state({ health: 4 }) }))
    expect(a.cause).toMatch(/health is low/)
  })

  it('reports stalled progress when nothing failed', () => {
    const ok: Action = { type: 'mine', object: 'stone', tool: 'wooden_pickaxe', count: 1 }
    const a = analyseOffline(input([step(ok, null), step(ok, null)]))
    expect(a.cause).toMatch(/did not increase/)
  })

  it('only looks at the last 32 steps', () => {
    const old = Array.from({ length: 40 }, () => step(mineIron, 'died'))
    const recent = step({ type: 'approach', object: 'iron_ore' }, 'no_path')
    expect(analyseOffline(input([...old, recent])).cause).toMatch(/path/)
  })
})

describe('LLM analyser', () => {
  let fake: FakeOpenAI
  beforeEach(async () => {
    fake = await startFakeOpenAI()
  })
  afterEach(async () => {
    await fake.close()
  })
  const llm = () =>
    createLlm({
      baseUrl: fake.url,
      apiKey: undefined,
      model: 'm',
      embedModel: undefined,
      timeoutMs: 1000,
      maxRetries: 0,
      playerTokenBudget: 10_000,
      backoffBaseMs: 5,
    })

  it('sends the evidence and the offline guess, and returns the validated answer', async () => {
    fake.script({ json: { cause: 'the bot only had a wooden pickaxe', suggestions: ['craft a stone_pickaxe'] } })
    const l = llm()
    const r = await createAnalyser({ llm: l }).analyse(input([step(mineIron, 'missing_tool')]), {
      player: 'alice',
      requestId: 'x',
    })
    expect(r).toEqual({
      via: 'llm',
      analysis: { cause: 'the bot only had a wooden pickaxe', suggestions: ['craft a stone_pickaxe'] },
    })
    const user = fake.chatCalls()[0]!.body.messages![1]!.content
    expect(user).toContain('<data name="offline_guess">')
    expect(user).toContain('"reason":"missing_tool"')
    expect(l.usage.forGoal('iron_ingot').calls).toBe(1)
  })

  it('falls back to the offline answer when the model fails', async () => {
    fake.script({ content: 'not json' }, { content: 'still not json' })
    const r = await createAnalyser({ llm: llm() }).analyse(input([step(mineIron, 'no_space')]), { player: null })
    expect(r.via).toBe('offline-fallback')
    expect(r.analysis.cause).toMatch(/inventory was full/)
  })
})
