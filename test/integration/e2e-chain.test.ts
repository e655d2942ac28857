/**
 * Issue 3 end to end: a plain mineflayer client (stock APIs plus mineflayer-pathfinder) joins the generated
 * practice world (fixed seed) with an empty inventory and obtains, in order, log → planks → sticks → crafting
 * table → wooden pickaxe → cobblestone → stone pickaxe → furnace → raw iron → iron ingot, with real digging at real
 * speed (no Haste). It finds a tree near spawn and walks to it; it finds an iron ore whose column up to the surface
 * is solid and safe in the chunks it has loaded, teleports (/tp, the only command) onto the surface above it, digs
 * straight down to the ore, digs stone around the bottom of the shaft for cobblestone, places its crafting table
 * and furnace in the holes, mines the ore with the stone pickaxe and smelts it with a leftover plank.
 */
import type { Bot } from 'mineflayer'
import pathfinderPkg from 'mineflayer-pathfinder'
import type { Block } from 'prismarine-block'
import { Vec3 } from 'vec3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ServerHandle } from '../../src/server/process.js'
import { withTimeout } from '../../src/util/async.js'
import { command, joinPlayer, quit, startServer, waitFor } from '../helpers/world.js'

const { pathfinder, Movements, goals } = pathfinderPkg
const SEED = 1
const COBBLE_NEEDED = 11 // 3 for the stone pickaxe, 8 for the furnace
const SOLID_OK = new Set([
  'stone',
  'dirt',
  'grass_block',
  'coarse_dirt',
  'granite',
  'diorite',
  'andesite',
  'tuff',
  'coal_ore',
  'copper_ore',
  'iron_ore',
])
const SIDES = [new Vec3(1, 0, 0), new Vec3(-1, 0, 0), new Vec3(0, 0, 1), new Vec3(0, 0, -1)]

let server: ServerHandle
let bot: Bot

const count = (match: (name: string) => boolean): number =>
  bot.inventory
    .items()
    .filter((i) => match(i.name))
    .reduce((n, i) => n + i.count, 0)
const named =
  (name: string) =>
  (n: string): boolean =>
    n === name
const isLog = (n: string): boolean => n.endsWith('_log') && !n.startsWith('stripped_')
const isPlanks = (n: string): boolean => n.endsWith('_planks')
const itemId = (name: string): number => bot.registry.itemsByName[name]!.id
const at = (p: Vec3): Block => {
  const b = bot.blockAt(p)
  if (!b) throw new Error(`no block data at ${p}`)
  return b
}

async function craft(name: string, table: Block | null = null): Promise<void> {
  const recipe = bot.recipesFor(itemId(name), null, 1, table)[0]
  if (!recipe)
    throw new Error(
      `no recipe for ${name} with ${JSON.stringify(bot.inventory.items().map((i) => `${i.name}x${i.count}`))}`,
    )
  await withTimeout(bot.craft(recipe, 1, table ?? undefined), 10_000, `crafting ${name}`)
}

async function dig(p: Vec3): Promise<void> {
  await withTimeout(bot.dig(at(p), true), 10_000, `digging ${at(p).name} at ${p}`)
}

/** Place the held item into the empty cell `cell` (standing on something solid). */
async function placeInto(cell: Vec3, name: string): Promise<Block> {
  await bot.equip(itemId(name), 'hand')
  await withTimeout(bot.placeBlock(at(cell.offset(0, -1, 0)), new Vec3(0, 1, 0)), 8000, `placing ${name}`)
  await waitFor(() => bot.blockAt(cell)?.name === name, 5000, `${name} placed`)
  return at(cell)
}

