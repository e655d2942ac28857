/**
 * bench:mp5's start times (bench/lib/mp5-tasks.ts `startTimeOf`): a context task that names the day or the night starts
 * inside it with at least half of it left, whatever the seed; the others start at a time drawn from the seed; process
 * tasks keep the server's own start.
 */
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadTasks, startTimeOf } from '../../../bench/lib/mp5-tasks.js'
import { phaseOf } from '../../../src/perception/percipient.js'

const tasks = loadTasks(path.resolve(import.meta.dirname, '../../..'))
const SEEDS = Array.from({ length: 40 }, (_, i) => i + 1)
/** Ticks from `t` until the phase changes. */
function left(t: number): number {
  let n = 0
  while (phaseOf(t + n + 1) === phaseOf(t)) n++
  return n + 1
}

describe('bench:mp5 start times', () => {
  it('starts a task that names the night or the day inside it, with at least half of it left', () => {
    const named = tasks.filter((t) => t.kind === 'context' && t.period)
    expect(named.map((t) => t.id)).toEqual(expect.arrayContaining(['2-4', '3-1', '3-3', '4-1', '4-4']))
    for (const task of named)
      for (const seed of SEEDS) {
        const t = startTimeOf(task, seed)!
        expect(t).toBeGreaterThanOrEqual(0)
        expect(t).toBeLessThan(24000)
        expect(phaseOf(t), `${task.id} seed ${seed}`).toBe(task.period)
        expect(left(t), `${task.id} seed ${seed}`).toBeGreaterThanOrEqual(task.period === 'night' ? 4700 : 6200)
      }
  })

  it('draws any time of day for the other context tasks, and leaves process tasks to the server', () => {
    const free = tasks.find((t) => t.id === '2-1')!
    const phases = new Set(SEEDS.map((s) => phaseOf(startTimeOf(free, s)!)))
    expect(phases).toEqual(new Set(['day', 'dusk', 'night']))
    expect(startTimeOf(tasks.find((t) => t.kind === 'process')!, 1)).toBeNull()
  })
})
