/**
 * MemoryStore on real SQLite files: migrations from an empty file, recording and validation, retrieval by exact goal
 * key and by similarity, the 5-plan summarisation, lessons, knowledge, stats/list/show/forget and export/import.
 */
import { afterAll, describe, expect, it } from 'vitest'
import Database from 'better-sqlite3'
import { writeFileSync } from 'node:fs'
import { exportMemory, importMemory, integrityCheck, openMemory, SCHEMA_VERSION, summariserFrom } from '../../../src/memory/index.js'
import { GhostError } from '../../../src/util/errors.js'
import { goalKey } from '../../../src/schemas/goal.js'
import { attack, craft, explore, mine, run, tempDir } from './helpers.js'

const tmp = tempDir()
afterAll(() => tmp.cleanup())

describe('memory database', () => {
  it('migrates an empty file to the current schema with WAL and vec0 tables', () => {
    const path = tmp.file('empty.db')
    writeFileSync(path, '')
    const store = openMemory({ path })
    expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION)
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1)
    expect(store.db.pragma('busy_timeout', { simple: true })).toBeGreaterThanOrEqual(1000)
    const names = (store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((r) => r.name)
    for (const t of ['plans', 'reference_plans', 'lessons', 'knowledge', 'meta', 'plan_vec', 'knowledge_vec']) expect(names).toContain(t)
    const vecSql = (store.db.prepare("SELECT sql FROM sqlite_master WHERE name = 'plan_vec'").get() as { sql: string }).sql
    expect(vecSql).toContain('float[256]')
    expect(vecSql).toContain('distance_metric=cosine')
    expect(store.stats()).toMatchObject({ plans: 0, embedModel: 'local-hash-256', embedDim: 256, schemaVersion: SCHEMA_VERSION })
    store.close()
    // Re-opening is a no-op migration and the file is sound.
    const again = openMemory({ path })
    expect(integrityCheck(again.db)).toBe('ok')
    again.close()
  })

  it('refuses a file from a newer schema', () => {
    const path = tmp.file('newer.db')
    const db = new Database(path)
    db.pragma('user_version = 99')
    db.close()
    expect(() => openMemory({ path })).toThrow(/schema version 99/)
  })
})

describe('recording and retrieval', () => {
  const path = tmp.file('retrieve.db')

  it('validates actions on write', async () => {
    const store = openMemory({ path })
    const bad = run('oak_log', 'obtain 1 oak log', [{ type: 'fly', object: 'moon' } as never])
    await expect(store.recordPlan(bad)).rejects.toThrow(GhostError)
    await expect(store.recordPlan(run('oak_log', 'obtain 1 oak log', []))).rejects.toThrow(/actions/)
    expect(store.stats().plans).toBe(0)
    store.close()
  })

  it('finds the exact goal key first, else similar goals above the threshold', async () => {
    const store = openMemory({ path })
    const ironKey = goalKey({ object: 'iron_ingot', count: 3 })
    await store.recordPlan(run('oak_log', 'obtain 4 oak log', [explore('oak_log'), mine('oak_log', 4)]))
    await store.recordPlan(run(ironKey, 'obtain 3 iron ingot with furnace from raw iron', [mine('iron_ore', 3), craft('iron_ingot', 3, 'furnace')]))
    await store.recordPlan(run('diamond', 'obtain 1 diamond with iron pickaxe', [mine('diamond', 1)], { outcome: 'failure' }))

    const exact = await store.retrieve({ goalKey: 'oak_log', goalText: 'anything at all' })
    expect(exact).toHaveLength(1)
    expect(exact[0]).toMatchObject({ match: 'exact', similarity: 1, goalKey: 'oak_log', source: 'first_success' })
    expect(exact[0]!.actions).toEqual([explore('oak_log'), mine('oak_log', 4)])

    const similar = await store.retrieve({ goalKey: 'iron_ingot@biome=desert', goalText: 'obtain 2 iron ingot with furnace from iron ore' })
    expect(similar[0]).toMatchObject({ match: 'similar', goalKey: ironKey })
    expect(similar[0]!.similarity).toBeGreaterThan(0.6)
    expect(similar.map((s) => s.goalKey)).not.toContain('oak_log')

    // Nothing similar enough; failed-only goals are never a reference.
    expect(await store.retrieve({ goalKey: 'bread', goalText: 'obtain 3 bread from wheat' })).toEqual([])
    expect(await store.retrieve({ goalKey: 'diamond', goalText: 'obtain 1 diamond with iron pickaxe' })).toEqual([])
    // The threshold is a parameter.
    const loose = await store.retrieve({ goalText: 'obtain 3 bread from wheat' }, { minSimilarity: -1, k: 5 })
    expect(loose.length).toBe(2)
    store.close()
  })

  it('keeps who asked and which bot ran the plan', async () => {
    const store = openMemory({ path })
    const { id } = await store.recordPlan(run('sand', 'obtain 2 sand', [mine('sand', 2)], { player: 'bob', bot: 'Ghost2', server: 'localhost:25565' }))
    expect(store.plan(id)).toMatchObject({ player: 'bob', bot: 'Ghost2', server: 'localhost:25565', outcome: 'success', summarised: false })
    store.close()
  })
})

