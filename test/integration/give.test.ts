/**
 * Integration test of the `give` action on a superflat practice world: a real bot (createBot, with pathfinder)
 * walks to a second plain mineflayer client acting as the player, tosses exactly the asked items (never its tool,
 * never other items) and the player's own inventory gains them. Also the fixed failures: unknown/offline player →
 * not_found, not enough items → missing_materials. Waits are on inventory events with timeouts, never fixed sleeps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Bot } from 'mineflayer'
import type { ServerHandle } from '../../src/server/process.js'
import { execute } from '../../src/actions/index.js'
import { waitFor } from '../../src/util/async.js'
import { command, countItem, giveItem, joinPlayer, quit, startServer, joinGhost } from '../helpers/world.js'

let server: ServerHandle
let bot: Bot
let player: Bot
const never = new AbortController().signal

beforeAll(async () => {
  server = await startServer({ generator: 'superflat' })
  bot = await joinGhost(server, 'GhostGive')
  player = await joinPlayer(server, 'Alice')
  await waitFor(() => player.entity?.onGround === true, 5000, 'player landing')
}, 60_000)
afterAll(async () => {
  quit(bot, player)
  await server?.stop()
})

describe('give', () => {
  it('walks to the player and hands over exactly the asked items, keeping its tools and other items', async () => {
    await giveItem(bot, 'oak_planks', 6)
    await giveItem(bot, 'wooden_pickaxe', 1)
    await giveItem(bot, 'dirt', 3)
    await bot.equip(bot.inventory.items().find((i) => i.name === 'wooden_pickaxe')!, 'hand')
    // put the player 8 blocks away so the bot has to walk
    const p = bot.entity.position.floored()
    await command(bot, `/tp Alice ${p.x + 8} ${p.y} ${p.z}`)
    await waitFor(
      () =>
        bot.players.Alice?.entity !== undefined &&
        bot.players.Alice.entity.position.distanceTo(bot.entity.position) > 6,
      5000,
      'Alice away from the bot',
    )
    const r = await execute(bot, { type: 'give', object: 'oak_planks', count: 4, to: 'Alice' }, { signal: never })
    expect(r, r.message).toMatchObject({ ok: true, reason: null, inventoryDelta: { oak_planks: -4 } })
    expect(r.message).toBe('I gave 4 oak_planks to Alice.')
    expect(bot.entity.position.distanceTo(bot.players.Alice!.entity!.position)).toBeLessThanOrEqual(3.5)
    await waitFor(() => countItem(player, 'oak_planks') === 4, 8000, 'Alice holding 4 oak_planks')
    expect(countItem(bot, 'oak_planks')).toBe(2)
    expect(countItem(bot, 'wooden_pickaxe')).toBe(1)
    expect(countItem(bot, 'dirt')).toBe(3)
    expect(countItem(player, 'wooden_pickaxe')).toBe(0)
    expect(countItem(player, 'dirt')).toBe(0)
  }, 60_000)

  it('gives a tool only when that tool is what was asked for', async () => {
    const r = await execute(bot, { type: 'give', object: 'wooden_pickaxe', count: 1, to: 'Alice' }, { signal: never })
    expect(r, r.message).toMatchObject({ ok: true, inventoryDelta: { wooden_pickaxe: -1 } })
    await waitFor(() => countItem(player, 'wooden_pickaxe') === 1, 8000, 'Alice holding the pickaxe')
    expect(countItem(bot, 'oak_planks')).toBe(2)
  }, 30_000)

  it('fails with fixed reasons: not enough items, and a player who is not online', async () => {
    const short = await execute(bot, { type: 'give', object: 'oak_planks', count: 5, to: 'Alice' }, { signal: never })
    expect(short).toMatchObject({ ok: false, reason: 'missing_materials' })
    expect(countItem(bot, 'oak_planks')).toBe(2)
    const nobody = await execute(bot, { type: 'give', object: 'oak_planks', count: 1, to: 'Nobody' }, { signal: never })
    expect(nobody).toMatchObject({ ok: false, reason: 'not_found' })
    expect(nobody.message).toMatch(/Nobody is not on the server/)
    expect(countItem(bot, 'oak_planks')).toBe(2)
  }, 30_000)
})
