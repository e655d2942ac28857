/**
 * Admin commands on a real practice server with a real mineflayer player (one server for the whole file):
 * /give with counts that stack and spill (64 → one stack, 100 → 64 + 36), /clear by item and count, clear error
 * messages for bad arguments, /time set, /weather (bot.isRaining follows), /tp to coordinates and /summon + /kill
 * of an animal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Bot } from 'mineflayer'
import { command, joinPlayer, quit, startServer, waitFor } from '../helpers/world.js'
import { onceEvent } from '../../src/util/async.js'
import type { ServerHandle } from '../../src/server/process.js'

let server: ServerHandle
let bot: Bot

const count = (name: string): number =>
  bot.inventory
    .items()
    .filter((i) => i.name === name)
    .reduce((n, i) => n + i.count, 0)
const stacks = (name: string): number[] =>
  bot.inventory
    .items()
    .filter((i) => i.name === name)
    .map((i) => i.count)
    .sort((a, b) => b - a)

/** Send a command and wait for a system line matching `pattern` (command replies are not player chat). */
async function reply(line: string, pattern: RegExp): Promise<string> {
  const seen: string[] = []
  const got = onceEvent<[string]>(bot, 'messagestr', {
    timeoutMs: 10_000,
    filter: (m) => {
      seen.push(m)
      return pattern.test(m)
    },
  })
  bot.chat(line)
  const [m] = await got.catch((err: Error) => {
    throw new Error(`${err.message}; expected ${pattern}, saw ${JSON.stringify(seen.slice(-6))}`)
  })
  return m
}

beforeAll(async () => {
  server = await startServer({ generator: 'superflat', practice: { naturalSpawning: false } })
  bot = await joinPlayer(server, 'Admin')
})
afterAll(async () => {
  quit(bot)
  await server?.stop()
})

describe('admin commands', () => {
  it('/give stacks up to the stack size and /clear removes by item and count', async () => {
    await command(bot, '/give Admin stone 64')
    await waitFor(() => count('stone') === 64, 5000, '64 stone')
    expect(stacks('stone')).toEqual([64])
    await command(bot, '/give Admin cobblestone 100')
    await waitFor(() => count('cobblestone') === 100, 5000, '100 cobblestone')
    expect(stacks('cobblestone')).toEqual([64, 36])
    await command(bot, '/give Admin cobblestone 30')
    await waitFor(() => count('cobblestone') === 130, 5000, '130 cobblestone')
    expect(stacks('cobblestone')).toEqual([64, 64, 2])
    await command(bot, '/give Admin diamond_sword 2')
    await waitFor(() => count('diamond_sword') === 2, 5000, 'two swords')
    expect(stacks('diamond_sword')).toEqual([1, 1])

    await reply('/clear Admin cobblestone 50', /Removed 50 item/)
    await waitFor(() => count('cobblestone') === 80, 5000, '80 cobblestone left')
    await reply('/clear Admin', /Removed 146 item/)
    await waitFor(() => bot.inventory.items().length === 0, 5000, 'empty inventory')
  })

  it('answers bad arguments with clear errors', async () => {
    await reply('/give Admin not_an_item', /Unknown item 'not_an_item'/)
    await reply('/give Admin stone lots', /Invalid count 'lots'/)
    await reply('/give Nobody stone', /No player was found named Nobody/)
    await reply('/clear Admin', /No items were found on player Admin/)
    await reply('/weather snow', /Unknown weather 'snow'/)
    await reply('/time set teatime', /Invalid time 'teatime'/)
  })

  it('/time set and /weather change what the client sees', async () => {
    await command(bot, '/time set midnight')
    await waitFor(() => bot.time.timeOfDay >= 18000 && bot.time.timeOfDay < 18100, 5000, 'midnight')
    await command(bot, '/time set noon')
    await waitFor(() => bot.time.timeOfDay >= 6000 && bot.time.timeOfDay < 6100, 5000, 'noon')
    expect(bot.isRaining).toBe(false)
    await command(bot, '/weather rain')
    await waitFor(() => bot.isRaining, 5000, 'rain')
    await command(bot, '/weather clear')
    await waitFor(() => !bot.isRaining, 5000, 'clear sky')
    await command(bot, '/weather thunder')
    await waitFor(() => bot.isRaining && bot.thunderState > 0, 5000, 'thunder')
    await command(bot, '/weather clear')
    await waitFor(() => !bot.isRaining, 5000, 'clear sky again')
  })

  it('/tp moves the player and /summon + /kill handle animals', async () => {
    await command(bot, '/tp Admin 40 10 40')
    await waitFor(
      () => Math.abs(bot.entity.position.x - 40.5) < 0.01 && Math.abs(bot.entity.position.z - 40.5) < 0.01,
      5000,
      'teleported',
    )
    const before = Object.values(bot.entities).filter((e) => e.name === 'cow').length
    await command(bot, '/summon cow ~3 ~ ~')
    await waitFor(
      () => Object.values(bot.entities).filter((e) => e.name === 'cow').length === before + 1,
      5000,
      'cow summoned',
    )
    await command(bot, '/summon minecraft:zombie ~-3 ~ ~')
    await waitFor(() => Object.values(bot.entities).some((e) => e.name === 'zombie'), 5000, 'zombie summoned')
    await reply('/kill @e[type=cow]', /Killed/)
    await waitFor(() => !Object.values(bot.entities).some((e) => e.name === 'cow'), 5000, 'cow removed')
    bot.chat('/kill @e[type=zombie]')
    await waitFor(() => !Object.values(bot.entities).some((e) => e.name === 'zombie'), 5000, 'zombie removed')
    // practice: { naturalSpawning: false } — no animal or zombie but those we summoned (and killed) ever appeared
    const mobs = new Set(['cow', 'pig', 'sheep', 'chicken', 'zombie'])
    expect(
      Object.values(bot.entities)
        .filter((e) => mobs.has(String(e.name)))
        .map((e) => e.name),
    ).toEqual([])
  })
})