describe('summarisation into a reference plan', () => {
  it('summarises every 5 new successful plans and serves the summary first', async () => {
    const store = openMemory({ path: tmp.file('summary.db') })
    const key = 'stone_pickaxe'
    const text = 'obtain 1 stone pickaxe with crafting table'
    const core = [mine('cobblestone', 3), craft('stone_pickaxe', 1, 'crafting_table')]
    const variants = [
      [explore('stone'), attack('zombie'), ...core],
      [explore('stone'), ...core],
      [mine('oak_log', 1), explore('stone'), mine('cobblestone', 3), ...core],
      [explore('stone'), mine('dirt', 2), ...core],
      [explore('stone'), explore('stone'), ...core, mine('coal_ore', 1)],
    ]
    for (let i = 0; i < 4; i++) expect((await store.recordPlan(run(key, text, variants[i]!))).summarised).toBe(false)
    await store.recordPlan(run(key, text, [mine('dirt', 1)], { outcome: 'failure' }))
    expect((await store.retrieve({ goalKey: key, goalText: text }))[0]!.source).toBe('first_success')

    expect((await store.recordPlan(run(key, text, variants[4]!))).summarised).toBe(true)
    const [ref] = await store.retrieve({ goalKey: key, goalText: text })
    expect(ref).toMatchObject({ match: 'exact', source: 'summary', planId: null })
    // Steps common to all five are kept; the lucky zombie, dirt, coal and log steps are dropped.
    expect(ref!.actions).toEqual([explore('stone'), ...core])
    expect(store.referencePlan(key)).toMatchObject({ sourceCount: 5, summariser: 'offline-merge' })
    expect(store.stats()).toMatchObject({ plans: 6, references: 1 })

    // The next five successes update the summary; earlier plans are not summarised twice.
    for (let i = 0; i < 5; i++) await store.recordPlan(run(key, text, [explore('stone'), ...core]))
    expect(store.referencePlan(key)).toMatchObject({ sourceCount: 10 })
    expect((store.db.prepare("SELECT count(*) AS n FROM plans WHERE summarised = 0 AND outcome = 'success'").get() as { n: number }).n).toBe(0)
    store.close()
  })

  it('uses an injected summariser and keeps plans pending when it fails', async () => {
    let calls = 0
    const llm = summariserFrom('fake-llm', (input) => {
      calls++
      if (calls === 1) return Promise.reject(new Error('llm down'))
      return Promise.resolve([input.plans[0]![0]!])
    })
    const store = openMemory({ path: tmp.file('summary-llm.db'), summariser: llm })
    for (let i = 0; i < 5; i++) await store.recordPlan(run('coal', 'obtain 1 coal', [mine('coal_ore', 1), mine('stone', i + 1)]))
    expect(store.referencePlan('coal')).toBeNull()
    expect(await store.summariseGoal('coal')).toBe(true)
    expect(store.referencePlan('coal')).toMatchObject({ summariser: 'fake-llm', actions: [mine('coal_ore', 1)] })
    store.close()
  })
})