/** An iron ore with a solid, dry, cave-free column up to open sky; cheapest first (digging + extra stone needed). */
function chooseOre(): { ore: Vec3; surface: number } {
  const ores = bot.findBlocks({ matching: bot.registry.blocksByName.iron_ore!.id, maxDistance: 64, count: 500 })
  let best: { ore: Vec3; surface: number; cost: number } | null = null
  for (const ore of ores) {
    if (ore.y < 0) continue
    let y = ore.y + 1
    let stone = 0
    let ok = true
    for (; ok; y++) {
      const b = bot.blockAt(new Vec3(ore.x, y, ore.z))
      if (!b) {
        ok = false
        break
      }
      if (b.name === 'air') break
      if (!SOLID_OK.has(b.name)) ok = false
      for (const s of SIDES) {
        const n = bot.blockAt(new Vec3(ore.x, y, ore.z).plus(s))
        if (!n || !SOLID_OK.has(n.name)) {
          if (y <= ore.y + 2 || !n || n.name !== 'air') ok = false
        }
      }
      if (b.name === 'stone') stone++
    }
    for (let k = 0; ok && k < 30; k++) {
      const a = bot.blockAt(new Vec3(ore.x, y + k, ore.z))
      if (a && a.name !== 'air' && !a.name.endsWith('leaves')) ok = false
    }
    if (!ok || y - ore.y < 3) continue
    const bottomStone = [0, 1]
      .flatMap((dy) => SIDES.map((s) => bot.blockAt(ore.offset(0, 1 + dy, 0).plus(s))?.name))
      .filter((n) => n === 'stone').length
    if (stone + bottomStone < COBBLE_NEEDED) continue
    const cost = y - ore.y + Math.max(2, COBBLE_NEEDED - stone)
    if (!best || cost < best.cost) best = { ore, surface: y, cost }
  }
  if (!best) throw new Error(`no suitable iron ore among ${ores.length}`)
  return best
}

beforeAll(async () => {
  server = await startServer({ seed: SEED })
  bot = await joinPlayer(server, 'Pioneer', 30_000)
  bot.loadPlugin(pathfinder)
  await waitFor(() => bot.entity.onGround, 10_000, 'standing on the ground')
  await withTimeout(bot.waitForChunksToLoad(), 20_000, 'chunks loaded')
}, 60_000)

afterAll(async () => {
  quit(bot)
  await server?.stop()
})

