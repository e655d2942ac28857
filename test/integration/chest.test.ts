/**
 * Chests on a real practice server with plain mineflayer players using only stock APIs: items deposited with
 * `openContainer` + `deposit` stay in that chest (and only that one) after the window closes, a second player
 * sees them, and `withdraw` brings them back; the client's inventory view equals the server's after every step
 * (checked through the player region of a freshly opened window, which the server fills from its own state).
 * Breaking a chest drops its contents (and the chest), which the player picks up.
 */
import type { Bot } from 'mineflayer'
import type { Vec3 } from 'vec3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ServerHandle } from '../../src/server/process.js'
import { command, countItem, giveItem, joinPlayer, quit, startServer, waitFor } from '../helpers/world.js'

let server: ServerHandle
let bot: Bot
let other: Bot
let chestA: Vec3
let chestB: Vec3

const countIn = countItem
const id = (name: string): number => bot.registry.itemsByName[name]!.id
const view = (slots: Array<{ name: string; count: number } | null>): string[] =>
  slots.map((it, i) => (it ? `${i}:${it.name}x${it.count}` : null)).filter((x): x is string => !!x)

const give = giveItem

async function setChest(at: Vec3): Promise<void> {
  await command(bot, `/setblock ${at.x} ${at.y} ${at.z} chest`)
  await waitFor(() => bot.blockAt(at)?.name === 'chest', 5000, 'chest placed')
}

/** Open the chest and return its contents and the server-filled player region, then close it. */
async function peek(b: Bot, at: Vec3): Promise<{ chest: string[]; inventory: string[] }> {
  const win = await b.openContainer(b.blockAt(at)!)
  const out = {
    chest: view(win.slots.slice(0, win.inventoryStart)),
    inventory: view(win.slots.slice(win.inventoryStart, win.inventoryEnd)),
  }
  win.close()
  return out
}

beforeAll(async () => {
  server = await startServer({ generator: 'superflat', seed: 5 })
  bot = await joinPlayer(server, 'Keeper')
  other = await joinPlayer(server, 'Visitor')
  await waitFor(() => bot.entity.onGround, 5000, 'bot on ground')
  const feet = bot.entity.position.floored()
  chestA = feet.offset(2, 0, 0)
  chestB = feet.offset(-2, 0, 0)
  await setChest(chestA)
  await setChest(chestB)
}, 30_000)

afterAll(async () => {
  quit(bot, other)
  await server?.stop()
})

describe('chest', () => {
  it('stores deposited items per position and gives them back', async () => {
    await give(bot, 'cobblestone', 40)
    await give(bot, 'oak_log', 3)
    const before = view(bot.inventory.slots.slice(9, 45))
    expect((await peek(bot, chestA)).inventory).toEqual(before)

    const win = await bot.openContainer(bot.blockAt(chestA)!)
    expect(win.containerItems()).toHaveLength(0)
    await win.deposit(id('cobblestone'), null, 30)
    await win.deposit(id('oak_log'), null, 3)
    expect(win.containerCount(id('cobblestone'), null)).toBe(30)
    win.close()
    expect(countIn(bot, 'cobblestone')).toBe(10)
    expect(countIn(bot, 'oak_log')).toBe(0)

    const a = await peek(bot, chestA)
    expect(a.chest).toEqual(
      expect.arrayContaining([expect.stringMatching(/cobblestonex30$/), expect.stringMatching(/oak_logx3$/)]),
    )
    expect(a.inventory).toEqual(view(bot.inventory.slots.slice(9, 45)))
    expect((await peek(bot, chestB)).chest).toEqual([])
  }, 30_000)

  it('shows the contents to another player', async () => {
    await waitFor(() => !!other.blockAt(chestA), 5000, 'visitor sees the chest')
    const seen = await peek(other, chestA)
    expect(seen.chest.length).toBe(2)
  }, 15_000)

  it('withdraws the items again', async () => {
    const win = await bot.openContainer(bot.blockAt(chestA)!)
    await win.withdraw(id('cobblestone'), null, 25)
    await win.withdraw(id('oak_log'), null, 3)
    expect(win.containerCount(id('cobblestone'), null)).toBe(5)
    win.close()
    expect(countIn(bot, 'cobblestone')).toBe(35)
    expect(countIn(bot, 'oak_log')).toBe(3)
    const a = await peek(bot, chestA)
    expect(a.chest).toEqual([expect.stringMatching(/cobblestonex5$/)])
    expect(a.inventory).toEqual(view(bot.inventory.slots.slice(9, 45)))
  }, 30_000)

  it('drops the contents when the chest is broken', async () => {
    const win = await bot.openContainer(bot.blockAt(chestB)!)
    await win.deposit(id('cobblestone'), null, 7)
    win.close()
    expect(countIn(bot, 'cobblestone')).toBe(28)
    await command(bot, `/effect ${bot.username} haste 600 49`)
    await waitFor(() => Object.keys(bot.entity.effects).length > 0, 5000, 'haste effect')
    await bot.dig(bot.blockAt(chestB)!, true)
    await waitFor(() => bot.blockAt(chestB)?.name === 'air', 5000, 'chest gone')
    await command(bot, `/tp ${chestB.x + 0.5} ${chestB.y} ${chestB.z + 0.5}`) // onto the drops (2 blocks away)
    await waitFor(
      () => countIn(bot, 'cobblestone') === 35 && countIn(bot, 'chest') === 1,
      8000,
      'contents and chest picked up',
    )
  }, 20_000)
})
