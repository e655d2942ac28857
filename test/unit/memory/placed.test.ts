/**
 * Blocks players placed (issue 20) in memory, on both engines: saved per server (another server's rows stay apart),
 * replaced on a second save of the same position, removed, kept across a reopen, bounded per server (the oldest go
 * first), and a row planted with a bad value is skipped on load instead of poisoning the tracker.
 */
import { describe, expect, it } from 'vitest'
import { placedPort } from '../../../src/memory/placed.js'
import { PlacedBlocks } from '../../../src/perception/placed.js'
import { ENGINES, useEngine } from './engines.js'

const row = (x: number, createdAt: number, player = 'Alice') => ({
  server: 'a:25565',
  dimension: 'overworld',
  x,
  y: 64,
  z: -3,
  block: 'oak_planks',
  player,
  createdAt,
})

describe.each(ENGINES)('placed blocks on %s', (engineName) => {
  const engine = useEngine(engineName)

  it('keeps them per server across a reopen; replaces, removes and bounds them', async () => {
    let store = await engine.open('placed')
    const a = placedPort(store, 'a:25565', 3)
    const b = placedPort(store, 'b:25565', 3)
    for (let i = 1; i <= 4; i++) await a.save(row(i, i))
    await a.save(row(4, 5, 'Bob'))
    await b.save({ ...row(9, 9), server: 'b:25565' })
    await a.remove({ dimension: 'overworld', x: 3, y: 64, z: -3 })
    await store.close()
    store = await engine.open('placed')
    const again = placedPort(store, 'a:25565', 3)
    // newest first: x=4 (re-saved by Bob), x=2; x=1 went past the bound of 3, x=3 was removed
    expect((await again.load()).map((p) => [p.x, p.player])).toEqual([
      [4, 'Bob'],
      [2, 'Alice'],
    ])
    expect((await placedPort(store, 'b:25565').load()).map((p) => p.x)).toEqual([9])
    expect(await placedPort(store, 'c:25565').load()).toEqual([])
    await store.close()
  })

  it('skips a stored row that does not validate, and the tracker loads the rest', async () => {
    const store = await engine.open('placed-bad')
    await placedPort(store, 'a:25565').save(row(1, 1))
    await engine.exec(
      'placed-bad',
      "INSERT INTO placed_blocks (server, dimension, x, y, z, block, player, created_at) VALUES ('a:25565', 'overworld', 2, 64, -3, '', 'Mallory', 2)",
    )
    const tracker = new PlacedBlocks('a:25565')
    await tracker.persist(placedPort(store, 'a:25565'))
    expect(tracker.all().map((p) => p.x)).toEqual([1])
    expect(tracker.at('overworld', { x: 1.5, y: 64.2, z: -2.5 })?.player).toBe('Alice')
    expect(tracker.at('the_nether', { x: 1, y: 64, z: -3 })).toBeNull()
    await store.close()
  })
})
