/**
 * Going back for the drops after a death, on a real superflat practice server with a real bot (createBot, with
 * pathfinder) driven through the real hands (src/agent/bot-hands.ts): it walks away from spawn with a goto action,
 * is killed there, respawns at spawn, and `recoverDrops` walks back to the death spot and picks its items up again.
 * A death spot farther than the recovery distance is not worth the walk: it reports why and does not move.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Bot } from 'mineflayer'
import { createBotHands } from '../../src/agent/bot-hands.js'
import type { Hands } from '../../src/agent/ports.js'
import { RECOVER_MAX_DISTANCE } from '../../src/actions/recover.js'
import type { ServerHandle } from '../../src/server/process.js'
import { onceEvent, waitFor } from '../../src/util/async.js'
import { command, countItem, giveItem, quit, startServer, joinGhost } from '../helpers/world.js'

let server: ServerHandle
let bot: Bot
let hands: Hands
const never = new AbortController().signal

/** /kill the bot and wait for mineflayer's death and its automatic respawn with full health. */
async function dieAndRespawn(): Promise<void> {
  const died = onceEvent(bot, 'death', { timeoutMs: 5000 })
  const respawned = onceEvent(bot, 'respawn', { timeoutMs: 8000 })
  bot.chat('/kill GhostBack')
  await died
  await respawned
  await waitFor(() => (bot as Bot & { isAlive?: boolean }).isAlive === true && bot.health === 20, 8000, 'alive')
}

beforeAll(async () => {
  server = await startServer({ generator: 'superflat', practice: { naturalSpawning: false } })
  bot = await joinGhost(server, 'GhostBack')
  hands = createBotHands(() => bot, 'test')
}, 60_000)
afterAll(async () => {
  quit(bot)
  await server?.stop()
})

describe('recover after a death', () => {
  it('walks back to the death spot and picks up its items again', async () => {
    await giveItem(bot, 'cobblestone', 20)
    await giveItem(bot, 'iron_sword', 1)
    const spawn = bot.entity.position.floored()
    const away = { type: 'goto' as const, x: spawn.x + 12, y: spawn.y, z: spawn.z + 5 }
    const walked = await hands.execute(away, never)
    expect(walked.ok, walked.message).toBe(true)
    const deathSpot = bot.entity.position.clone()

    await dieAndRespawn()
    await waitFor(() => bot.entity.position.distanceTo(deathSpot) > 8, 8000, 'respawned away from the death spot')
    expect(bot.inventory.items()).toHaveLength(0)

    const r = await hands.recoverDrops!(never)
    expect(r, r.message).toMatchObject({ ok: true, reason: null })
    expect(countItem(bot, 'cobblestone')).toBe(20)
    expect(countItem(bot, 'iron_sword')).toBe(1)
    expect(bot.entity.position.distanceTo(deathSpot)).toBeLessThan(8)
  }, 90_000)

  it('does not go back for drops farther than the recovery distance', async () => {
    await giveItem(bot, 'dirt', 5)
    const p = bot.entity.position.floored()
    const far = RECOVER_MAX_DISTANCE + 30
    await command(bot, `/tp GhostBack ${p.x + far} ${p.y} ${p.z}`)
    await waitFor(() => bot.entity.position.x > p.x + far - 1 && bot.entity.onGround, 8000, 'far from spawn')
    await dieAndRespawn()
    await waitFor(() => bot.entity.position.x < p.x + far - 20, 8000, 'respawned at spawn')
    const before = bot.entity.position.clone()

    const r = await hands.recoverDrops!(never)
    expect(r.ok).toBe(false)
    expect(r.message).toMatch(/blocks away/)
    expect(countItem(bot, 'dirt')).toBe(0)
    expect(bot.entity.position.distanceTo(before)).toBeLessThan(1)
  }, 60_000)
})
