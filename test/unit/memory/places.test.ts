/**
 * Named places (issue 17) on both memory engines: saved per server (the same name on another server is another
 * place), replaced on save, listed by name, deleted, kept across a reopen of the same memory; and the places port's
 * ownership rule — only the player who saved a place, or an owner, may move or forget it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { placeKey, placesPort } from '../../../src/memory/port.js'
import { ENGINES, startEngine, type Engine } from './engines.js'

const base = {
  server: 'a:25565',
  name: 'base',
  x: 10,
  y: 64,
  z: -20,
  dimension: 'overworld',
  owner: 'Alice',
  createdAt: 1,
}

describe.each(ENGINES)('named places on %s', (engineName) => {
  let engine: Engine
  beforeAll(async () => {
    engine = await startEngine(engineName)
  }, 60_000)
  afterAll(async () => {
    await engine.stop()
  })

  it('saves per server, replaces, lists, survives a reopen and deletes', async () => {
    let store = await engine.open('places')
    await store.savePlace(base)
    await store.savePlace({ ...base, server: 'b:25565', x: 99 })
    await store.savePlace({ ...base, name: 'farm', x: 1 })
    expect(await store.place('a:25565', 'base')).toEqual(base)
    expect((await store.place('b:25565', 'base'))?.x).toBe(99)
    await store.savePlace({ ...base, x: 11 })
    await store.close()
    store = await engine.open('places')
    expect((await store.places('a:25565')).map((p) => [p.name, p.x])).toEqual([
      ['base', 11],
      ['farm', 1],
    ])
    expect(await store.deletePlace('a:25565', 'base')).toBe(true)
    expect(await store.deletePlace('a:25565', 'base')).toBe(false)
    expect(await store.place('a:25565', 'base')).toBeNull()
    expect(await store.place('b:25565', 'base')).not.toBeNull()
    await store.close()
  })

  it('lets only the saver or an owner move or forget a place', async () => {
    const store = await engine.open('places-port')
    const port = placesPort(store, 'a:25565')
    const here = { x: 1, y: 64, z: 2, dimension: 'overworld' }
    expect(await port.remember('Old Mill', here, 'Alice', false)).toMatchObject({
      ok: true,
      text: "I'll remember 1 64 2 as old_mill.",
    })
    expect(await port.remember('old mill', { ...here, x: 5 }, 'Bob', false)).toMatchObject({
      ok: false,
      text: expect.stringMatching(/saved by Alice/),
    })
    expect(await port.forget('old mill', 'Bob', false)).toMatchObject({ ok: false })
    expect((await port.find('the Old Mill'))?.x).toBe(1)
    expect(await port.remember('old_mill', { ...here, x: 5 }, 'Olga', true)).toMatchObject({ ok: true })
    expect(await port.forget('old_mill', 'Alice', false)).toMatchObject({ ok: false })
    expect(await port.forget('old_mill', 'Olga', false)).toMatchObject({ ok: true, text: 'I forgot old_mill.' })
    expect(await port.list()).toEqual([])
    expect(placeKey('my base')).toBe('base')
    expect(placeKey('no/slashes')).toBeNull()
    await store.close()
  })
})
