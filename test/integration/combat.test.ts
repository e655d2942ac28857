/**
 * Hostile mobs and attack rules on a real superflat practice server (natural spawning off, so only summoned mobs
 * exist): at night a zombie walks to a player standing still and hurts them (2 damage a hit on easy, at most once a
 * second), and hits from beyond reach do nothing (checked by ordering: a later command's acknowledgement, not a pause).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Bot } from 'mineflayer'
import type { Entity } from 'prismarine-entity'
import { command, joinPlayer, quit, startServer, syncWithServer, waitFor } from '../helpers/world.js'
import type { ServerHandle } from '../../src/server/process.js'

let server: ServerHandle
let bot: Bot

async function summonAt(name: string, dx: number): Promise<Entity> {
  const before = new Set(
    Object.values(bot.entities)
      .filter((e) => e.name === name)
      .map((e) => e.id),
  )
  await command(bot, `/summon ${name} ~${dx} ~ ~`)
  let found: Entity | undefined
  await waitFor(
    () => {
      found = Object.values(bot.entities).find((e) => e.name === name && !before.has(e.id))
      return !!found
    },
    5000,
    `${name} summoned`,
  )
  return found!
}

beforeAll(async () => {
  server = await startServer({ generator: 'superflat', practice: { naturalSpawning: false } })
  bot = await joinPlayer(server, 'Guard')
  await waitFor(() => bot.entity.onGround, 5000, 'on the ground')
})
afterAll(async () => {
  quit(bot)
  await server?.stop()
})

describe('combat', () => {
  it('ignores hits from beyond reach', async () => {
    await command(bot, '/time set noon')
    const far = await summonAt('cow', 9)
    const hurt = new Set<number>()
    const onHurt = (e: Entity): void => {
      hurt.add(e.id)
    }
    bot.on('entityHurt', onHurt)
    try {
      bot.attack(far)
      // the server handles this player's packets in order and answers a hit at once: once a later command is
      // acknowledged, a hurt packet for the far cow would already have arrived
      await syncWithServer(bot)
      expect(hurt.has(far.id)).toBe(false)
      // the same path within reach does hurt (so the check above could have failed)
      const near = await summonAt('cow', 2)
      bot.attack(near)
      await waitFor(() => hurt.has(near.id), 5000, 'near cow hurt')
      expect(hurt.has(far.id)).toBe(false)
    } finally {
      bot.removeListener('entityHurt', onHurt)
    }
    await command(bot, '/kill @e[type=cow]')
  })

  it('a zombie at night walks to a standing player and hurts them', async () => {
    await command(bot, '/time set midnight')
    await waitFor(() => bot.time.timeOfDay >= 18000, 5000, 'night')
    const hits: number[] = []
    let last = bot.health
    bot.on('health', () => {
      if (bot.health < last) hits.push(Date.now())
      last = bot.health
    })
    const zombie = await summonAt('zombie', 6)
    await waitFor(() => bot.health < 20, 15_000, 'zombie hit')
    expect(20 - bot.health).toBe(2) // easy difficulty: 2 per hit
    expect(zombie.position.distanceTo(bot.entity.position)).toBeLessThan(3)
    await waitFor(() => hits.length >= 2, 5000, 'second hit')
    expect(hits[1]! - hits[0]!).toBeGreaterThanOrEqual(900)
    await command(bot, '/kill @e[type=zombie]')
    await waitFor(() => !bot.entities[zombie.id], 5000, 'zombie removed')
  })
})
