/**
 * Death and respawn on a real superflat practice server: a killed player drops their inventory as item entities
 * at the death spot (picked up again there after respawning), and mineflayer's automatic respawn works twice in a
 * row — back at the spawn point with full health and food, still connected and able to move.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Bot } from 'mineflayer'
import type { Vec3 } from 'vec3'
import { command, joinPlayer, quit, startServer, waitFor } from '../helpers/world.js'
import { onceEvent } from '../../src/util/async.js'
import type { ServerHandle } from '../../src/server/process.js'

let server: ServerHandle
let bot: Bot
let spawn: Vec3

const count = (name: string): number =>
  bot.inventory
    .items()
    .filter((i) => i.name === name)
    .reduce((n, i) => n + i.count, 0)

/** /kill the bot and wait for mineflayer's death and its automatic respawn. */
async function dieAndRespawn(): Promise<void> {
  const died = onceEvent(bot, 'death', { timeoutMs: 5000 })
  const respawned = onceEvent(bot, 'respawn', { timeoutMs: 8000 })
  bot.chat('/kill Mortal')
  await died
  await respawned.catch((err: Error) => {
    throw new Error(`${err.message}; server: ${server.stderrTail().slice(-1500)}`)
  })
  await waitFor(
    () => (bot as Bot & { isAlive?: boolean }).isAlive === true && bot.health === 20,
    8000,
    'alive with full health',
  )
  await waitFor(() => bot.entity.position.distanceTo(spawn) < 2, 8000, 'back at spawn')
}

beforeAll(async () => {
  server = await startServer({ generator: 'superflat', practice: { naturalSpawning: false } })
  bot = await joinPlayer(server, 'Mortal')
  await waitFor(() => bot.entity.onGround, 5000, 'on the ground')
  spawn = bot.entity.position.clone()
})
afterAll(async () => {
  quit(bot)
  await server?.stop()
})

describe('death and respawn', () => {
  it('drops the inventory at the death spot and respawns twice in a row', async () => {
    await command(bot, '/give Mortal cobblestone 20')
    await command(bot, '/give Mortal iron_sword')
    await waitFor(() => count('cobblestone') === 20 && count('iron_sword') === 1, 5000, 'items given')
    await command(bot, '/tp Mortal 70 ~ 70')
    await waitFor(() => Math.abs(bot.entity.position.x - 70.5) < 0.1 && bot.entity.onGround, 5000, 'at the death spot')
    const deathSpot = bot.entity.position.clone()

    await dieAndRespawn()
    expect(bot.inventory.items()).toHaveLength(0)
    expect(bot.food).toBe(20)

    // the items wait at the death spot
    await command(bot, `/tp Mortal ${deathSpot.x.toFixed(1)} ${deathSpot.y.toFixed(1)} ${deathSpot.z.toFixed(1)}`)
    await waitFor(
      () => count('cobblestone') === 20 && count('iron_sword') === 1,
      10_000,
      'items picked up at the death spot',
    )

    await command(bot, '/tp Mortal 20 ~ 20')
    await waitFor(() => bot.entity.position.distanceTo(spawn) > 5, 5000, 'moved away from spawn')
    await dieAndRespawn()
    expect(bot.inventory.items()).toHaveLength(0)

    // still a working connection: commands and movement go through
    await command(bot, '/give Mortal dirt 3')
    await waitFor(() => count('dirt') === 3, 5000, 'dirt after the second respawn')
    const start = bot.entity.position.clone()
    bot.setControlState('forward', true)
    try {
      await waitFor(() => bot.entity.position.distanceTo(start) > 1.5, 5000, 'walking after respawn')
    } finally {
      bot.clearControlStates()
    }
  })
})
