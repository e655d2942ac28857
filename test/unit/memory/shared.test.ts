/**
 * memory.db as a file several processes share (SQLite only): the pragmas and migrations of the file, ten real bot
 * processes recording and retrieving at once, a writer killed with SIGKILL mid-loop while three others write, a write
 * waiting out another process's lock, and a file from before the sign codes getting them on open.
 */
import { afterAll, describe, expect, it } from 'vitest'
import Database from 'better-sqlite3'
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { integrityCheck, openMemory, SCHEMA_VERSION, type MemoryStore } from '../../../src/memory/index.js'
import type { SqliteBackend } from '../../../src/memory/sqlite-backend.js'
import { hashEmbed } from '../../../src/memory/embedder.js'
import { mine, run, startWriter, tempDir } from './helpers.js'

const tmp = tempDir()
afterAll(() => tmp.cleanup())

/** The raw better-sqlite3 handle behind a store (file-level checks only). */
const rawDb = (store: MemoryStore): Database.Database => (store.backend as SqliteBackend).db
const count = (store: MemoryStore, sql: string): number => (rawDb(store).prepare(sql).get() as { n: number }).n

describe('the memory file', () => {
  it('migrates an empty file to the current schema with WAL, vec0 tables and sign codes', async () => {
    const path = tmp.file('empty.db')
    writeFileSync(path, '')
    const store = await openMemory({ path })
    const db = rawDb(store)
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION)
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1)
    expect(db.pragma('busy_timeout', { simple: true })).toBeGreaterThanOrEqual(1000)
    const names = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>
    ).map((r) => r.name)
    for (const t of [
      'plans',
      'reference_plans',
      'lessons',
      'knowledge',
      'meta',
      'plan_vec',
      'plan_bits',
      'knowledge_vec',
    ])
      expect(names).toContain(t)
    const sql = (name: string): string =>
      (db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').get(name) as { sql: string }).sql
    expect(sql('plan_vec')).toContain('float[256]')
    expect(sql('plan_vec')).toContain('distance_metric=cosine')
    expect(sql('plan_bits')).toContain('bit[512]')
    await store.close()
    const again = await openMemory({ path })
    expect(integrityCheck(rawDb(again))).toBe('ok')
    await again.close()
  })

  it('refuses a file from a newer schema', async () => {
    const path = tmp.file('newer.db')
    const db = new Database(path)
    db.pragma('user_version = 99')
    db.close()
    await expect(openMemory({ path })).rejects.toThrow(/schema version 99/)
  })

  it('builds the sign codes of a file made before them, and its k-NN matches the exact one', async () => {
    const path = tmp.file('old.db')
    const store = await openMemory({ path })
    const texts = [
      'obtain 4 oak log',
      'obtain 3 iron ingot with furnace',
      'obtain 2 sand',
      'obtain 8 oak planks',
      'obtain 1 bread from wheat',
      'obtain 5 birch log',
    ]
    for (const [i, t] of texts.entries()) await store.recordPlan(run(`g${i}`, t, [mine('oak_log')]))
    rawDb(store).exec('DROP TABLE plan_bits')
    await store.close()
    const reopened = await openMemory({ path })
    expect(count(reopened, 'SELECT count(*) AS n FROM plan_bits')).toBe(texts.length)
    const q = hashEmbed('obtain 6 oak log')
    const backend = reopened.backend as SqliteBackend
    expect(backend.nearestSync(q, 3, 'codes').map((n) => n.planId)).toEqual(
      backend.nearestExactSync(q, 3).map((n) => n.planId),
    )
    await reopened.close()
  })
})

