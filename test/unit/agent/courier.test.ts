/**
 * The courier's decisions (src/agent/courier.ts) over a real Ledger: a player with something set aside is handed it
 * when they come near and the bot is free; never while a task runs, but at the end of it if they are still near;
 * one try per approach (not again until they have left and come back); players with nothing set aside are left
 * alone. The real hand-over on a server is in test/integration/requests.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { Courier } from '../../../src/agent/courier.js'
import { Ledger } from '../../../src/agent/ledger.js'

function scene() {
  const ledger = new Ledger()
  const world = { near: [] as string[], busy: false, handed: [] as string[] }
  const courier = new Courier({
    ledger,
    near: () => world.near,
    busy: () => world.busy,
    handOver: (p) => world.handed.push(p),
  })
  return { ledger, world, courier }
}

describe('courier', () => {
  it('hands over when a player with something set aside comes near and the bot is free', () => {
    const { ledger, world, courier } = scene()
    ledger.reserve('cara', 'bread', 3)
    courier.near('Bob')
    courier.near('Cara')
    expect(world.handed).toEqual(['Cara'])
  })

  it('waits for the running task to end, then serves whoever is still near', () => {
    const { ledger, world, courier } = scene()
    ledger.reserve('Cara', 'bread', 3)
    ledger.reserve('Dave', 'stick', 1)
    world.busy = true
    courier.near('Cara')
    courier.near('Dave')
    courier.leave('Dave')
    expect(world.handed).toEqual([])
    world.busy = false
    world.near = ['Cara']
    courier.between()
    expect(world.handed).toEqual(['Cara'])
  })

  it('tries once per approach: again only after the player left and came back', () => {
    const { ledger, world, courier } = scene()
    ledger.reserve('Cara', 'bread', 3)
    world.near = ['Cara']
    courier.near('Cara')
    courier.between()
    courier.between()
    expect(world.handed).toEqual(['Cara'])
    courier.leave('cara')
    courier.near('Cara')
    expect(world.handed).toEqual(['Cara', 'Cara'])
    ledger.release('Cara', 'bread', 3)
    courier.leave('Cara')
    courier.near('Cara')
    expect(world.handed).toEqual(['Cara', 'Cara'])
  })
})
