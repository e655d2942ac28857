/**
 * What the bot keeps for players across restarts (issue 15), on both memory engines: the delivery ledger (items set
 * aside for a player) and the players who said "quiet" are written through as they change and come back when the
 * memory is opened again (a real SQLite file; PGlite behind the real `pg` client), per server and bot; a ledger
 * row handed over is gone after the restart too.
 */
import { describe, expect, it } from 'vitest'
import { Chatter } from '../../../src/agent/chatter.js'
import { Ledger } from '../../../src/agent/ledger.js'
import { keptStore } from '../../../src/memory/index.js'
import { ENGINES, useEngine } from './engines.js'

describe.each(ENGINES)('what the bot keeps for players, on %s', (engineName) => {
  const engine = useEngine(engineName)

  it('keeps the ledger and quiet players across a restart, per server and bot', async () => {
    let store = await engine.open('kept')
    const ledger = new Ledger(keptStore(store, 'a:25565', 'Ghost'))
    const chatter = new Chatter(undefined, keptStore(store, 'a:25565', 'Ghost'))
    ledger.reserve('Cara', 'bread', 3)
    ledger.reserve('cara', 'bread', 2)
    ledger.reserve('Bob', 'stick', 4)
    ledger.reserve('Bob', 'torch', 1)
    expect(ledger.release('Bob', 'stick', 4)).toBe(4)
    chatter.setQuiet('Dave', true)
    chatter.setQuiet('Eve', true)
    chatter.setQuiet('Eve', false)
    const other = new Ledger(keptStore(store, 'b:25565', 'Ghost'))
    other.reserve('Cara', 'dirt', 9)
    await Promise.all([ledger.flushed(), chatter.flushed(), other.flushed()])
    await store.close()

    store = await engine.open('kept')
    const after = new Ledger(keptStore(store, 'a:25565', 'Ghost'))
    const quiet = new Chatter(undefined, keptStore(store, 'a:25565', 'Ghost'))
    await Promise.all([after.load(), quiet.load()])
    expect(after.heldFor('CARA')).toEqual({ bread: 5 })
    expect(after.heldFor('Bob')).toEqual({ torch: 1 })
    expect(after.players().sort()).toEqual(['bob', 'cara'])
    expect(quiet.isQuiet('dave')).toBe(true)
    expect(quiet.isQuiet('Eve')).toBe(false)
    const anotherBot = new Ledger(keptStore(store, 'a:25565', 'Ghost2'))
    await anotherBot.load()
    expect(anotherBot.players()).toEqual([])
    const otherServer = new Ledger(keptStore(store, 'b:25565', 'Ghost'))
    await otherServer.load()
    expect(otherServer.heldFor('Cara')).toEqual({ dirt: 9 })

    after.release('Cara', 'bread', 5)
    await after.flushed()
    await store.close()
    store = await engine.open('kept')
    const third = new Ledger(keptStore(store, 'a:25565', 'Ghost'))
    await third.load()
    expect(third.heldFor('Cara')).toEqual({})
    expect(third.heldFor('Bob')).toEqual({ torch: 1 })
    await store.close()
  })
})
