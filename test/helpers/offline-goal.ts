/**
 * One goal run by the real executor with the offline planner (no LLM), the real patroller and analyser, against the
 * sim world (`test/helpers/sim-world.ts`) — the set-up the agent's unit tests share. Returns the outcome and every
 * task event; `hands` swaps in other hands over the same world (e.g. with a `recoverDrops`), `signal` and `onEvent`
 * let a test cancel the task as it goes. `simGoal` makes the world too and returns it with the run; `failures` and
 * `labels` read what happened (the failed actions, every action as "type object").
 */
import { createAnalyser } from '../../src/agent/analyser.js'
import { runGoal, type GoalOutcome } from '../../src/agent/executor.js'
import { Patroller } from '../../src/agent/patroller.js'
import type { Hands } from '../../src/agent/ports.js'
import { createPlanner } from '../../src/agent/planner.js'
import type { Knowledge } from '../../src/knowledge/index.js'
import { Goal, type GoalInput } from '../../src/schemas/goal.js'
import type { TaskEvent } from '../../src/schemas/task.js'
import { createSimWorld, type SimWorld, type SimWorldOptions } from './sim-world.js'

export interface OfflineGoalRun {
  out: GoalOutcome
  events: TaskEvent[]
}

export async function runOfflineGoal(
  kb: Knowledge,
  world: SimWorld,
  goal: GoalInput,
  opts: { budgetMs?: number; hands?: Hands; signal?: AbortSignal; onEvent?: (e: TaskEvent) => void } = {},
): Promise<OfflineGoalRun> {
  const events: TaskEvent[] = []
  const out = await runGoal(
    Goal.parse(goal),
    {
      kb,
      planner: createPlanner(null),
      patroller: new Patroller(kb, world),
      hands: opts.hands ?? world,
      senses: world,
      analyser: createAnalyser(),
      memory: null,
      critic: { blueprints: Object.keys(world.blueprints) },
      queryLimit: 30,
      goalTimeBudgetMs: opts.budgetMs ?? 60_000,
    },
    {
      player: 'alice',
      requestId: 'r1',
      taskId: 't1',
      signal: opts.signal ?? new AbortController().signal,
      progress: (e) => {
        events.push(e)
        opts.onEvent?.(e)
      },
    },
  )
  return { out, events }
}

/** A fresh sim world made with `opts`, the goal run in it (`runOfflineGoal`), and the world for the test to read. */
export async function simGoal(
  kb: Knowledge,
  goal: GoalInput,
  opts: SimWorldOptions = {},
  budgetMs = 60_000,
): Promise<OfflineGoalRun & { world: SimWorld }> {
  const world = createSimWorld(kb, opts)
  return { ...(await runOfflineGoal(kb, world, goal, { budgetMs })), world }
}

/** The failed actions of a run, as reason and sentence. */
export const failures = (events: TaskEvent[]): Array<{ reason: string | null; message: string }> =>
  events.flatMap((e) => (e.kind === 'action' && !e.ok ? [{ reason: e.reason, message: e.message }] : []))

const label = (a: { type: string; object?: string }): string => `${a.type} ${a.object ?? ''}`.trim()
/** Every action the world served, in order, as "type object" ("craft stick", "dig_down"). */
export const labels = (w: SimWorld): string[] =>
  w.calls.map((c) => label(c.action as { type: string; object?: string }))
