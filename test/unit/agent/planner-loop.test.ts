/**
 * The whole planning loop with an LLM: runGoal (executor → sub-goal runner → planner → critic → patroller) against
 * the sim world (src/agent/sim-world.ts), the real knowledge base, a real MemoryStore on a temp SQLite file, and the
 * real `openai` client talking to the scripted fake OpenAI server (test/helpers/fake-openai.ts): good plans, repairs,
 * retries, timeouts, critic rounds, re-plans after failures, the token budget and plans reused from memory.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createAnalyser, type Analyser } from '../../../src/agent/analyser.js'
import { runGoal, type GoalOutcome } from '../../../src/agent/executor.js'
import { Patroller } from '../../../src/agent/patroller.js'
import { createPlanner, type Planner } from '../../../src/agent/planner.js'
import { createSimWorld, type SimWorld, type SimWorldOptions } from '../../helpers/sim-world.js'
import { loadConfig } from '../../../src/config.js'
import { createKnowledge } from '../../../src/knowledge/index.js'
import { createLlm, llmSettingsFromConfig, LlmBudgetError, type Llm } from '../../../src/llm/index.js'
import { openMemory, type MemoryStore } from '../../../src/memory/index.js'
import type { TaskEvent } from '../../../src/schemas/task.js'
import type { Action, Plan } from '../../../src/schemas/action.js'
import { Goal, type GoalInput } from '../../../src/schemas/goal.js'
import { setLogLevel } from '../../../src/util/log.js'
import { startFakeOpenAI, type FakeOpenAI } from '../../helpers/fake-openai.js'

setLogLevel('error')
const kb = createKnowledge('1.20.2')
let fake: FakeOpenAI
let dir: string
let memory: MemoryStore

function llmWith(env: Record<string, string> = {}): Llm {
  const cfg = loadConfig(
    {
      GHOST_MODEL: 'fake-model',
      OPENAI_BASE_URL: fake.url,
      GHOST_LLM_TIMEOUT_MS: '2000',
      GHOST_LLM_MAX_RETRIES: '2',
      ...env,
    },
    '',
  )
  if (!cfg.ok) throw new Error(JSON.stringify(cfg.problems))
  const settings = llmSettingsFromConfig(cfg.config)
  if (!settings) throw new Error('no LLM settings')
  return createLlm({ ...settings, backoffBaseMs: 5, backoffMaxMs: 20 })
}

interface Run {
  out: GoalOutcome
  events: TaskEvent[]
  world: SimWorld
}
async function run(
  goal: GoalInput,
  planner: Planner,
  world: SimWorld,
  analyser: Analyser = createAnalyser(),
): Promise<Run> {
  const events: TaskEvent[] = []
  const out = await runGoal(
    Goal.parse(goal),
    {
      kb,
      planner,
      patroller: new Patroller(kb, world),
      hands: world,
      senses: world,
      analyser,
      memory,
      critic: { blueprints: Object.keys(world.blueprints) },
      queryLimit: 10,
      goalTimeBudgetMs: 60_000,
    },
    {
      player: 'alice',
      requestId: 'req-1',
      taskId: 'task-1',
      signal: new AbortController().signal,
      progress: (e) => events.push(e),
    },
  )
  return { out, events, world }
}
const world = (opts: SimWorldOptions = {}): SimWorld => createSimWorld(kb, opts)
const plan = (...actions: Action[]): { json: Plan } => ({ json: { explanation: '', thoughts: 'test plan', actions } })
const userText = (i: number): string => fake.chatCalls()[i]!.body.messages!.find((m) => m.role === 'user')!.content
const actionReasons = (events: TaskEvent[]): Array<string | null> =>
  events.flatMap((e) => (e.kind === 'action' ? [e.reason] : []))

const SMELT_ONE: Action = { type: 'smelt', object: 'iron_ingot', count: 1, materials: { raw_iron: 1 }, fuel: 'coal' }
const SMELT_KIT = { raw_iron: 1, furnace: 1, coal: 1 }

beforeEach(async () => {
  fake = await startFakeOpenAI()
  dir = mkdtempSync(join(tmpdir(), 'ghost-loop-'))
  memory = await openMemory({ path: join(dir, 'memory.db') })
})
afterEach(async () => {
  await memory.close()
  rmSync(dir, { recursive: true, force: true })
  await fake.close()
})

describe('planning loop with the LLM', () => {
  it('(a) good plans from the LLM reach the goal, verified, and are stored in memory', async () => {
    fake.script(
      plan({ type: 'craft', object: 'oak_planks', count: 12, materials: { oak_log: 3 }, tool: null }),
      plan({ type: 'craft', object: 'crafting_table', count: 1, materials: { oak_planks: 4 }, tool: null }),
      plan({ type: 'craft', object: 'stick', count: 4, materials: { oak_planks: 2 }, tool: null }),
      plan({
        type: 'craft',
        object: 'wooden_pickaxe',
        count: 1,
        materials: { oak_planks: 3, stick: 2 },
        tool: 'crafting_table',
      }),
    )
    const { out, world: w } = await run(
      { object: 'wooden_pickaxe', count: 1 },
      createPlanner(llmWith()),
      world({ inventory: { oak_log: 3 } }),
    )
    expect(out).toMatchObject({
      ok: true,
      verification: '1 wooden_pickaxe now in inventory (needed 1)',
      llmCalls: 4,
      subGoalsRun: 4,
    })
    expect(w.count('wooden_pickaxe')).toBe(1)
    expect(fake.chatCalls()).toHaveLength(4)
    const first = fake.chatCalls()[0]!.body
    expect((first.response_format as { type: string }).type).toBe('json_schema')
    expect(userText(0)).toContain('"object":"oak_planks"')
    expect(userText(0)).toContain('"oak_log":3')
    expect((await memory.reference('wooden_pickaxe'))?.actions[0]).toMatchObject({
      type: 'craft',
      object: 'wooden_pickaxe',
    })
  })

  it('(b) malformed JSON gets one repair round, then the good plan runs', async () => {
    fake.script({ content: '{"explanation": "", "thoughts": "smelt", "actions": [' }, plan(SMELT_ONE))
    const { out } = await run(
      { object: 'iron_ingot', count: 1 },
      createPlanner(llmWith()),
      world({ inventory: SMELT_KIT }),
    )
    expect(out).toMatchObject({ ok: true, llmCalls: 1 })
    expect(fake.chatCalls()).toHaveLength(2)
    expect(fake.chatCalls()[1]!.body.messages!.at(-1)!.content).toMatch(/not valid JSON/)
  })

  it('(c) HTTP 429 and 500 are retried, then the plan succeeds', async () => {
    fake.script({ status: 429, headers: { 'retry-after-ms': '20' } }, { status: 500 }, plan(SMELT_ONE))
    const { out } = await run(
      { object: 'iron_ingot', count: 1 },
      createPlanner(llmWith()),
      world({ inventory: SMELT_KIT }),
    )
    expect(out).toMatchObject({ ok: true, llmCalls: 1 })
    expect(fake.chatCalls()).toHaveLength(3)
  })

  it('(d) a hanging server times out after bounded retries and the offline planner finishes the goal', async () => {
    fake.script({ hang: true }, { hang: true }, plan(SMELT_ONE)) // the third answer must never be asked for
    const t0 = Date.now()
    const { out, world: w } = await run(
      { object: 'iron_ingot', count: 1 },
      createPlanner(llmWith({ GHOST_LLM_TIMEOUT_MS: '250', GHOST_LLM_MAX_RETRIES: '1' })),
      world({ inventory: SMELT_KIT }),
    )
    const tookMs = Date.now() - t0
    expect(fake.chatCalls()).toHaveLength(2) // 1 try + 1 retry, no more
    expect(tookMs).toBeGreaterThanOrEqual(450)
    expect(tookMs).toBeLessThan(5000)
    expect(out).toMatchObject({ ok: true, llmCalls: 1 }) // the failed query still counts against the query limit
    expect(w.calls.map((c) => c.action.type)).toEqual(['smelt'])
  })

  it('(d) after two timed-out queries the planner stops asking for a while: the other sub-goals plan offline at once', async () => {
    fake.script({ hang: true }, { hang: true }, { hang: true }, { hang: true })
    const llm = llmWith({ GHOST_LLM_TIMEOUT_MS: '250', GHOST_LLM_MAX_RETRIES: '0', GHOST_LLM_COOLDOWN_MS: '60000' })
    const { out, world: w } = await run(
      { object: 'wooden_pickaxe', count: 1 },
      createPlanner(llm),
      world({ inventory: { oak_log: 3 } }),
    )
    expect(out).toMatchObject({ ok: true, subGoalsRun: 4 })
    expect(fake.chatCalls()).toHaveLength(2) // planks and crafting table timed out; stick and pickaxe never asked
    expect(llm.breaker().open).toBe(true)
    expect(w.count('wooden_pickaxe')).toBe(1)
  })

  it('(d) a server that is down: every sub-goal retries briefly, then falls back to the offline planner', async () => {
    const down = await startFakeOpenAI()
    await down.close()
    const cfg = loadConfig({ GHOST_MODEL: 'fake-model', OPENAI_BASE_URL: down.url, GHOST_LLM_MAX_RETRIES: '1' }, '')
    const settings = cfg.ok ? llmSettingsFromConfig(cfg.config) : null
    const llm = createLlm({ ...settings!, backoffBaseMs: 5, backoffMaxMs: 20 })
    const { out, world: w } = await run(
      { object: 'stick', count: 4 },
      createPlanner(llm),
      world({ inventory: { oak_log: 1 } }),
    )
    expect(out).toMatchObject({ ok: true, llmCalls: 2, subGoalsRun: 2 }) // planks, then sticks: one failed query each
    expect(w.count('stick')).toBe(4)
    expect(llm.usage.snapshot().total.calls).toBe(0) // nothing answered, nothing counted
  })

  it('(e) a wrong item name is caught by the critic and fixed in round 2, which carries the critique', async () => {
    fake.script(plan({ ...SMELT_ONE, object: 'iron' }), plan(SMELT_ONE))
    const { out, world: w } = await run(
      { object: 'iron_ingot', count: 1 },
      createPlanner(llmWith()),
      world({ inventory: SMELT_KIT }),
    )
    expect(out).toMatchObject({ ok: true, llmCalls: 2 })
    expect(w.calls).toHaveLength(1) // the bad plan never ran
    expect(userText(0)).not.toContain('critique')
    const second = userText(1)
    expect(second).toContain('"critique"')
    expect(second).toContain(
      'Step 1 (smelt): \\"iron\\" is not an item in Minecraft 1.20.2. Did you mean \\"iron_ingot\\"',
    )
  })

  it('(f) a plan still wrong after 3 critic rounds fails the goal with the critique as the reason', async () => {
    const bad = plan({ type: 'mine', object: 'magma', tool: null, count: 1 })
    fake.script(bad, bad, bad, bad)
    const { out, world: w } = await run(
      { object: 'iron_ingot', count: 1 },
      createPlanner(llmWith()),
      world({ inventory: SMELT_KIT }),
    )
    expect(out.ok).toBe(false)
    expect(out.llmCalls).toBe(3)
    expect(fake.chatCalls()).toHaveLength(3)
    expect(out.message).toMatch(/could not make a valid plan/)
    expect(out.message).toContain(
      '"magma" is not a block in Minecraft 1.20.2. Did you mean "magma_cube" or "magma_block"',
    )
    expect(w.calls).toHaveLength(0)
  })

  it('(g) a failed action is fed back: the next request carries its reason and message, and a lesson', async () => {
    const p = plan(
      { type: 'explore', object: 'oak_log', strategy: 'surface' },
      { type: 'mine', object: 'oak_log', tool: null, count: 2 },
    )
    fake.script(p, p)
    const w = world({
      faults: [{ type: 'mine', nth: 1, reason: 'no_path', message: 'I could not find a path to the oak tree.' }],
    })
    const { out, events } = await run({ object: 'oak_log', count: 2 }, createPlanner(llmWith()), w)
    expect(out).toMatchObject({ ok: true, llmCalls: 2 })
    expect(actionReasons(events)).toEqual([null, 'no_path', null, null])
    const second = userText(1)
    expect(second).toContain('"reason":"no_path"')
    expect(second).toContain('I could not find a path to the oak tree.')
    expect(second).toContain('the bot could not find a path to oak_log') // the analyser's lesson
    expect(await memory.lessons('oak_log')).toHaveLength(1)
  })

  it('(g) with the LLM analyser (as the app wires it) its diagnosis goes into the next plan request', async () => {
    const p = plan(
      { type: 'explore', object: 'oak_log', strategy: 'surface' },
      { type: 'mine', object: 'oak_log', tool: null, count: 2 },
    )
    fake.script(
      p,
      { json: { cause: 'a river blocked the way to the trees', suggestions: ['explore for another oak_log'] } },
      p,
    )
    const llm = llmWith()
    const w = world({ faults: [{ type: 'explore', nth: 1, reason: 'no_path', message: 'A river is in the way.' }] })
    const { out } = await run({ object: 'oak_log', count: 2 }, createPlanner(llm), w, createAnalyser({ llm }))
    expect(out).toMatchObject({ ok: true, llmCalls: 3 })
    expect(fake.chatCalls()).toHaveLength(3)
    expect(userText(1)).toContain('A river is in the way.')
    expect(userText(2)).toContain('a river blocked the way to the trees explore for another oak_log')
    expect((await memory.lessons('oak_log'))[0]).toMatchObject({ cause: 'a river blocked the way to the trees' })
  })

  it('(h) an exhausted token budget refuses clearly and sends no request', async () => {
    const planner = createPlanner(llmWith({ GHOST_PLAYER_TOKEN_BUDGET: '10' }))
    fake.script(plan(SMELT_ONE)) // one call (15 tokens) is allowed, overshooting the budget once
    const w = world({ inventory: { ...SMELT_KIT, oak_log: 1 } })
    expect((await run({ object: 'iron_ingot', count: 1 }, planner, w)).out.ok).toBe(true)
    fake.script(plan({ type: 'craft', object: 'oak_planks', count: 4, materials: { oak_log: 1 }, tool: null }))
    const err = await run({ object: 'oak_planks', count: 4 }, planner, w).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(LlmBudgetError)
    expect((err as LlmBudgetError).code).toBe('llm_budget')
    expect((err as LlmBudgetError).userMessage).toMatch(/used up your share/)
    expect(fake.chatCalls()).toHaveLength(1)
    expect(w.count('oak_planks')).toBe(0)
  })

  it('(i) the same goal again is planned from memory with zero LLM calls, also after a restart', async () => {
    fake.script(
      plan({ type: 'craft', object: 'oak_planks', count: 4, materials: { oak_log: 1 }, tool: null }),
      plan({ type: 'craft', object: 'stick', count: 4, materials: { oak_planks: 2 }, tool: null }),
    )
    const llm = llmWith()
    const first = await run({ object: 'stick', count: 4 }, createPlanner(llm), world({ inventory: { oak_log: 1 } }))
    expect(first.out).toMatchObject({ ok: true, llmCalls: 2 })
    expect(fake.chatCalls()).toHaveLength(2)

    const again = await run({ object: 'stick', count: 4 }, createPlanner(llm), world({ inventory: { oak_log: 1 } }))
    expect(again.out).toMatchObject({ ok: true, llmCalls: 0 })
    expect(again.world.count('stick')).toBe(4)
    expect(fake.chatCalls()).toHaveLength(2)

    await memory.close()
    memory = await openMemory({ path: join(dir, 'memory.db') })
    const restarted = await run(
      { object: 'stick', count: 4 },
      createPlanner(llmWith()),
      world({ inventory: { oak_log: 1 } }),
    )
    expect(restarted.out).toMatchObject({ ok: true, llmCalls: 0 })
    expect(fake.chatCalls()).toHaveLength(2)
  })

  it('(i) a remembered plan is fitted to a larger count', async () => {
    fake.script(plan({ type: 'craft', object: 'oak_planks', count: 4, materials: { oak_log: 1 }, tool: null }))
    const llm = llmWith()
    expect(
      (await run({ object: 'oak_planks', count: 4 }, createPlanner(llm), world({ inventory: { oak_log: 1 } }))).out.ok,
    ).toBe(true)
    const twice = await run(
      { object: 'oak_planks', count: 8 },
      createPlanner(llm),
      world({ inventory: { oak_log: 2 } }),
    )
    expect(twice.out).toMatchObject({ ok: true, llmCalls: 0 })
    expect(twice.world.calls[0]!.action).toMatchObject({ type: 'craft', count: 8, materials: { oak_log: 2 } })
  })

  it('(i) a remembered mine digs with the tool this decomposition chose, not the one it was recorded with', async () => {
    const digWith = (tool: string): Action[] => [
      { type: 'explore', object: 'stone', strategy: 'surface' },
      { type: 'mine', object: 'stone', tool, count: 3 },
    ]
    fake.script(plan(...digWith('wooden_pickaxe')))
    const llm = llmWith()
    const first = await run(
      { object: 'cobblestone', count: 3 },
      createPlanner(llm),
      world({ inventory: { wooden_pickaxe: 1 } }),
    )
    expect(first.out.ok).toBe(true)
    const inventory = { wooden_pickaxe: 1, stone_pickaxe: 1 }
    const again = await run({ object: 'cobblestone', count: 3 }, createPlanner(llm), world({ inventory }))
    expect(again.out).toMatchObject({ ok: true, llmCalls: 0 })
    expect(again.world.calls.find((c) => c.action.type === 'mine')!.action).toMatchObject({ tool: 'stone_pickaxe' })
  })

  it('(i) a remembered smelt burns the fuel this decomposition chose, not the one it was recorded with', async () => {
    // recorded with planks; now planks are also the material of a later craft and a charcoal is held
    const withPlanks: Action = { ...SMELT_ONE, materials: { raw_iron: 1 }, fuel: 'oak_planks' }
    fake.script(plan(withPlanks))
    const llm = llmWith()
    const kit = { raw_iron: 1, furnace: 1, oak_planks: 1 }
    expect((await run({ object: 'iron_ingot', count: 1 }, createPlanner(llm), world({ inventory: kit }))).out.ok).toBe(
      true,
    )
    const inventory = { raw_iron: 3, furnace: 1, charcoal: 1, oak_planks: 3 }
    const three = await run({ object: 'iron_ingot', count: 3 }, createPlanner(llm), world({ inventory }))
    expect(three.out).toMatchObject({ ok: true, llmCalls: 0 })
    expect(three.world.calls[0]!.action).toMatchObject({ type: 'smelt', count: 3, fuel: 'charcoal' })
    expect(three.world.state().inventory.oak_planks).toBe(3)
  })
})
