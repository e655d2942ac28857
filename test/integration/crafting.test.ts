/**
 * Crafting on a real practice server with a plain mineflayer player using only stock APIs: a log becomes planks
 * (shapeless, 2×2 inventory grid), flint + iron become flint and steel (two-ingredient shapeless), planks become a
 * crafting table (shaped 2×2) which is then placed (proof the server's inventory holds it), and on that table
 * planks and sticks become a wooden pickaxe (shaped 3×3, `recipesFor` with the table). After crafting, the
 * server's own view of the inventory (the player region of a freshly opened chest window) equals the client's.
 */
import type { Bot } from 'mineflayer'
import type { Block } from 'prismarine-block'
import { Vec3 } from 'vec3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ServerHandle } from '../../src/server/process.js'
import {
  command,
  countItem,
  giveItem,
  joinPlayer,
  quit,
  startServer,
  syncWithServer,
  waitFor,
} from '../helpers/world.js'

let server: ServerHandle
let bot: Bot
let feet: Vec3

const count = (name: string): number => countItem(bot, name)
const id = (name: string): number => bot.registry.itemsByName[name]!.id

const give = (name: string, n: number): Promise<void> => giveItem(bot, name, n)

async function craft(name: string, table: Block | null = null): Promise<void> {
  const recipe = bot.recipesFor(id(name), null, 1, table)[0]
  expect(recipe, `a recipe for ${name}`).toBeTruthy()
  const before = count(name)
  await bot.craft(recipe!, 1, table ?? undefined)
  // bot.craft resolves on its own clicks and predicted slots; the next craft must start from the server's state,
  // so wait until the server has handled those clicks and its corrections (if any) have arrived
  await syncWithServer(bot)
  expect(count(name), `${name} in the inventory after crafting`).toBeGreaterThanOrEqual(before + recipe!.result.count)
}

/** The inventory as the server has it: the player region of a chest window the server fills from its state. */
async function serverInventory(b: Bot, chestAt: Vec3): Promise<string[]> {
  const win = await b.openContainer(b.blockAt(chestAt)!)
  const items = win.slots
    .slice(win.inventoryStart, win.inventoryEnd)
    .map((it, i) => (it ? `${i}:${it.name}x${it.count}` : null))
    .filter((x): x is string => !!x)
  win.close()
  return items
}
function clientInventory(b: Bot): string[] {
  return b.inventory.slots
    .slice(9, 45)
    .map((it, i) => (it ? `${i}:${it.name}x${it.count}` : null))
    .filter((x): x is string => !!x)
}

beforeAll(async () => {
  server = await startServer({ generator: 'superflat', seed: 3 })
  bot = await joinPlayer(server, 'Crafter')
  await waitFor(() => bot.entity.onGround, 5000, 'bot on ground')
  feet = bot.entity.position.floored()
}, 30_000)

afterAll(async () => {
  quit(bot)
  await server?.stop()
})

describe('crafting', () => {
  it('crafts shapeless recipes in the 2×2 inventory grid', async () => {
    await give('oak_log', 2)
    await craft('oak_planks')
    expect(count('oak_planks')).toBe(4)
    expect(count('oak_log')).toBe(1)
    await give('iron_ingot', 1)
    await give('flint', 1)
    await craft('flint_and_steel')
    expect(count('flint_and_steel')).toBe(1)
    expect(count('iron_ingot') + count('flint')).toBe(0)
  }, 20_000)

  it('crafts a shaped 2×2 recipe (crafting table) that the server really has', async () => {
    await craft('crafting_table')
    expect(count('crafting_table')).toBe(1)
    expect(count('oak_planks')).toBe(0)
    await bot.equip(id('crafting_table'), 'hand')
    const tablePos = feet.offset(2, 0, 0)
    await bot.placeBlock(bot.blockAt(tablePos.offset(0, -1, 0))!, new Vec3(0, 1, 0))
    await waitFor(() => bot.blockAt(tablePos)?.name === 'crafting_table', 5000, 'table placed')
    expect(count('crafting_table')).toBe(0)
  }, 20_000)

  it('crafts a shaped 3×3 recipe on a placed crafting table', async () => {
    const table = bot.blockAt(feet.offset(2, 0, 0))!
    expect(table.name).toBe('crafting_table')
    await craft('oak_planks') // the second log: 4 planks
    await give('oak_planks', 1)
    await craft('stick') // 2 planks → 4 sticks
    expect(count('stick')).toBe(4)
    expect(bot.recipesFor(id('wooden_pickaxe'), null, 1, null)).toHaveLength(0)
    await craft('wooden_pickaxe', table)
    expect(count('wooden_pickaxe')).toBe(1)
    expect(count('stick')).toBe(2)
    expect(count('oak_planks')).toBe(0)
    expect(bot.currentWindow).toBeNull()
  }, 20_000)

  it('leaves client and server inventories equal', async () => {
    const chestAt = feet.offset(-2, 0, 0)
    await command(bot, `/setblock ${chestAt.x} ${chestAt.y} ${chestAt.z} chest`)
    await waitFor(() => bot.blockAt(chestAt)?.name === 'chest', 5000, 'chest placed')
    const client = clientInventory(bot)
    expect(await serverInventory(bot, chestAt)).toEqual(client)
    expect(clientInventory(bot)).toEqual(client)
  }, 20_000)
})
