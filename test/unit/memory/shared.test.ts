/**
 * memory.db shared between processes and embedders: two real child processes writing at once, a writer killed
 * with SIGKILL mid-loop, and opening a file whose vectors have another dimension (then `reembed`).
 */
import { afterAll, describe, expect, it } from 'vitest'
import { integrityCheck, localEmbedder, openMemory, reembed, type Embedder } from '../../../src/memory/index.js'
import { GhostError } from '../../../src/util/errors.js'
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { mine, run, startWriter, tempDir } from './helpers.js'

const tmp = tempDir()
afterAll(() => tmp.cleanup())

describe('several processes on one file', () => {
  it('two processes writing at once keep every plan and report no errors', async () => {
    const path = tmp.file('two.db')
    const n = 300
    const a = startWriter(path, n, 'GhostA', true)
    const b = startWriter(path, n, 'GhostB', true)
    await Promise.all([a.ready, b.ready])
    a.child.stdin!.end('go\n')
    b.child.stdin!.end('go\n')
    const [codeA, codeB] = await Promise.all([a.exited, b.exited])
    expect(a.stderr()).toBe('')
    expect(b.stderr()).toBe('')
    expect([codeA, codeB]).toEqual([0, 0])
    expect(a.ids).toHaveLength(n)
    expect(b.ids).toHaveLength(n)
    const store = openMemory({ path })
    expect(store.stats()).toMatchObject({ plans: 2 * n, bots: 2 })
    expect(new Set([...a.ids, ...b.ids]).size).toBe(2 * n)
    // The writes really interleaved (both wrote while the other was writing).
    expect(Math.min(...b.ids)).toBeLessThan(Math.max(...a.ids))
    expect(Math.min(...a.ids)).toBeLessThan(Math.max(...b.ids))
    expect((store.db.prepare('SELECT count(*) AS n FROM plan_vec').get() as { n: number }).n).toBe(2 * n)
    // Each goal's successes were summarised 5 at a time, none twice and none left with 5 or more pending.
    const goals = store.db.prepare(`SELECT p.goal_key AS key, count(*) AS successes, r.source_count AS summarised
      FROM plans p LEFT JOIN reference_plans r ON r.goal_key = p.goal_key WHERE p.outcome = 'success' GROUP BY p.goal_key`).all() as Array<{ successes: number; summarised: number }>
    expect(goals).toHaveLength(5)
    for (const g of goals) expect(g.summarised).toBe(Math.floor(g.successes / 5) * 5)
    expect(integrityCheck(store.db)).toBe('ok')
    store.close()
  }, 30_000)

  it('a writer killed with SIGKILL loses no committed plan and the file opens clean', async () => {
    const path = tmp.file('killed.db')
    const w = startWriter(path, 0, 'Doomed')
    await w.ready
    const deadline = Date.now() + 15_000
    while (w.ids.length < 60 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
    w.child.kill('SIGKILL')
    await w.exited
    const reported = [...w.ids]
    expect(reported.length).toBeGreaterThanOrEqual(60)
    const store = openMemory({ path })
    expect(integrityCheck(store.db)).toBe('ok')
    const have = new Set((store.db.prepare('SELECT id FROM plans').all() as Array<{ id: number }>).map((r) => r.id))
    for (const id of reported) expect(have.has(id)).toBe(true)
    // Every stored plan still has its vector (plan and vector are written in one transaction).
    const vecs = (store.db.prepare('SELECT count(*) AS n FROM plan_vec').get() as { n: number }).n
    expect(vecs).toBe(have.size)
    // And the file is writable again.
    await store.recordPlan(run('oak_log', 'obtain 1 oak log', [mine('oak_log')]))
    store.close()
  }, 30_000)

  it('a write waits out another process holding the lock (busy_timeout, then backoff and retry)', async () => {
    const path = tmp.file('locked.db')
    const store = openMemory({ path, busyTimeoutMs: 20 })
    const locker = spawn(process.execPath, ['--import', 'tsx', resolve(import.meta.dirname, 'fixtures/locker.ts'), path, '700'],
      { cwd: resolve(import.meta.dirname, '../../..'), stdio: ['ignore', 'pipe', 'inherit'] })
    const exited = new Promise((ok) => locker.on('exit', ok))
    await new Promise<void>((ok) => locker.stdout!.on('data', (d: Buffer) => { if (d.toString().includes('locked')) ok() }))
    const t0 = Date.now()
    const { id } = await store.recordPlan(run('oak_log', 'obtain 1 oak log', [mine('oak_log')]))
    expect(Date.now() - t0).toBeGreaterThan(100) // it had to wait for the other process
    expect(store.plan(id)).not.toBeNull()
    await exited
    store.close()
  }, 30_000)
})

describe('embedder changes', () => {
  const wide: Embedder = { ...localEmbedder(64), model: 'fake-remote-64' }

  it('opening vectors of another dimension fails with a GhostError saying how to re-embed', async () => {
    const path = tmp.file('dims.db')
    const store = openMemory({ path })
    await store.recordPlan(run('oak_log', 'obtain 4 oak log', [mine('oak_log', 4)]))
    await store.addKnowledge([{ text: 'oak trees grow in forests' }])
    store.close()

    let err: unknown
    try { openMemory({ path, embedder: wide }) } catch (e) { err = e }
    expect(err).toBeInstanceOf(GhostError)
    expect((err as GhostError).code).toBe('memory')
    expect((err as GhostError).message).toMatch(/256-dimensional vectors from local-hash-256/)
    expect((err as GhostError).message).toMatch(/fake-remote-64 makes 64-dimensional/)
    expect((err as GhostError).message).toContain('npm run memory -- reembed')

    // Same dimension, other model: also refused.
    expect(() => openMemory({ path, embedder: { ...localEmbedder(), model: 'other-256' } })).toThrow(/different meaning/)

    const result = await reembed(path, wide)
    expect(result).toEqual({ plans: 1, knowledge: 1, from: { model: 'local-hash-256', dim: 256 }, to: { model: 'fake-remote-64', dim: 64 } })
    const after = openMemory({ path, embedder: wide })
    expect(after.stats()).toMatchObject({ embedModel: 'fake-remote-64', embedDim: 64, plans: 1 })
    const similar = await after.retrieve({ goalText: 'obtain 8 oak log' })
    expect(similar[0]?.goalKey).toBe('oak_log')
    expect((await after.searchKnowledge('forest oak'))[0]?.text).toMatch(/oak trees/)
    after.close()
    expect(() => openMemory({ path })).toThrow(/reembed/)
  })
})
