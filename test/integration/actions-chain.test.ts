/**
 * The end-to-end chain log → planks → sticks → crafting table → wooden pickaxe → cobblestone → stone pickaxe →
 * furnace → raw iron → iron ingot, driven only through `execute` from a hand-written action list. The scene is set
 * with /setblock on a superflat world (a 3-log trunk, a patch of stone and one iron ore at ground level near the
 * bot) so the test is deterministic and well under 90 s; the server's drops, crafting and furnace plugins do the
 * rest (stone by hand would drop nothing, iron ore needs the stone pickaxe). Exploring a generated world for the
 * same materials is measured by the benchmark instead. Then two iron pickaxes crafted in one step, four times over, and
 * 2×2 crafts on a bag the bot's model has wrong: an item the server kept in the grid unseen, and planks in another
 * slot than the model's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Bot } from 'mineflayer'
import type { ServerHandle } from '../../src/server/process.js'
import { execute, feedback } from '../../src/actions/index.js'
import type { Action } from '../../src/schemas/action.js'
import { command, countItem, joinGhost, setBlockSeen, startServer, syncWithServer } from '../helpers/world.js'

let server: ServerHandle
let bot: Bot
const never = new AbortController().signal

const CHAIN: Action[] = [
  { type: 'mine', object: 'oak_log', tool: null, count: 3 },
  { type: 'craft', object: 'oak_planks', count: 12, materials: { oak_log: 3 }, tool: null },
  { type: 'craft', object: 'stick', count: 4, materials: { oak_planks: 2 }, tool: null },
  { type: 'craft', object: 'crafting_table', count: 1, materials: { oak_planks: 4 }, tool: null },
  { type: 'craft', object: 'wooden_pickaxe', count: 1, materials: { oak_planks: 3, stick: 2 }, tool: 'crafting_table' },
  { type: 'mine', object: 'cobblestone', tool: 'wooden_pickaxe', count: 11 },
  { type: 'craft', object: 'stone_pickaxe', count: 1, materials: { cobblestone: 3, stick: 2 }, tool: 'crafting_table' },
  { type: 'craft', object: 'furnace', count: 1, materials: { cobblestone: 8 }, tool: 'crafting_table' },
  { type: 'mine', object: 'iron_ore', tool: 'stone_pickaxe', count: 1 },
  { type: 'smelt', object: 'iron_ingot', count: 1, materials: { raw_iron: 1 }, fuel: 'oak_planks' },
]

const setblock = (x: number, y: number, z: number, name: string): Promise<void> => setBlockSeen(bot, x, y, z, name)

beforeAll(async () => {
  server = await startServer({ generator: 'superflat', practice: { naturalSpawning: false } })
  bot = await joinGhost(server, 'GhostD')
  await command(bot, '/time set day')
  const p = bot.entity.position.floored()
  for (let dy = 0; dy < 3; dy++) await setblock(p.x + 4, p.y + dy, p.z + 3, 'oak_log')
  for (let i = 0; i < 12; i++) await setblock(p.x - 3 - (i % 6), p.y - 1, p.z - 2 - Math.floor(i / 6), 'stone')
  await setblock(p.x + 5, p.y - 1, p.z - 4, 'iron_ore')
})
afterAll(async () => {
  try {
    bot?.quit()
  } catch {
    /* gone */
  }
  await server?.stop()
})

