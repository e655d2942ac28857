/**
 * Issue 15's queue rules: interactive tasks (come, handing over what the bot carries) run ahead of long ones in
 * arrival order; one arriving while a long task runs pauses it (abort reason PREEMPTED, its owner told) and the long
 * task runs again first once the interactive ones are done; `waitingFor` counts a player's waiting tasks. While the
 * bot is off the server (`hold`) nothing starts and the running task pauses (reason DISCONNECTED, its owner told); it
 * runs again first on `release`.
 */
import { describe, expect, it } from 'vitest'
import { DISCONNECTED, PREEMPTED, TaskQueue, type QueuedTask } from '../../../src/router/queue.js'
import { onceEvent, sleep } from '../../../src/util/async.js'

function task(id: string, player: string, log: string[], ms: number, interactive = false): QueuedTask {
  return {
    id,
    player,
    command: id,
    text: id,
    interactive,
    onPreempt: (by) => log.push(`pause ${id} for ${by.id}`),
    onHold: () => log.push(`hold ${id}`),
    run: async (signal) => {
      log.push(`start ${id}`)
      await sleep(ms, signal).catch(() =>
        log.push(
          `aborted ${id}${signal.reason === PREEMPTED || signal.reason === DISCONNECTED ? ` (${signal.reason})` : ''}`,
        ),
      )
      log.push(`end ${id}`)
    },
  }
}

describe('TaskQueue priorities', () => {
  it('runs an interactive task ahead of waiting long ones, pausing the running long task, which resumes first', async () => {
    const q = new TaskQueue()
    const log: string[] = []
    q.enqueue(task('long', 'alice', log, 60))
    q.enqueue(task('other', 'bob', log, 1))
    await sleep(5)
    expect(q.enqueue(task('come', 'alice', log, 1, true))).toBe(0)
    expect(q.order()[0]!.id).toBe('come')
    await q.idle()
    expect(log).toEqual([
      'start long',
      'pause long for come',
      'aborted long (preempted)',
      'end long',
      'start come',
      'end come',
      'start long',
      'end long',
      'start other',
      'end other',
    ])
  })

  it('does not pause an interactive task for another; counts waiting tasks per player', async () => {
    const q = new TaskQueue()
    const log: string[] = []
    q.enqueue(task('give', 'alice', log, 20, true))
    await sleep(2)
    q.enqueue(task('come', 'bob', log, 1, true))
    for (const id of ['a1', 'a2']) q.enqueue(task(id, 'alice', log, 1))
    expect(q.waitingFor('alice')).toBe(2)
    expect(q.waitingFor('bob')).toBe(1)
    await q.idle()
    expect(log.filter((l) => l.startsWith('start')).map((l) => l.slice(6))).toEqual(['give', 'come', 'a1', 'a2'])
    expect(log.some((l) => l.startsWith('pause'))).toBe(false)
  })

  it('holds the queue while the bot is off the server: the running task pauses and runs again first on release', async () => {
    const q = new TaskQueue()
    const log: string[] = []
    const started = onceEvent(q, 'start', { timeoutMs: 1000 })
    q.enqueue(task('long', 'alice', log, 10_000))
    await started
    q.enqueue(task('other', 'bob', log, 1))
    const ended = onceEvent(q, 'end', { timeoutMs: 1000 })
    expect(q.hold()?.id).toBe('long')
    await ended
    // held: neither the paused task nor a new one (not even an interactive one) starts
    q.enqueue(task('come', 'bob', log, 1, true))
    await new Promise((r) => setImmediate(r)) // the queue's pump runs in a microtask
    expect(q.current()).toBeNull()
    expect(q.order().map((t) => t.id)).toEqual(['come', 'long', 'other'])
    const resumed = onceEvent<[QueuedTask]>(q, 'start', { timeoutMs: 1000, filter: (t) => t.id === 'long' })
    q.release()
    await resumed
    q.stopCurrent()
    await q.idle()
    expect(log.slice(0, 4)).toEqual(['start long', 'hold long', 'aborted long (disconnected)', 'end long'])
    expect(log.filter((l) => l.startsWith('start')).map((l) => l.slice(6))).toEqual(['long', 'come', 'long', 'other'])
  })
})
