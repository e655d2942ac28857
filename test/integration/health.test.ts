/**
 * Health and hunger on a real superflat practice server (one server, one player per mechanic): a 10-block fall
 * costs vanilla's 7 health, lava hurts 4 at a time, a block at head height suffocates, and food drops while
 * sprinting (after the hunger effect has used up the saturation) and rises again after eating bread with
 * mineflayer's `consume()` and the companion's eating reflex, which eats again after a meal cut short.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Bot } from 'mineflayer'
import { attachReflexes } from '../../src/actions/reflexes/index.js'
import eatReflex from '../../src/actions/reflexes/eat.js'
import { command, joinPlayer, quit, startServer, syncWithServer, waitFor } from '../helpers/world.js'
import type { ServerHandle } from '../../src/server/process.js'

let server: ServerHandle
const bots: Bot[] = []

async function join(name: string): Promise<Bot> {
  const b = await joinPlayer(server, name)
  bots.push(b)
  await waitFor(() => b.entity.onGround, 5000, `${name} on the ground`)
  return b
}

/** Lowest health seen from now on (regeneration heals quickly afterwards). */
function lowestHealth(b: Bot): () => number {
  let low = b.health
  b.on('health', () => {
    low = Math.min(low, b.health)
  })
  return () => low
}

beforeAll(async () => {
  server = await startServer({ generator: 'superflat', practice: { naturalSpawning: false } })
})
afterAll(async () => {
  quit(...bots)
  await server?.stop()
})

describe('health and hunger', () => {
  it('a fall from 10 blocks costs 7 health', async () => {
    const b = await join('Faller')
    expect(b.health).toBe(20)
    const low = lowestHealth(b)
    await command(b, '/tp Faller ~ ~10 ~')
    await waitFor(() => low() < 20, 8000, 'fall damage')
    await syncWithServer(b) // the landing is judged at once: any further damage would have arrived before this answer
    expect(low()).toBe(13)
  })

  it('lava hurts', async () => {
    const b = await join('Swimmer')
    await command(b, '/tp Swimmer 60 ~ 60')
    await waitFor(() => Math.abs(b.entity.position.x - 60.5) < 0.1 && b.entity.onGround, 5000, 'moved away')
    const low = lowestHealth(b)
    const p = b.entity.position.floored()
    await command(b, `/setblock ${p.x} ${p.y} ${p.z} lava`)
    await waitFor(() => low() <= 16, 5000, 'lava damage')
    await command(b, `/setblock ${p.x} ${p.y} ${p.z} air`)
    expect(20 - low()).toBeGreaterThanOrEqual(4)
  })

  it('a head inside a solid block suffocates', async () => {
    const b = await join('Miner')
    await command(b, '/tp Miner -40 ~ 40')
    await waitFor(() => Math.abs(b.entity.position.x + 39.5) < 0.1 && b.entity.onGround, 5000, 'moved away')
    const low = lowestHealth(b)
    const p = b.entity.position.floored()
    await command(b, `/setblock ${p.x} ${p.y + 1} ${p.z} stone`)
    await waitFor(() => low() <= 18, 3000, 'two suffocation hits')
    await command(b, `/setblock ${p.x} ${p.y + 1} ${p.z} air`)
  })

  it('food drops while sprinting and rises after eating', async () => {
    const b = await join('Runner')
    expect(b.food).toBe(20)
    await command(b, '/effect Runner hunger 6 127') // ~60 exhaustion: saturation gone, food ~10 points down
    await waitFor(() => b.foodSaturation === 0 && b.food < 20, 6000, 'hungry')
    // the effect lasts 120 server ticks (src/server/plugins/effects.ts): longer than 6 s on a loaded machine
    await waitFor(() => !Object.values(b.entity.effects ?? {}).length, 20_000, 'effect over')
    await syncWithServer(b) // food updates sent as the effect ended have arrived
    const before = b.food
    b.setControlState('forward', true)
    b.setControlState('sprint', true)
    b.setControlState('jump', true)
    try {
      await waitFor(() => b.food < before, 15_000, 'food dropping while sprinting')
    } finally {
      b.clearControlStates()
    }
    await command(b, '/give Runner bread 3')
    await waitFor(() => b.inventory.items().some((i) => i.name === 'bread'), 5000, 'bread given')
    await b.equip(b.inventory.items().find((i) => i.name === 'bread')!, 'hand')
    const hungry = b.food
    await b.consume()
    await waitFor(() => b.food === Math.min(20, hungry + 5), 3000, 'fed by bread (+5)')
    expect(b.inventory.items().find((i) => i.name === 'bread')?.count).toBe(2)
    // the companion's eating reflex eats the same way, of itself, once food is at or below its threshold
    expect(b.food).toBeLessThan(20)
    const fed = b.food
    const reflexes = attachReflexes(b, { minHunger: 19 }, [eatReflex])
    try {
      await waitFor(() => b.food === Math.min(20, fed + 5), 5000, 'fed by the eating reflex (+5)')
    } finally {
      reflexes.detach()
    }
    expect(b.inventory.items().find((i) => i.name === 'bread')?.count).toBe(1)
  })

  it('a meal cut short (the hand taken for something else) is eaten on the next try', async () => {
    const b = await join('Eater')
    await command(b, '/effect Eater hunger 3 127')
    await waitFor(() => b.food < 20, 6000, 'hungry')
    await command(b, '/give Eater bread 2')
    await command(b, '/give Eater dirt 1')
    await waitFor(() => b.inventory.items().some((i) => i.name === 'dirt'), 5000, 'bread and dirt given')
    const reflexes = attachReflexes(b, { minHunger: 19 }, [eatReflex])
    try {
      await waitFor(() => b.heldItem?.name === 'bread', 3000, 'the meal starts')
      const hungry = b.food
      await b.equip(b.inventory.items().find((i) => i.name === 'dirt')!, 'hand') // an action takes the hand
      await waitFor(() => b.food > hungry, 10_000, 'eaten on the next try')
    } finally {
      reflexes.detach()
    }
  })
})
