/**
 * Named places (issue 17) on both memory engines: saved per server (the same name on another server is another
 * place), replaced on save, listed by name, deleted, kept across a reopen of the same memory; and the places port's
 * ownership rule — only the player who saved a place, or an owner, may move or forget it; places of every server go
 * into a memory export and come back on import (an older place of the same name is replaced, a newer one kept).
 */
import { describe, expect, it } from 'vitest'
import { exportMemory, importMemory } from '../../../src/memory/index.js'
import { placeKey, placesPort } from '../../../src/memory/port.js'
import { ENGINES, useEngine } from './engines.js'

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
  const engine = useEngine(engineName)

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

  it("exports every server's places and imports them, keeping the newer of two", async () => {
    const from = await engine.open('places-export')
    await from.savePlace(base)
    await from.savePlace({ ...base, server: 'b:25565', name: 'farm', x: 7, createdAt: 5 })
    const dump = await exportMemory(from)
    expect(dump.places.map((p) => `${p.server} ${p.name}`)).toEqual(['a:25565 base', 'b:25565 farm'])
    await from.close()
    const to = await engine.open('places-import')
    await to.savePlace({ ...base, server: 'b:25565', name: 'farm', x: 8, createdAt: 9 }) // newer than the export's
    const r = await importMemory(to, JSON.parse(JSON.stringify(dump)))
    expect(r.places).toBe(1)
    expect(await to.place('a:25565', 'base')).toEqual(base)
    expect((await to.place('b:25565', 'farm'))?.x).toBe(8)
    const { places: _places, ...older } = dump // an export written before places were exported still imports
    expect((await importMemory(to, JSON.parse(JSON.stringify(older)))).places).toBe(0)
    await to.close()
  })
})