describe('lessons, knowledge and the chat-command API', () => {
  it('stores lessons and knowledge, lists, shows and forgets goals', async () => {
    const store = openMemory({ path: tmp.file('api.db') })
    await store.recordPlan(run('oak_log', 'obtain 4 oak log', [mine('oak_log', 4)]))
    await store.recordPlan(run('oak_log', 'obtain 4 oak log', [mine('oak_log', 4)], { outcome: 'failure', player: 'bob' }))
    await store.recordPlan(run('sand', 'obtain 2 sand', [mine('sand', 2)], { createdAt: 1 }))
    await store.addLesson({ goalKey: 'oak_log', cause: 'no trees nearby', suggestions: ['explore surface first'] })
    await store.addKnowledge([{ source: 'wiki', text: 'Iron ore is found between y 0 and 64 and needs a stone pickaxe' },
      { source: 'wiki', text: 'Sand is found in deserts and on beaches' }])
    const hits = await store.searchKnowledge('where do I find iron ore', 1)
    expect(hits[0]!.text).toMatch(/Iron ore/)

    expect(store.stats()).toMatchObject({ plans: 3, successes: 2, failures: 1, goals: 2, lessons: 1, knowledge: 2, players: 2, bots: 1 })
    const list = store.list(10)
    expect(list.map((g) => g.goalKey)).toEqual(['oak_log', 'sand'])
    expect(list[0]).toMatchObject({ plans: 2, successes: 1, hasReference: false })
    const shown = store.show('oak_log')!
    expect(shown.plans).toHaveLength(2)
    expect(shown.lessons[0]).toMatchObject({ cause: 'no trees nearby', suggestions: ['explore surface first'] })
    expect(store.show('nothing')).toBeNull()

    expect(await store.forget('oak_log')).toEqual({ plans: 2, references: 0, lessons: 1 })
    expect(store.show('oak_log')).toBeNull()
    expect(await store.retrieve({ goalText: 'obtain 4 oak log' })).toEqual([])
    expect((store.db.prepare('SELECT count(*) AS n FROM plan_vec').get() as { n: number }).n).toBe(1)
    store.close()
  })

  it('exports and imports without duplicating plans', async () => {
    const src = openMemory({ path: tmp.file('export.db') })
    for (let i = 0; i < 6; i++) await src.recordPlan(run('coal', 'obtain 1 coal', [explore('coal_ore'), mine('coal_ore', 1)], { createdAt: 1000 + i }))
    await src.addLesson({ goalKey: 'coal', cause: 'lava' })
    await src.addKnowledge([{ text: 'Coal ore is common in stone' }])
    const dump = exportMemory(src)
    src.close()
    expect(dump.plans).toHaveLength(6)
    expect(dump.references).toHaveLength(1)

    const dst = openMemory({ path: tmp.file('import.db') })
    const first = await importMemory(dst, JSON.parse(JSON.stringify(dump)))
    expect(first).toMatchObject({ plans: 6, skippedPlans: 0, references: 1, lessons: 1, knowledge: 1 })
    expect(await importMemory(dst, dump)).toMatchObject({ plans: 0, skippedPlans: 6, references: 0, lessons: 0, knowledge: 0 })
    expect(dst.stats()).toMatchObject({ plans: 6, references: 1 })
    expect((await dst.retrieve({ goalKey: 'coal', goalText: 'x' }))[0]!.source).toBe('summary')
    await expect(importMemory(dst, { format: 'other' })).rejects.toThrow(/not a Ghostcraft memory export/)
    dst.close()
  })
})
