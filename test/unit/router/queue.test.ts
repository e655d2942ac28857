/** The task queue: one at a time, round-robin across players, stop preempts, instant commands bypass it. */
import { describe, expect, it } from 'vitest'
import { TaskQueue, type QueuedTask } from '../../../src/router/queue.js'
import { sleep } from '../../../src/util/async.js'

function task(id: string, player: string, log: string[], ms = 5): QueuedTask {
  return {
    id,
    player,
    command: 'x',
    text: id,
    run: async (signal) => {
      log.push(`start ${id}`)
      await sleep(ms, signal).catch(() => log.push(`aborted ${id}`))
      log.push(`end ${id}`)
    },
  }
}

describe('TaskQueue', () => {
  it('serves waiting players round-robin, each player in order', async () => {
    const q = new TaskQueue()
    const log: string[] = []
    q.enqueue(task('a1', 'alice', log, 30))
    for (const id of ['a2', 'a3', 'a4']) q.enqueue(task(id, 'alice', log))
    q.enqueue(task('b1', 'bob', log))
    q.enqueue(task('b2', 'bob', log))
    q.enqueue(task('c1', 'carol', log))
    await sleep(1)
    // alice was just served (a1), so bob and carol come before her second task
    expect(q.order().map((t) => t.id)).toEqual(['b1', 'c1', 'a2', 'b2', 'a3', 'a4'])
    await q.idle()
    expect(log.filter((l) => l.startsWith('start')).map((l) => l.slice(6))).toEqual([
      'a1',
      'b1',
      'c1',
      'a2',
      'b2',
      'a3',
      'a4',
    ])
  })

  it('runs one task at a time and stopCurrent aborts the running one at once', async () => {
    const q = new TaskQueue()
    const log: string[] = []
    q.enqueue(task('long', 'alice', log, 10_000))
    q.enqueue(task('next', 'bob', log, 1))
    await sleep(10)
    expect(q.current()?.id).toBe('long')
    const t0 = Date.now()
    expect(q.stopCurrent()?.id).toBe('long')
    await q.idle()
    expect(Date.now() - t0).toBeLessThan(1000)
    expect(log).toEqual(['start long', 'aborted long', 'end long', 'start next', 'end next'])
  })

  it("clear drops one player's waiting tasks", async () => {
    const q = new TaskQueue()
    const log: string[] = []
    q.enqueue(task('a1', 'alice', log, 20))
    q.enqueue(task('a2', 'alice', log))
    q.enqueue(task('b1', 'bob', log))
    await sleep(1)
    expect(q.clear('alice')).toBe(1)
    expect(q.pending().map((t) => t.id)).toEqual(['b1'])
    await q.idle()
  })
})