describe('several processes on one file', () => {
  it('ten bot processes recording and retrieving at once lose nothing, see no SQLITE_BUSY and summarise each batch once', async () => {
    const path = tmp.file('ten.db')
    const n = 60
    const writers = Array.from({ length: 10 }, (_, i) => startWriter(path, n, `Ghost${i}`, true))
    await Promise.all(writers.map((w) => w.ready))
    for (const w of writers) w.child.stdin!.end('go\n')
    const codes = await Promise.all(writers.map((w) => w.exited))
    for (const w of writers) expect(w.stderr()).toBe('')
    expect(codes).toEqual(writers.map(() => 0))
    for (const w of writers) {
      expect(w.ids).toHaveLength(n)
      expect(w.status.queued).toBe(0)
      expect(w.status.retrieved).toBeGreaterThan(0)
    }
    const all = writers.flatMap((w) => w.ids)
    expect(new Set(all).size).toBe(10 * n)
    // The writes really interleaved: some process wrote before another's last write and after its first.
    expect(writers.some((w) => Math.min(...w.ids) < Math.max(...writers[0]!.ids) && w !== writers[0])).toBe(true)

    const store = await openMemory({ path })
    expect(await store.stats()).toMatchObject({ plans: 10 * n, bots: 10 })
    expect(count(store, 'SELECT count(*) AS n FROM plan_vec')).toBe(10 * n)
    expect(count(store, 'SELECT count(*) AS n FROM plan_bits')).toBe(10 * n)
    // Each goal's successes were summarised 5 at a time, none twice and none left with 5 or more pending.
    const goals = rawDb(store)
      .prepare(`SELECT p.goal_key AS key, count(*) AS successes, sum(p.summarised) AS marked, r.source_count AS summarised
      FROM plans p LEFT JOIN reference_plans r ON r.goal_key = p.goal_key WHERE p.outcome = 'success' GROUP BY p.goal_key`)
      .all() as Array<{ successes: number; marked: number; summarised: number }>
    expect(goals).toHaveLength(5)
    for (const g of goals) {
      expect(g.summarised).toBe(Math.floor(g.successes / 5) * 5)
      expect(g.marked).toBe(g.summarised)
    }
    expect(integrityCheck(rawDb(store))).toBe('ok')
    await store.close()
  }, 120_000)

  it('a writer killed with SIGKILL while others write loses no committed plan, and the file opens clean', async () => {
    const path = tmp.file('killed.db')
    const others = Array.from({ length: 3 }, (_, i) => startWriter(path, 80, `Busy${i}`))
    const w = startWriter(path, 0, 'Doomed')
    await Promise.all([w.ready, ...others.map((o) => o.ready)])
    const deadline = Date.now() + 20_000
    while (w.ids.length < 60 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
    w.child.kill('SIGKILL')
    await w.exited
    const reported = [...w.ids]
    expect(reported.length).toBeGreaterThanOrEqual(60)
    expect(await Promise.all(others.map((o) => o.exited))).toEqual([0, 0, 0])
    for (const o of others) {
      expect(o.stderr()).toBe('')
      expect(o.ids).toHaveLength(80)
    }
    const store = await openMemory({ path })
    expect(integrityCheck(rawDb(store))).toBe('ok')
    const have = new Set((rawDb(store).prepare('SELECT id FROM plans').all() as Array<{ id: number }>).map((r) => r.id))
    for (const id of [...reported, ...others.flatMap((o) => o.ids)]) expect(have.has(id)).toBe(true)
    // Every stored plan still has its vector and its code (all three are written in one transaction).
    expect(count(store, 'SELECT count(*) AS n FROM plan_vec')).toBe(have.size)
    expect(count(store, 'SELECT count(*) AS n FROM plan_bits')).toBe(have.size)
    // And the file is writable again.
    expect((await store.recordPlan(run('oak_log', 'obtain 1 oak log', [mine('oak_log')]))).id).not.toBeNull()
    await store.close()
  }, 60_000)

  it('a write waits out another process holding the lock (busy_timeout, then backoff and retry)', async () => {
    const path = tmp.file('locked.db')
    const store = await openMemory({ path, busyTimeoutMs: 20 })
    const locker = spawn(
      process.execPath,
      ['--import', 'tsx', resolve(import.meta.dirname, 'fixtures/locker.ts'), path, '700'],
      { cwd: resolve(import.meta.dirname, '../../..'), stdio: ['ignore', 'pipe', 'inherit'] },
    )
    const exited = new Promise((ok) => locker.on('exit', ok))
    await new Promise<void>((ok) =>
      locker.stdout!.on('data', (d: Buffer) => {
        if (d.toString().includes('locked')) ok()
      }),
    )
    const t0 = Date.now()
    const { id } = await store.recordPlan(run('oak_log', 'obtain 1 oak log', [mine('oak_log')]))
    expect(Date.now() - t0).toBeGreaterThan(100) // it had to wait for the other process
    expect(await store.plan(id!)).not.toBeNull()
    expect(store.health()).toBeNull()
    await exited
    await store.close()
  }, 30_000)
})
