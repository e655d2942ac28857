/**
 * Protocol hygiene on the generated practice world (issue 21): a plain mineflayer player digs, places, crafts,
 * smelts, fights and eats, and its client never meets a packet it cannot parse exactly — no parse exception and no
 * "Chunk size is N but only M was read" (flying-squid's `sound_effect` used to be one, on every placed block). The
 * check covers every packet from login on, chunks and light included.
 */
import type { Bot } from 'mineflayer'
import { Vec3 } from 'vec3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ServerHandle } from '../../src/server/process.js'
import { joinCheckedPlayer, type ParseProblem } from '../helpers/protocol.js'
import { command, countItem, giveItem, quit, startServer, syncWithServer, waitFor } from '../helpers/world.js'

let server: ServerHandle
let bot: Bot
const problems: ParseProblem[] = []
let sounds = 0

beforeAll(async () => {
  server = await startServer({ seed: 1 })
  bot = await joinCheckedPlayer(server, 'Clean', problems)
  bot._client.on('sound_effect', () => {
    sounds++
  })
  await waitFor(() => bot.entity.onGround, 10_000, 'bot on ground')
  await command(bot, '/effect Clean haste 600 49')
}, 40_000)

afterAll(async () => {
  quit(bot)
  await server?.stop()
})

describe('protocol-clean practice world', () => {
  it('digs, places, crafts, smelts, fights and eats with zero parse errors', async () => {
    const p = bot.entity.position.floored()
    const at = p.offset(1, 0, 0) // within the pickup box (player + 1 block sideways)
    // digging: a dirt block beside the player
    await command(bot, `/setblock ${at.x} ${at.y - 1} ${at.z} stone`)
    await command(bot, `/setblock ${at.x} ${at.y} ${at.z} dirt`)
    await waitFor(() => bot.blockAt(at)?.name === 'dirt', 5000, 'dirt set')
    await bot.dig(bot.blockAt(at)!)
    await waitFor(() => countItem(bot, 'dirt') >= 1, 5000, 'dirt picked up')
    // placing it back (the placing sound is the packet that used to be malformed)
    await bot.equip(bot.registry.itemsByName.dirt!.id, 'hand')
    await bot.placeBlock(bot.blockAt(at.offset(0, -1, 0))!, new Vec3(0, 1, 0))
    await waitFor(() => bot.blockAt(at)?.name === 'dirt', 5000, 'dirt placed')

    // crafting: planks in the 2×2 grid, then a crafting table
    await giveItem(bot, 'oak_log', 1)
    const planks = bot.recipesFor(bot.registry.itemsByName.oak_planks!.id, null, 1, null)[0]!
    await bot.craft(planks, 1)
    await waitFor(() => countItem(bot, 'oak_planks') === 4, 5000, 'planks crafted')
    const table = bot.recipesFor(bot.registry.itemsByName.crafting_table!.id, null, 1, null)[0]!
    await bot.craft(table, 1)
    await waitFor(() => countItem(bot, 'crafting_table') === 1, 5000, 'table crafted')

    // smelting: a furnace burning coal on raw iron
    const f = p.offset(-2, 0, 0)
    await command(bot, `/setblock ${f.x} ${f.y} ${f.z} furnace`)
    await waitFor(() => bot.blockAt(f)?.name === 'furnace', 5000, 'furnace set')
    await giveItem(bot, 'coal', 1)
    await giveItem(bot, 'raw_iron', 1)
    const furnace = await bot.openFurnace(bot.blockAt(f)!)
    await furnace.putFuel(bot.registry.itemsByName.coal!.id, null, 1)
    await furnace.putInput(bot.registry.itemsByName.raw_iron!.id, null, 1)
    await waitFor(() => (furnace.progress ?? 0) > 0, 5000, 'furnace smelting')
    furnace.close()

    // combat: hit a summoned zombie until it dies
    await command(bot, `/summon zombie ${p.x} ${p.y} ${p.z + 2}`)
    await waitFor(() => Object.values(bot.entities).some((e) => e.name === 'zombie'), 5000, 'zombie summoned')
    await giveItem(bot, 'iron_sword', 1)
    await bot.equip(bot.registry.itemsByName.iron_sword!.id, 'hand')
    await waitFor(
      () => {
        const z = Object.values(bot.entities).find((e) => e.name === 'zombie')
        if (!z) return true
        if (bot.entity.position.distanceTo(z.position) < 3.5) bot.attack(z)
        return false
      },
      20_000,
      'zombie killed',
      600,
    )

    // eating: hungry after the hunger effect, then bread
    await command(bot, '/effect Clean hunger 3 127')
    await waitFor(() => bot.food < 20, 8000, 'hungry')
    // the effect drains food fast: eat once it is over (haste stays on)
    const hunger = bot.registry.effectsByName.Hunger!.id
    await waitFor(() => !bot.entity.effects[hunger], 10_000, 'hunger over')
    await syncWithServer(bot)
    await giveItem(bot, 'bread', 1)
    await bot.equip(bot.registry.itemsByName.bread!.id, 'hand')
    const hungry = bot.food
    await bot.consume()
    await waitFor(() => bot.food > hungry, 5000, 'fed')

    await syncWithServer(bot)
    expect(sounds).toBeGreaterThan(0) // placing, pickup and hurt sounds arrived (and parsed)
    expect(problems).toEqual([])
  }, 120_000)
})
