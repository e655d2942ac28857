/**
 * One suite, both engines: MemoryStore on a real SQLite file and on PostgreSQL (PGlite + pgvector over the wire with
 * the `pg` client). Migrations from an empty memory, recording and validation, retrieval by exact goal key and by
 * similarity, the 5-plan summarisation, lessons (bad rows skipped), knowledge, stats/list/show/forget,
 * export/import (also from one engine to the other), embedder changes with `reembed`, and — PostgreSQL — memory
 * going away and coming back without a request failing.
 */
import { describe, expect, it } from 'vitest'
import {
  exportMemory,
  importMemory,
  localEmbedder,
  reembed,
  SCHEMA_VERSION,
  summariserFrom,
  type Embedder,
} from '../../../src/memory/index.js'
import { PG_SCHEMA_VERSION } from '../../../src/memory/pgdb.js'
import { GhostError } from '../../../src/util/errors.js'
import { goalKey } from '../../../src/schemas/goal.js'
import { ENGINES, startEngine, useEngine } from './engines.js'
import { attack, craft, explore, mine, run } from './helpers.js'

describe.each(ENGINES)('memory on %s', (engineName) => {
  const engine = useEngine(engineName)

  it('migrates an empty memory and opens it again', async () => {
    const store = await engine.open('empty')
    expect(store.kind).toBe(engineName)
    expect(store.available).toBe(true)
    expect(await store.stats()).toMatchObject({
      plans: 0,
      embedModel: 'local-hash-256',
      embedDim: 256,
      schemaVersion: engineName === 'sqlite' ? SCHEMA_VERSION : PG_SCHEMA_VERSION,
    })
    await store.close()
    const again = await engine.open('empty')
    expect((await again.stats()).plans).toBe(0)
    await again.close()
  })

  it('validates actions on write', async () => {
    const store = await engine.open('validate')
    const bad = run('oak_log', 'obtain 1 oak log', [{ type: 'fly', object: 'moon' } as never])
    await expect(store.recordPlan(bad)).rejects.toThrow(GhostError)
    await expect(store.recordPlan(run('oak_log', 'obtain 1 oak log', []))).rejects.toThrow(/actions/)
    expect((await store.stats()).plans).toBe(0)
    await store.close()
  })

  it('finds the exact goal key first, else similar goals above the threshold, and keeps who ran a plan', async () => {
    const store = await engine.open('retrieve')
    const ironKey = goalKey({ object: 'iron_ingot', count: 3 })
    await store.recordPlan(run('oak_log', 'obtain 4 oak log', [explore('oak_log'), mine('oak_log', 4)]))
    await store.recordPlan(
      run(ironKey, 'obtain 3 iron ingot with furnace from raw iron', [
        mine('iron_ore', 3),
        craft('iron_ingot', 3, 'furnace'),
      ]),
    )
    await store.recordPlan(
      run('diamond', 'obtain 1 diamond with iron pickaxe', [mine('diamond', 1)], { outcome: 'failure' }),
    )

    const exact = await store.retrieve({ goalKey: 'oak_log', goalText: 'anything at all' })
    expect(exact).toHaveLength(1)
    expect(exact[0]).toMatchObject({ match: 'exact', similarity: 1, goalKey: 'oak_log', source: 'first_success' })
    expect(exact[0]!.actions).toEqual([explore('oak_log'), mine('oak_log', 4)])

    const similar = await store.retrieve({
      goalKey: 'iron_ingot@biome=desert',
      goalText: 'obtain 2 iron ingot with furnace from iron ore',
    })
    expect(similar[0]).toMatchObject({ match: 'similar', goalKey: ironKey })
    expect(similar[0]!.similarity).toBeGreaterThan(0.6)
    expect(similar.map((s) => s.goalKey)).not.toContain('oak_log')

    // Nothing similar enough; failed-only goals are never a reference.
    expect(await store.retrieve({ goalKey: 'bread', goalText: 'obtain 3 bread from wheat' })).toEqual([])
    expect(await store.retrieve({ goalKey: 'diamond', goalText: 'obtain 1 diamond with iron pickaxe' })).toEqual([])
    // The threshold is a parameter.
    expect(await store.retrieve({ goalText: 'obtain 3 bread from wheat' }, { minSimilarity: -1, k: 5 })).toHaveLength(2)

    const { id } = await store.recordPlan(
      run('sand', 'obtain 2 sand', [mine('sand', 2)], { player: 'bob', bot: 'Ghost2', server: 'localhost:25565' }),
    )
    expect(await store.plan(id!)).toMatchObject({
      player: 'bob',
      bot: 'Ghost2',
      server: 'localhost:25565',
      outcome: 'success',
      summarised: false,
    })
    await store.close()
  })

  it('summarises every 5 new successful plans and serves the summary first', async () => {
    const store = await engine.open('summary')
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
    expect(await store.referencePlan(key)).toMatchObject({ sourceCount: 5, summariser: 'offline-merge' })
    expect(await store.stats()).toMatchObject({ plans: 6, references: 1 })

    // The next five successes update the summary; earlier plans are not summarised twice.
    for (let i = 0; i < 5; i++) await store.recordPlan(run(key, text, [explore('stone'), ...core]))
    expect(await store.referencePlan(key)).toMatchObject({ sourceCount: 10 })
    expect((await store.show(key, 20))!.plans.filter((p) => p.outcome === 'success' && !p.summarised)).toHaveLength(0)
    await store.close()
  })

  it('uses an injected summariser and keeps plans pending when it fails', async () => {
    let calls = 0
    const llm = summariserFrom('fake-llm', (input) => {
      calls++
      if (calls === 1) return Promise.reject(new Error('llm down'))
      return Promise.resolve([input.plans[0]![0]!])
    })
    const store = await engine.open('summary-llm', { summariser: llm })
    for (let i = 0; i < 5; i++)
      await store.recordPlan(run('coal', 'obtain 1 coal', [mine('coal_ore', 1), mine('stone', i + 1)]))
    expect(await store.referencePlan('coal')).toBeNull()
    expect(await store.summariseGoal('coal')).toBe(true)
    expect(await store.referencePlan('coal')).toMatchObject({ summariser: 'fake-llm', actions: [mine('coal_ore', 1)] })
    await store.close()
  })

  it('stores lessons and knowledge, lists, shows and forgets goals', async () => {
    const store = await engine.open('api')
    await store.recordPlan(run('oak_log', 'obtain 4 oak log', [mine('oak_log', 4)]))
    await store.recordPlan(
      run('oak_log', 'obtain 4 oak log', [mine('oak_log', 4)], { outcome: 'failure', player: 'bob' }),
    )
    await store.recordPlan(run('sand', 'obtain 2 sand', [mine('sand', 2)], { createdAt: 1 }))
    await store.addLesson({ goalKey: 'oak_log', cause: 'no trees nearby', suggestions: ['explore surface first'] })
    await store.addKnowledge([
      { source: 'wiki', text: 'Iron ore is found between y 0 and 64 and needs a stone pickaxe' },
      { source: 'wiki', text: 'Sand is found in deserts and on beaches' },
    ])
    expect((await store.searchKnowledge('where do I find iron ore', 1))[0]!.text).toMatch(/Iron ore/)

    expect(await store.stats()).toMatchObject({
      plans: 3,
      successes: 2,
      failures: 1,
      goals: 2,
      lessons: 1,
      knowledge: 2,
      players: 2,
      bots: 1,
    })
    const list = await store.list(10)
    expect(list.map((g) => g.goalKey)).toEqual(['oak_log', 'sand'])
    expect(list[0]).toMatchObject({ plans: 2, successes: 1, hasReference: false })
    const shown = (await store.show('oak_log'))!
    expect(shown.plans).toHaveLength(2)
    expect(shown.lessons[0]).toMatchObject({ cause: 'no trees nearby', suggestions: ['explore surface first'] })
    expect(await store.show('nothing')).toBeNull()

    expect(await store.forget('oak_log')).toEqual({ plans: 2, references: 0, lessons: 1 })
    expect(await store.show('oak_log')).toBeNull()
    expect(await store.retrieve({ goalText: 'obtain 4 oak log' })).toEqual([])
    expect(await store.retrieve({ goalText: 'obtain 2 sand' })).toHaveLength(1)
    await store.close()
  })

  it('skips stored lesson rows that no longer validate (issue 20)', async () => {
    const store = await engine.open('bad-lessons')
    await store.addLesson({ goalKey: 'coal', cause: 'lava', suggestions: ['bring water'] })
    await store.close()
    await engine.exec(
      'bad-lessons',
      `INSERT INTO lessons (goal_key, cause, suggestions, created_at) VALUES ('coal', 'x', '"not a list"', 5);
      INSERT INTO lessons (goal_key, cause, suggestions, created_at) VALUES ('coal', '', '[]', 6);`,
    )
    const again = await engine.open('bad-lessons')
    const lessons = await again.lessons('coal')
    expect(lessons).toHaveLength(1)
    expect(lessons[0]).toMatchObject({ cause: 'lava', suggestions: ['bring water'] })
    expect((await again.show('coal'))!.lessons).toHaveLength(1)
    expect((await exportMemory(again)).lessons).toHaveLength(1)
    await again.close()
  })

  it('exports and imports without duplicating plans', async () => {
    const src = await engine.open('export')
    for (let i = 0; i < 6; i++)
      await src.recordPlan(
        run('coal', 'obtain 1 coal', [explore('coal_ore'), mine('coal_ore', 1)], { createdAt: 1000 + i }),
      )
    await src.addLesson({ goalKey: 'coal', cause: 'lava' })
    await src.addKnowledge([{ text: 'Coal ore is common in stone' }])
    const dump = await exportMemory(src)
    await src.close()
    expect(dump.plans).toHaveLength(6)
    expect(dump.references).toHaveLength(1)

    const dst = await engine.open('import')
    expect(await importMemory(dst, JSON.parse(JSON.stringify(dump)))).toMatchObject({
      plans: 6,
      skippedPlans: 0,
      references: 1,
      lessons: 1,
      knowledge: 1,
    })
    expect(await importMemory(dst, dump)).toMatchObject({
      plans: 0,
      skippedPlans: 6,
      references: 0,
      lessons: 0,
      knowledge: 0,
    })
    expect(await dst.stats()).toMatchObject({ plans: 6, references: 1 })
    expect((await dst.retrieve({ goalKey: 'coal', goalText: 'x' }))[0]!.source).toBe('summary')
    await expect(importMemory(dst, { format: 'other' })).rejects.toThrow(/not a Ghostcraft memory export/)
    await dst.close()
  })

  it('refuses vectors of another embedder with a GhostError saying how to re-embed, and reembed fixes it', async () => {
    const wide: Embedder = { ...localEmbedder(64), model: 'fake-remote-64' }
    const store = await engine.open('dims')
    await store.recordPlan(run('oak_log', 'obtain 4 oak log', [mine('oak_log', 4)]))
    await store.addKnowledge([{ text: 'oak trees grow in forests' }])
    await store.close()

    const err = await engine.open('dims', { embedder: wide }).then(
      () => null,
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(GhostError)
    expect((err as GhostError).code).toBe('memory')
    expect((err as GhostError).message).toMatch(/256-dimensional vectors from local-hash-256/)
    expect((err as GhostError).message).toMatch(/fake-remote-64 makes 64-dimensional/)
    expect((err as GhostError).message).toContain('npm run memory -- reembed')
    expect((err as GhostError).message).not.toContain('hunter2')
    await expect(engine.open('dims', { embedder: { ...localEmbedder(), model: 'other-256' } })).rejects.toThrow(
      /different meaning/,
    )

    const result = await reembed(await engine.url('dims'), wide)
    expect(result).toEqual({
      plans: 1,
      knowledge: 1,
      from: { model: 'local-hash-256', dim: 256 },
      to: { model: 'fake-remote-64', dim: 64 },
    })
    const after = await engine.open('dims', { embedder: wide })
    expect(await after.stats()).toMatchObject({ embedModel: 'fake-remote-64', embedDim: 64, plans: 1 })
    expect((await after.retrieve({ goalText: 'obtain 8 oak log' }))[0]?.goalKey).toBe('oak_log')
    expect((await after.searchKnowledge('forest oak'))[0]?.text).toMatch(/oak trees/)
    await after.close()
    await expect(engine.open('dims')).rejects.toThrow(/reembed/)
  })

  it.runIf(engineName === 'postgres')(
    'plans without memory while PostgreSQL is unreachable, says so, and catches up on reconnect',
    async () => {
      const store = await engine.open('outage', { reconnectMs: 60_000 })
      await store.recordPlan(run('oak_log', 'obtain 4 oak log', [mine('oak_log', 4)]))
      await engine.pause!()
      // Nothing fails: reads answer nothing, writes wait in the outbox.
      expect(await store.retrieve({ goalKey: 'oak_log', goalText: 'obtain 4 oak log' })).toEqual([])
      expect(await store.recordPlan(run('sand', 'obtain 2 sand', [mine('sand', 2)]))).toEqual({
        id: null,
        summarised: false,
      })
      expect(await store.addLesson({ goalKey: 'sand', cause: 'no desert' })).toBeNull()
      expect(await store.lessons('sand')).toEqual([])
      expect(store.available).toBe(false)
      const health = store.health()!
      expect(health).toMatch(/unreachable.*planning without memory, 2 writes waiting/)
      expect(health).not.toContain('hunter2')
      await expect(store.stats()).rejects.toThrow(/unreachable/)
      expect(await store.reconnect()).toBe(false)

      await engine.resume!()
      expect(await store.reconnect()).toBe(true)
      expect(store.health()).toBeNull()
      expect(await store.stats()).toMatchObject({ plans: 2, lessons: 1 })
      expect((await store.retrieve({ goalKey: 'sand', goalText: 'obtain 2 sand' }))[0]).toMatchObject({
        match: 'exact',
      })
      await store.close()
    },
    30_000,
  )
})

describe('moving a memory between engines', () => {
  it('exports a SQLite memory and imports it into PostgreSQL, and back', async () => {
    const sqlite = await startEngine('sqlite')
    const pg = await startEngine('postgres')
    try {
      const a = await sqlite.open('from')
      for (let i = 0; i < 7; i++)
        await a.recordPlan(
          run('bread', 'obtain 1 bread from wheat', [mine('wheat', 3), craft('bread', 1, 'crafting_table')], {
            createdAt: 10 + i,
          }),
        )
      await a.addLesson({ goalKey: 'bread', cause: 'no wheat', suggestions: ['find a village'] })
      const dump = await exportMemory(a)
      await a.close()
      const b = await pg.open('to')
      expect(await importMemory(b, dump)).toMatchObject({ plans: 7, references: 1, lessons: 1 })
      expect(await b.stats()).toMatchObject({ plans: 7, successes: 7, references: 1, lessons: 1 })
      expect((await b.retrieve({ goalText: 'obtain 2 bread from wheat' }))[0]).toMatchObject({
        goalKey: 'bread',
        source: 'summary',
      })
      const back = await exportMemory(b)
      await b.close()
      const c = await sqlite.open('back')
      expect(await importMemory(c, back)).toMatchObject({ plans: 7, skippedPlans: 0, references: 1 })
      expect((await exportMemory(c)).plans.map((p) => p.createdAt)).toEqual(dump.plans.map((p) => p.createdAt))
      await c.close()
    } finally {
      await sqlite.stop()
      await pg.stop()
    }
  }, 60_000)
})
