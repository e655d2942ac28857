/**
 * Memory scoped per server (issue 20), on both engines: with GHOST_MEMORY_SHARE=server a store reads only its own
 * server's plans and summaries (plus unscoped ones: stored before per-server memory, or imported), by exact goal key
 * and by similar goal text; summaries are made per server from that server's plans only; a store with scope null
 * ('network', and the inspection tools) reads every server's. An old SQLite file's reference plans survive the
 * migration as unscoped summaries.
 */
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../../src/config.js'
import { openMemory } from '../../../src/memory/index.js'
import { ENGINES, useEngine } from './engines.js'
import { craft, explore, mine, run, tempDir } from './helpers.js'

const A = 'a.example:25565'
const B = 'b.example:25565'
const text = 'obtain 1 stone pickaxe with crafting table'
const planA = [explore('stone'), mine('cobblestone', 3), craft('stone_pickaxe', 1, 'crafting_table')]
const planB = [mine('cobblestone', 3), craft('stone_pickaxe', 1, 'crafting_table')]

describe.each(ENGINES)('memory scope on %s', (engineName) => {
  const engine = useEngine(engineName)

  it("a server reads its own and unscoped plans and summaries, never another server's", async () => {
    const a = await engine.open('scope', { scope: A })
    for (let i = 0; i < 5; i++) await a.recordPlan(run('stone_pickaxe', text, planA, { server: A }))
    await a.recordPlan(run('iron_ingot', 'obtain 3 iron ingot with furnace', [mine('iron_ore', 3)], { server: A }))
    for (let i = 0; i < 4; i++) await a.recordPlan(run('stone_pickaxe', text, planB, { server: B }))
    await a.recordPlan(run('oak_log', 'obtain 4 oak log', [mine('oak_log', 4)], { server: B }))
    await a.recordPlan(run('dirt', 'obtain 2 dirt', [mine('dirt', 2)]))
    // A's five successes made A's summary; B's four are still pending (not mixed into A's)
    expect(await a.referencePlan('stone_pickaxe')).toMatchObject({ sourceCount: 5, actions: planA })
    expect((await a.retrieve({ goalKey: 'stone_pickaxe', goalText: text }))[0]).toMatchObject({ source: 'summary' })
    expect(await a.retrieve({ goalKey: 'oak_log', goalText: 'obtain 4 oak log' })).toEqual([])
    expect((await a.retrieve({ goalKey: 'dirt', goalText: 'obtain 2 dirt' }))[0]).toMatchObject({ match: 'exact' })
    const similar = await a.retrieve({ goalText: 'obtain 4 oak log please' }, { minSimilarity: -1, k: 10 })
    expect(similar.map((r) => r.goalKey).sort()).toEqual(['dirt', 'iron_ingot', 'stone_pickaxe'])
    await a.close()

    const b = await engine.open('scope', { scope: B })
    // B's first success, not A's summary; B's fifth success makes B's own summary
    expect((await b.retrieve({ goalKey: 'stone_pickaxe', goalText: text }))[0]).toMatchObject({
      source: 'first_success',
      actions: planB,
    })
    expect((await b.recordPlan(run('stone_pickaxe', text, planB, { server: B }))).summarised).toBe(true)
    expect(await b.referencePlan('stone_pickaxe')).toMatchObject({ sourceCount: 5, actions: planB })
    expect(await b.retrieve({ goalKey: 'iron_ingot', goalText: 'obtain 3 iron ingot with furnace' })).toEqual([])
    expect((await b.show('iron_ingot'))?.plans ?? []).toEqual([])
    await b.close()

    const network = await engine.open('scope', { scope: null })
    const all = await network.retrieve({ goalText: 'obtain 4 oak log please' }, { minSimilarity: -1, k: 10 })
    expect(all.map((r) => r.goalKey).sort()).toEqual(['dirt', 'iron_ingot', 'oak_log', 'stone_pickaxe'])
    expect(await network.stats()).toMatchObject({ references: 2 })
    await network.close()
  })
})

describe('GHOST_MEMORY_SHARE and old files', () => {
  it("defaults to 'server', accepts 'network' and refuses anything else with how to fix it", () => {
    const d = loadConfig({}, '')
    expect(d.ok && d.config.GHOST_MEMORY_SHARE).toBe('server')
    const n = loadConfig({ GHOST_MEMORY_SHARE: 'network' }, '')
    expect(n.ok && n.config.GHOST_MEMORY_SHARE).toBe('network')
    const bad = loadConfig({ GHOST_MEMORY_SHARE: 'everyone' }, '')
    expect(bad.ok).toBe(false)
    if (!bad.ok)
      expect(bad.problems[0]).toMatchObject({ key: 'GHOST_MEMORY_SHARE', fix: expect.stringMatching(/server/) })
  })

  it('keeps the reference plans of a file from before per-server memory, as unscoped summaries', async () => {
    const tmp = tempDir()
    try {
      const path = tmp.file('old.db')
      let store = await openMemory({ path })
      for (let i = 0; i < 5; i++) await store.recordPlan(run('stone_pickaxe', text, planA))
      await store.close()
      // Turn the file back into schema 4: reference plans keyed by goal alone.
      const db = new Database(path)
      db.exec(`CREATE TABLE old_refs AS SELECT goal_key, goal_text, actions, source_count, summariser, updated_at FROM reference_plans;
        DROP TABLE reference_plans;
        CREATE TABLE reference_plans (goal_key TEXT PRIMARY KEY, goal_text TEXT NOT NULL, actions TEXT NOT NULL CHECK (json_valid(actions)),
          source_count INTEGER NOT NULL, summariser TEXT NOT NULL, updated_at INTEGER NOT NULL);
        INSERT INTO reference_plans SELECT * FROM old_refs; DROP TABLE old_refs; PRAGMA user_version = 4;`)
      db.close()
      store = await openMemory({ path, scope: A })
      expect(await store.referencePlan('stone_pickaxe')).toMatchObject({ sourceCount: 5, actions: planA })
      await store.close()
    } finally {
      tmp.cleanup()
    }
  })
})