describe('the iron chain through actions only', () => {
  it('goes from bare hands to an iron ingot', async () => {
    const log: string[] = []
    for (const action of CHAIN) {
      const r = await execute(bot, action, { signal: never })
      log.push(
        `${action.type} ${'object' in action ? action.object : ''}: ${r.ok ? 'ok' : r.reason} (${r.durationMs} ms) ${r.message}`,
      )
      expect(r.ok, log.join('\n')).toBe(true)
      if (process.env.GHOST_CHAIN_LOG === '1') console.log(log[log.length - 1])
    }
    const state = feedback(bot, CHAIN[CHAIN.length - 1]!, {
      ok: true,
      reason: null,
      message: '',
      inventoryDelta: {},
      durationMs: 0,
    }).state
    expect(state.inventory.iron_ingot).toBe(1)
    expect(state.inventory.stone_pickaxe).toBe(1)
    expect(state.inventory.crafting_table).toBe(1)
    expect(state.inventory.furnace).toBe(1)
  }, 85_000)

  it("crafts two tools in one step, every time: each craft starts from the server's state", async () => {
    // with ten stacks in the bag, mineflayer's pipelined clicks for two iron pickaxes in one bot.craft left one of
    // them uncrafted (a resync of the window landed among the second craft's clicks): this test failed in 4 of 6 runs
    // before the craft action crafted a tool at a time
    for (const name of ['dirt', 'cobblestone', 'andesite', 'diorite', 'granite'])
      await command(bot, `/give GhostD ${name} 128`)
    await command(bot, '/clear GhostD crafting_table', { allowError: true })
    await command(bot, '/give GhostD crafting_table 1')
    for (let round = 0; round < 4; round++) {
      await command(bot, '/clear GhostD iron_pickaxe', { allowError: true })
      await command(bot, '/give GhostD iron_ingot 6')
      await command(bot, '/give GhostD stick 4')
      const craft: Action = {
        type: 'craft',
        object: 'iron_pickaxe',
        count: 2,
        materials: { iron_ingot: 6, stick: 4 },
        tool: 'crafting_table',
      }
      const r = await execute(bot, craft, { signal: never })
      expect(r, `round ${round}`).toMatchObject({ ok: true, message: 'I crafted 2 iron_pickaxe.' })
    }
  }, 60_000)

  it('gets back what the server kept in the 2×2 grid, unseen, and crafts from the whole bag', async () => {
    // mineflayer clears its model of the 2×2 grid after a craft without asking the server, so an item the server kept
    // there was invisible, and every later 2×2 craft laid its ingredients beside it and lost them too (bench d72 seed
    // 77, d74 seed 90: two planks gone, "only 0 arrived"). Here a dirt is laid in grid slot 2 by real clicks, then
    // dropped from the bot's model only, as mineflayer's own clear does
    await command(bot, '/clear GhostD', { allowError: true })
    await command(bot, '/give GhostD oak_planks 2')
    await command(bot, '/give GhostD dirt 1')
    const dirt = bot.inventory.items().find((it) => it.name === 'dirt')!
    await bot.clickWindow(dirt.slot, 0, 0)
    await bot.clickWindow(2, 1, 0)
    await syncWithServer(bot)
    expect(bot.inventory.slots[2]?.name, 'the dirt in the grid').toBe('dirt')
    // prismarine-windows types the item as non-null, but mineflayer clears slots with null itself
    ;(bot.inventory as unknown as { updateSlot(slot: number, item: null): void }).updateSlot(2, null)
    const craft: Action = { type: 'craft', object: 'stick', count: 4, materials: { oak_planks: 2 }, tool: null }
    const r = await execute(bot, craft, { signal: never })
    expect(r).toMatchObject({ ok: true, message: 'I crafted 4 stick.' })
    expect(countItem(bot, 'dirt'), 'the dirt back in the inventory').toBe(1)
    expect(countItem(bot, 'oak_planks')).toBe(0)
  }, 30_000)

  /** The bot's model of one slot changed, the server's left as it was (a drift such as a slot update lost). */
  const setModelSlot = (slot: number, item: Bot['inventory']['slots'][number]): void =>
    (bot.inventory as unknown as { updateSlot(slot: number, item: unknown): void }).updateSlot(slot, item)

  it("crafts from the server's bag when its model of the slots drifted from it (planks elsewhere than it thought)", async () => {
    // the bot's model has the planks in slot 20, the server in their own slot. Crafted on that model, the clicks laid
    // one plank in the grid and the server made an oak button: "only 0 arrived" with the grid empty, as in bench d77
    // seed 122. The craft starts from the server's bag now
    await command(bot, '/clear GhostD', { allowError: true })
    await command(bot, '/give GhostD oak_planks 2')
    await syncWithServer(bot)
    const planks = bot.inventory.items().find((it) => it.name === 'oak_planks')!
    setModelSlot(planks.slot, null)
    setModelSlot(20, planks)
    const craft: Action = { type: 'craft', object: 'stick', count: 4, materials: { oak_planks: 2 }, tool: null }
    const r = await execute(bot, craft, { signal: never })
    expect(r).toMatchObject({ ok: true, message: 'I crafted 4 stick.' })
    expect(countItem(bot, 'oak_planks')).toBe(0)
  }, 30_000)
})
