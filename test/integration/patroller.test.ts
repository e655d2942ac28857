/**
 * Issue 9, the patroller against a real world (practice server child, seed 42, a tree next to spawn): (1) a craft
 * whose product is taken away with /clear between the action and its verification is caught — the action claimed
 * success, the patroller turns it into `unverified` and the sub-goal hands back `inputs_lost`; (2) through the real
 * app in chat, an ingredient the plan relies on is removed with /clear while the bot is busy with an earlier
 * sub-goal: the executor sees the shortfall, re-plans the missing sub-goals and still finishes with a verified reply.
 */
import type { Bot } from 'mineflayer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { blueprintNames } from '../../src/actions/build.js'
import type { App } from '../../src/app.js'
import { createAnalyser } from '../../src/agent/analyser.js'
import { createBotHands } from '../../src/agent/bot-hands.js'
import { Patroller } from '../../src/agent/patroller.js'
import { createPlanner } from '../../src/agent/planner.js'
import type { Hands } from '../../src/agent/ports.js'
import { INPUTS_LOST, runSubGoal } from '../../src/agent/subgoal-runner.js'
import { createKnowledge } from '../../src/knowledge/index.js'
import { createSenses } from '../../src/perception/percipient.js'
import type { TaskEvent } from '../../src/schemas/task.js'
import type { ActionResult, Feedback } from '../../src/schemas/action.js'
import { Goal } from '../../src/schemas/goal.js'
import { startPracticeApp, type PracticeApp } from '../helpers/app.js'
import { command, countItem, waitFor, waitForMessage } from '../helpers/world.js'

let scene: PracticeApp
let app: App
let alice: Bot
let ghost: Bot
const kb = createKnowledge('1.20.2')

beforeAll(async () => {
  scene = await startPracticeApp({ seed: 42, env: { GHOST_GOAL_TIME_BUDGET_MS: '70000' } })
  ;({ app, ghost, alice } = scene)
}, 60_000)

afterAll(async () => {
  await scene?.stop()
})

const count = (name: string): number => countItem(ghost, name)

describe('patroller', () => {
  it('catches a claimed success whose effect was removed before verification', async () => {
    await command(alice, '/give Ghost oak_log 1')
    await waitFor(() => count('oak_log') === 1, 5000, 'Ghost holds 1 oak_log')
    const real = createBotHands(() => app.supervisor.current, 'test')
    const claimed: ActionResult[] = []
    // the world, not a stub: the real craft runs, then a player clears what it made before the patroller looks
    const hands: Hands = {
      ...real,
      async execute(action, signal) {
        const r = await real.execute(action, signal)
        claimed.push(r)
        if (action.type === 'craft' && r.ok) {
          alice.chat(`/clear Ghost ${action.object}`)
          await waitFor(() => count(action.object) === 0, 5000, `${action.object} cleared`)
        }
        return r
      },
    }
    const step = kb.decompose(Goal.parse({ object: 'oak_planks', count: 4 }), real.state().inventory)
    if (!step.ok) throw new Error(step.reason)
    expect(step.steps.map((s) => `${s.kind} ${s.goal.count} ${s.goal.object}`)).toEqual(['craft 4 oak_planks'])
    const history: Feedback[] = []
    const out = await runSubGoal(
      step.steps[0]!,
      {
        kb,
        planner: createPlanner(null),
        patroller: new Patroller(
          kb,
          createSenses(() => app.supervisor.current),
        ),
        hands,
        analyser: createAnalyser({ llm: null, kb }),
        memory: null,
        critic: { blueprints: blueprintNames() },
        queryLimit: 30,
      },
      {
        player: 'Alice',
        requestId: 'patrol-1',
        signal: new AbortController().signal,
        deadline: Date.now() + 30_000,
        onAction: () => {},
        history,
      },
    )
    expect(claimed.at(-1)).toMatchObject({ ok: true }) // the action itself said it crafted the planks
    const crafted = history.find((f) => f.action.type === 'craft')!
    expect(crafted.result).toMatchObject({ ok: false, reason: 'unverified' })
    expect(crafted.result.message).toMatch(/I reported crafting 4 oak_planks, but my inventory changed by 0/)
    expect(out.ok).toBe(false)
    expect(out.via).toBe(INPUTS_LOST) // the log went into the planks that vanished: the goal must be decomposed again
    expect(count('oak_planks')).toBe(0)
  })

  it('recovers from an ingredient cleared mid-task: re-plans and finishes with a verified reply', async () => {
    await command(alice, '/clear Ghost', { allowError: true }) // may answer "No items": fine
    await command(alice, '/give Ghost crafting_table 1')
    await command(alice, '/give Ghost stick 2')
    await waitFor(
      () => count('stick') === 2 && count('crafting_table') === 1,
      5000,
      'Ghost holds the table and 2 sticks',
    )
    const labels: string[][] = []
    let cleared = false
    const off = app.router.onTaskEvent((e: TaskEvent) => {
      if (e.kind !== 'progress') return
      labels.push(e.subgoals.map((s) => `${s.status} ${s.label}`))
      // the first sub-goal (mining a log, several seconds) is under way: take away the sticks the last one needs
      if (!cleared && e.subgoals.some((s) => s.status === 'running' && s.label.startsWith('mine'))) {
        cleared = true
        alice.chat('/clear Ghost stick')
      }
    })
    try {
      // the ack ("On it: …") and progress lines come first; the bot keeps the pickaxe ("for yourself": no delivery)
      const reply = waitForMessage(alice, /^(Done|I could|I can't|I gave up)[\s\S]*wooden_pickaxe/, {
        from: 'Ghost',
        timeoutMs: 75_000,
      })
      alice.chat('Ghost make a wooden pickaxe for yourself')
      const text = await reply
      expect(cleared).toBe(true)
      expect(text).toMatch(/^Done: 1 wooden_pickaxe\. Verified: 1 wooden_pickaxe now in inventory \(needed 1\)\./)
      expect(count('wooden_pickaxe')).toBe(1)
      // the first decomposition counted on the given sticks; a later one planned sticks again
      expect(labels[0]!.some((l) => l.includes('stick'))).toBe(false)
      expect(labels.some((ls) => ls.some((l) => /craft \d+ stick/.test(l)))).toBe(true)
    } finally {
      off()
    }
  }, 85_000)
})