describe('issue 3: from an empty inventory to an iron ingot', () => {
  it('obtains log → planks → sticks → table → wooden pickaxe → cobblestone → stone pickaxe → furnace → raw iron → iron ingot', async () => {
    const started = Date.now()
    const steps: Array<{ item: string; atMs: number }> = []
    const got = (item: string, n: number): void => {
      expect(n, item).toBeGreaterThan(0)
      steps.push({ item, atMs: Date.now() - started })
    }
    expect(bot.inventory.items()).toEqual([])

    // Log: walk to the nearest tree and dig the three lowest logs of its trunk by hand.
    const base = bot
      .findBlocks({ matching: (b) => isLog(b.name), maxDistance: 48, count: 200 })
      .filter((p) => ['dirt', 'grass_block'].includes(bot.blockAt(p.offset(0, -1, 0))?.name ?? ''))
      .sort((a, b) => a.distanceTo(bot.entity.position) - b.distanceTo(bot.entity.position))[0]
    if (!base) throw new Error('no tree near spawn')
    const moves = new Movements(bot)
    moves.canDig = false
    bot.pathfinder.setMovements(moves)
    await withTimeout(bot.pathfinder.goto(new goals.GoalNear(base.x, base.y, base.z, 2)), 30_000, 'walking to the tree')
    for (let dy = 0; dy < 3; dy++) if (isLog(at(base.offset(0, dy, 0)).name)) await dig(base.offset(0, dy, 0))
    await waitFor(() => count(isLog) >= 3, 5000, 'three logs picked up')
    got('log', count(isLog))

    // Planks, sticks, crafting table (2×2 grid), then the wooden pickaxe on the placed table.
    for (let i = 0; i < 3; i++)
      await craft(
        bot.inventory
          .items()
          .find((it) => isLog(it.name))!
          .name.replace(/_log$/, '_planks'),
      )
    got('planks', count(isPlanks))
    await craft('stick')
    got('stick', count(named('stick')))
    await craft('crafting_table')
    got('crafting_table', count(named('crafting_table')))
    const feet = bot.entity.position.floored()
    const cell = SIDES.map((s) => feet.plus(s)).find(
      (c) =>
        bot.blockAt(c)?.name === 'air' &&
        bot.blockAt(c.offset(0, -1, 0))?.boundingBox === 'block' &&
        bot.blockAt(c.offset(0, 1, 0))?.name === 'air',
    )
    if (!cell) throw new Error('no room to place the crafting table')
    let table = await placeInto(cell, 'crafting_table')
    await craft('wooden_pickaxe', table)
    got('wooden_pickaxe', count(named('wooden_pickaxe')))
    await dig(table.position) // take the table along
    await waitFor(() => count(named('crafting_table')) === 1, 5000, 'crafting table picked up')

    // Cobblestone: teleport above a safe iron ore and dig straight down with the wooden pickaxe.
    const { ore, surface } = chooseOre()
    await command(bot, `/tp ${ore.x + 0.5} ${surface} ${ore.z + 0.5}`)
    await waitFor(
      () => bot.entity.position.distanceTo(new Vec3(ore.x + 0.5, surface, ore.z + 0.5)) < 0.5 && bot.entity.onGround,
      10_000,
      'teleported above the ore',
    )
    await bot.equip(itemId('wooden_pickaxe'), 'hand')
    for (let y = surface - 1; y > ore.y; y--) {
      await dig(new Vec3(ore.x, y, ore.z))
      await waitFor(() => bot.entity.onGround && bot.entity.position.y < y + 0.1, 5000, `falling to y=${y}`)
    }
    const bottom = new Vec3(ore.x, ore.y + 1, ore.z)
    const dug: Vec3[] = []
    for (const dy of [0, 1]) {
      for (const s of SIDES) {
        const p = bottom.offset(0, dy, 0).plus(s)
        if (count(named('cobblestone')) >= COBBLE_NEEDED && dug.length >= 2) break
        if (at(p).name !== 'stone' && !(dy === 0 && dug.length < 2)) continue
        await dig(p)
        if (dy === 0) dug.push(p)
      }
    }
    await waitFor(() => count(named('cobblestone')) >= COBBLE_NEEDED, 5000, `${COBBLE_NEEDED} cobblestone`)
    got('cobblestone', count(named('cobblestone')))

    // Stone pickaxe and furnace on the table, placed in the holes at the bottom of the shaft.
    table = await placeInto(dug[0]!, 'crafting_table')
    await craft('stone_pickaxe', table)
    got('stone_pickaxe', count(named('stone_pickaxe')))
    await craft('furnace', table)
    got('furnace', count(named('furnace')))
    const furnaceBlock = await placeInto(dug[1]!, 'furnace')

    // Raw iron: mine the ore under our feet with the stone pickaxe.
    await bot.equip(itemId('stone_pickaxe'), 'hand')
    await dig(ore)
    await waitFor(() => count(named('raw_iron')) >= 1, 5000, 'raw iron picked up')
    got('raw_iron', count(named('raw_iron')))

    // Iron ingot: one plank burns 15 s, enough for one 10 s smelt.
    const furnace = await withTimeout(bot.openFurnace(furnaceBlock), 5000, 'opening the furnace')
    await furnace.putFuel(itemId(bot.inventory.items().find((it) => isPlanks(it.name))!.name), null, 1)
    await furnace.putInput(itemId('raw_iron'), null, 1)
    await waitFor(() => furnace.outputItem()?.name === 'iron_ingot', 15_000, 'iron ingot smelted')
    await furnace.takeOutput()
    furnace.close()
    got('iron_ingot', count(named('iron_ingot')))

    expect(steps.map((s) => s.item)).toEqual([
      'log',
      'planks',
      'stick',
      'crafting_table',
      'wooden_pickaxe',
      'cobblestone',
      'stone_pickaxe',
      'furnace',
      'raw_iron',
      'iron_ingot',
    ])
    console.log(`e2e chain: ${JSON.stringify(steps)}`)
    expect(Date.now() - started).toBeLessThan(120_000)
  }, 150_000)
})
