/**
 * Integration test of block placement on a real practice server (superflat, no natural spawning) with real
 * mineflayer bots (src/server/plugins/place-fix.ts): the block placed and the item consumed are always the ones the
 * client held — equipping one kind among several in the hotbar, equipping from the main inventory into a full
 * hotbar (window clicks first), the off hand, a `held_item_slot` sent in the same tick right after or right before
 * the `block_place`, a placement into an occupied position (refused, nothing consumed), one into a block the bot
 * has just dug (its dig handled first, as vanilla does), a refused placement
 * answered at once with both blocks' states (as vanilla does), and pathfinder towering to its full height with its
 * dirt-only scaffolding list while the bot also carries cobblestone, on time and with block updates arriving late
 * (a slow round trip: the bot stands on its pending block), and the place action's first placement landing beside
 * bodies that reach into the next cells (the server refuses a solid block in a player's box). Every case checks the
 * placed blocks in the world and the item counts on both sides: the client's inventory view, and the server's own
 * inventory as `/clear <player> <item>` reports it ("Removed N item(s)"), which also empties the inventory for the
 * next case.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Bot } from 'mineflayer'
import pathfinderPkg from 'mineflayer-pathfinder'
import { Vec3 } from 'vec3'
import { createBot } from '../../src/bot/create.js'
import type { ServerHandle } from '../../src/server/process.js'
import { execute } from '../../src/actions/index.js'
import { onceEvent } from '../../src/util/async.js'
import { overlapsCell } from '../../src/util/vec.js'
import { joinPlayer, quit, startServer, VERSION, waitFor } from '../helpers/world.js'

const { goals } = pathfinderPkg
let server: ServerHandle
let bot: Bot
let feet: Vec3

const UP = new Vec3(0, 1, 0)
/** Items of `name` in the client's view of main inventory, hotbar and off hand (window-0 slots 9..45). */
const count = (b: Bot, name: string): number =>
  b.inventory.slots.slice(9, 46).reduce((n, i) => n + (i?.name === name ? i.count : 0), 0)

/** Run an admin command and return the reply line (system message) matching `pattern`. */
async function reply(b: Bot, line: string, pattern: RegExp): Promise<string> {
  const got = onceEvent<[string]>(b, 'messagestr', { timeoutMs: 10_000, filter: (m) => pattern.test(m) })
  b.chat(line)
  const [m] = await got
  return m
}

/** How many of `item` the server's inventory holds (removing them: call at the end of a case). */
async function serverCount(b: Bot, item: string): Promise<number> {
  const m = await reply(b, `/clear ${b.username} ${item}`, /Removed \d+ item|No items were found/)
  return Number(/Removed (\d+)/.exec(m)?.[1] ?? 0)
}

async function serverCounts(b: Bot, items: string[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {}
  for (const it of items) out[it] = await serverCount(b, it)
  return out
}

const clientCounts = (b: Bot, items: string[]): Record<string, number> =>
  Object.fromEntries(items.map((it) => [it, count(b, it)]))

async function give(b: Bot, item: string, n: number): Promise<void> {
  const before = count(b, item)
  b.chat(`/give ${b.username} ${item} ${n}`)
  await waitFor(() => count(b, item) >= before + n, 5000, `${n} ${item} given`)
}

/** Empty the inventory and select hotbar slot 0. */
async function reset(b: Bot): Promise<void> {
  await reply(b, `/clear ${b.username}`, /Removed \d+ item|No items were found/)
  await waitFor(() => b.inventory.items().length === 0, 5000, 'inventory cleared')
  b.setQuickBarSlot(0)
  await b.waitForTicks(2)
}

/** Ground block (grass) at `dx, dz` from the bot's feet; a block placed on its top lands at feet level. */
const ground = (dx: number, dz: number): Vec3 => feet.offset(dx, -1, dz)

/** Send a raw use_item_on for the top face of `ref` (what bot.placeBlock sends, without waiting). */
function sendPlace(b: Bot, ref: Vec3, direction = 1): void {
  b._client.write('block_place', {
    location: ref,
    direction,
    hand: 0,
    cursorX: 0.5,
    cursorY: 1,
    cursorZ: 0.5,
    insideBlock: false,
    sequence: 0,
    worldBorderHit: false,
  })
}

const never = new AbortController().signal
const nameAt = (b: Bot, pos: Vec3): string | undefined => b.blockAt(pos)?.name

beforeAll(async () => {
  server = await startServer({ generator: 'superflat', seed: 7, practice: { naturalSpawning: false } })
  bot = await joinPlayer(server, 'Placer')
  await waitFor(() => bot.entity.onGround, 5000, 'bot on ground')
  feet = bot.entity.position.floored()
  expect(nameAt(bot, ground(2, 0))).toBe('grass_block')
}, 30_000)

afterAll(async () => {
  quit(bot)
  await server?.stop()
})

describe('block placement uses the held item', () => {
  it('places the equipped kind among several in the hotbar, N times', async () => {
    await reset(bot)
    const kinds = ['wooden_pickaxe', 'cobblestone', 'oak_planks', 'dirt', 'stone_bricks']
    await give(bot, 'wooden_pickaxe', 1)
    await give(bot, 'cobblestone', 3)
    await give(bot, 'oak_planks', 5)
    await give(bot, 'dirt', 4)
    await give(bot, 'stone_bricks', 6)
    await bot.equip(bot.registry.itemsByName.dirt!.id, 'hand')
    expect(bot.heldItem?.name).toBe('dirt')
    const placed: Vec3[] = []
    for (let i = 0; i < 3; i++) {
      const ref = bot.blockAt(ground(2 + i, -2))!
      await bot.placeBlock(ref, UP)
      placed.push(ref.position.offset(0, 1, 0))
    }
    expect(placed.map((p) => nameAt(bot, p))).toEqual(['dirt', 'dirt', 'dirt'])
    const want = { wooden_pickaxe: 1, cobblestone: 3, oak_planks: 5, dirt: 1, stone_bricks: 6 }
    await waitFor(() => count(bot, 'dirt') === 1, 3000, 'client dirt count')
    expect(clientCounts(bot, kinds)).toEqual(want)
    expect(await serverCounts(bot, kinds)).toEqual(want)
  })

  it('places an item that equip first moves from the main inventory into a full hotbar', async () => {
    await reset(bot)
    const hotbar = [
      'stone',
      'granite',
      'diorite',
      'andesite',
      'cobblestone',
      'oak_planks',
      'bricks',
      'oak_log',
      'glass',
    ]
    for (const k of hotbar) await give(bot, k, 2)
    await give(bot, 'dirt', 5)
    const dirtSlot = bot.inventory.items().find((i) => i.name === 'dirt')!.slot
    expect(dirtSlot).toBeLessThan(36) // main inventory: the hotbar is full
    await bot.equip(bot.registry.itemsByName.dirt!.id, 'hand')
    expect(bot.heldItem?.name).toBe('dirt')
    const placed: Vec3[] = []
    for (let i = 0; i < 3; i++) {
      const ref = bot.blockAt(ground(2 + i, -1))!
      await bot.placeBlock(ref, UP)
      placed.push(ref.position.offset(0, 1, 0))
    }
    expect(placed.map((p) => nameAt(bot, p))).toEqual(['dirt', 'dirt', 'dirt'])
    const want = { ...Object.fromEntries(hotbar.map((k) => [k, 2])), dirt: 2 }
    await waitFor(() => count(bot, 'dirt') === 2, 3000, 'client dirt count')
    expect(clientCounts(bot, [...hotbar, 'dirt'])).toEqual(want)
    expect(await serverCounts(bot, [...hotbar, 'dirt'])).toEqual(want)
  })

  it('places from the off hand while the main hand holds a tool', async () => {
    await reset(bot)
    await give(bot, 'wooden_pickaxe', 1)
    await give(bot, 'cobblestone', 3)
    await give(bot, 'dirt', 4)
    await bot.equip(bot.registry.itemsByName.dirt!.id, 'off-hand')
    await bot.equip(bot.registry.itemsByName.wooden_pickaxe!.id, 'hand')
    await waitFor(() => bot.inventory.slots[45]?.name === 'dirt', 3000, 'dirt in the off hand')
    const ref = bot.blockAt(ground(2, 1))!
    // mineflayer's off-hand placement is only reachable through its (untyped) internal placeBlockWithOptions.
    const withOptions = bot as Bot & {
      _placeBlockWithOptions(r: typeof ref, face: Vec3, o: { offhand: boolean; swingArm: string }): Promise<void>
    }
    await withOptions._placeBlockWithOptions(ref, UP, { offhand: true, swingArm: 'left' })
    expect(nameAt(bot, ref.position.offset(0, 1, 0))).toBe('dirt')
    const want = { wooden_pickaxe: 1, cobblestone: 3, dirt: 3 }
    await waitFor(() => count(bot, 'dirt') === 3, 3000, 'client dirt count')
    expect(bot.inventory.slots[45]?.count).toBe(3)
    expect(clientCounts(bot, Object.keys(want))).toEqual(want)
    expect(await serverCounts(bot, Object.keys(want))).toEqual(want)
  })

  it('honours packet order when the held slot changes in the same tick as the placement', async () => {
    await reset(bot)
    await give(bot, 'wooden_pickaxe', 1)
    await give(bot, 'cobblestone', 3)
    await give(bot, 'dirt', 4)
    const slotOf = (name: string): number => bot.inventory.items().find((i) => i.name === name)!.slot - 36
    const [dirt, cobble, pick] = [slotOf('dirt'), slotOf('cobblestone'), slotOf('wooden_pickaxe')]
    // block_place with dirt held, then at once a switch away (to cobblestone or back to the tool): dirt is placed.
    for (let i = 0; i < 3; i++) {
      bot.setQuickBarSlot(dirt)
      await bot.waitForTicks(2)
      const ref = ground(2 + i, 2)
      sendPlace(bot, ref)
      bot.setQuickBarSlot(i === 1 ? pick : cobble)
      await waitFor(() => nameAt(bot, ref.offset(0, 1, 0)) !== 'air', 3000, `block ${i} placed`)
      expect(nameAt(bot, ref.offset(0, 1, 0))).toBe('dirt')
    }
    // The other order in one tick: switch to cobblestone, then place → cobblestone.
    bot.setQuickBarSlot(dirt)
    await bot.waitForTicks(2)
    bot.setQuickBarSlot(cobble)
    sendPlace(bot, ground(5, 2))
    await waitFor(() => nameAt(bot, ground(5, 2).offset(0, 1, 0)) !== 'air', 3000, 'cobblestone placed')
    expect(nameAt(bot, ground(5, 2).offset(0, 1, 0))).toBe('cobblestone')
    const want = { wooden_pickaxe: 1, cobblestone: 2, dirt: 1 }
    await waitFor(() => count(bot, 'cobblestone') === 2 && count(bot, 'dirt') === 1, 3000, 'client counts')
    expect(clientCounts(bot, Object.keys(want))).toEqual(want)
    expect(await serverCounts(bot, Object.keys(want))).toEqual(want)
  })

  it('refuses to place into an occupied position and consumes nothing', async () => {
    await reset(bot)
    await give(bot, 'dirt', 2)
    await bot.equip(bot.registry.itemsByName.dirt!.id, 'hand')
    // The west face of the ground block at +3 points into the ground block at +2: occupied.
    const occupied = ground(2, 3)
    sendPlace(bot, ground(3, 3), 4)
    // A valid placement right after: the server handles a player's placements in order, so once it shows up the
    // refused one has been handled too.
    const ok = ground(4, 3)
    sendPlace(bot, ok)
    await waitFor(() => nameAt(bot, ok.offset(0, 1, 0)) === 'dirt', 3000, 'second placement')
    expect(nameAt(bot, occupied)).toBe('grass_block')
    await waitFor(() => count(bot, 'dirt') === 1, 3000, 'client dirt count')
    expect(await serverCount(bot, 'dirt')).toBe(1)
  })

  it('places into a block the bot has just dug, in the same breath (mineflayer shows it as air at once)', async () => {
    await reset(bot)
    await give(bot, 'dirt', 3)
    await bot.equip(bot.registry.itemsByName.dirt!.id, 'hand')
    // three times over: the dig's handling and the placement's race on the server, which must not let the second win
    for (const dx of [2, 3, 4]) {
      const cell = ground(dx, -2)
      expect(nameAt(bot, cell)).toBe('grass_block')
      await bot.dig(bot.blockAt(cell)!, true)
      expect(nameAt(bot, cell)).toBe('air') // mineflayer's own prediction, before the server has said anything
      sendPlace(bot, cell.offset(0, -1, 0))
      await waitFor(() => nameAt(bot, cell) === 'dirt', 3000, `dirt placed into the dug cell at +${dx}`)
    }
    expect(count(bot, 'dirt')).toBe(0)
    expect(await serverCount(bot, 'dirt')).toBe(0)
  })

  it('answers a refused placement with the states of both blocks, as vanilla does', async () => {
    await reset(bot)
    await give(bot, 'dirt', 1)
    await bot.equip(bot.registry.itemsByName.dirt!.id, 'hand')
    const under = bot.entity.position.floored().offset(0, -1, 0)
    // the top face of the block under the bot points into the bot's own feet: refused
    const echoes = Promise.all(
      [under, under.offset(0, 1, 0)].map((pos) => onceEvent(bot, `blockUpdate:${pos}`, { timeoutMs: 3000 })),
    )
    sendPlace(bot, under)
    await echoes
    // mineflayer settles on those answers: it says the server refused, not that the server never answered
    await expect(bot.placeBlock(bot.blockAt(under)!, UP)).rejects.toThrow(/Server refused to place dirt/)
    expect(nameAt(bot, under.offset(0, 1, 0))).toBe('air')
    expect(await serverCount(bot, 'dirt')).toBe(1)
  })
})

/** Hold the client's block updates back `delayMs` (a slow round trip), leaving every other packet on time. */
function slowBlockUpdates(b: Bot, delayMs: number): void {
  if (delayMs === 0) return
  const client = b._client as unknown as { emit(ev: string, ...args: unknown[]): boolean }
  const emit = client.emit.bind(client)
  client.emit = (ev: string, ...args: unknown[]): boolean => {
    if (ev !== 'block_change' && ev !== 'multi_block_change') return emit(ev, ...args)
    setTimeout(() => emit(ev, ...args), delayMs)
    return true
  }
}

describe('pathfinder towering', () => {
  // Pathfinder jump-places as soon as its feet clear the block on the client, while the server (by the position
  // reported a tick earlier) still sees the body in it and refuses, as vanilla does; src/bot/place-clear.ts holds
  // the placement until the server has seen the body clear, so every tower step lands. With a slow round trip the
  // bot would fall back into the cell before the block arrives (and dig it out, losing it): it stands on the
  // pending block instead, as a vanilla client that shows its own placement at once.
  it.each([
    ['on time', 0],
    ['with block updates 400 ms late', 400],
  ])('towers with dirt only (its scaffolding list) while carrying cobblestone, %s', async (_, delayMs) => {
    const ghost = createBot({
      host: '127.0.0.1',
      port: server.port,
      username: delayMs ? 'SlowTower' : 'Tower',
      version: VERSION,
      auth: 'offline',
    })
    try {
      await onceEvent(ghost, 'spawn', { timeoutMs: 20_000 })
      await waitFor(() => ghost.entity.onGround, 5000, 'tower bot on ground')
      const kinds = ['wooden_pickaxe', 'cobblestone', 'dirt']
      await give(ghost, 'wooden_pickaxe', 1)
      await give(ghost, 'cobblestone', 3)
      await give(ghost, 'dirt', 4)
      // Stand on a fresh column away from the other cases' blocks.
      const start = feet.offset(-4, 0, delayMs ? -6 : -4)
      ghost.chat(`/tp ${start.x + 0.5} ${start.y} ${start.z + 0.5}`)
      await waitFor(() => ghost.entity.position.floored().equals(start) && ghost.entity.onGround, 5000, 'teleported')
      let dug = 0
      ghost.on('diggingCompleted', () => {
        dug++
      })
      slowBlockUpdates(ghost, delayMs)
      await ghost.pathfinder.goto(new goals.GoalBlock(start.x, start.y + 2, start.z))
      // the pathfinder calls the goal reached at the top of the last jump: judge where the body lands
      await waitFor(() => ghost.entity.onGround, 5000, 'landed')
      expect(ghost.entity.position.floored()).toEqual(start.offset(0, 2, 0))
      expect([0, 1].map((dy) => nameAt(ghost, start.offset(0, dy, 0)))).toEqual(['dirt', 'dirt'])
      expect(dug).toBe(0)
      const want = { wooden_pickaxe: 1, cobblestone: 3, dirt: 2 }
      await waitFor(() => count(ghost, 'dirt') === want.dirt, 3000, 'client dirt count')
      expect(clientCounts(ghost, kinds)).toEqual(want)
      expect(await serverCounts(ghost, kinds)).toEqual(want)
    } finally {
      quit(ghost)
    }
  })
})

describe('the place action', () => {
  // A player's box is 0.6 wide: standing near a cell's edge it reaches into the next cell, where the server refuses
  // a solid block (as vanilla does). The place action's spots leave out every cell a player's body is in, so its
  // first placement lands, beside the bot itself standing at an edge and beside another player.
  it('places a crafting table at the first try, never into its own or another player’s body', async () => {
    const builder = createBot({
      host: '127.0.0.1',
      port: server.port,
      username: 'Builder',
      version: VERSION,
      auth: 'offline',
    })
    try {
      await onceEvent(builder, 'spawn', { timeoutMs: 20_000 })
      await waitFor(() => builder.entity.onGround, 5000, 'builder on ground')
      await give(builder, 'crafting_table', 1)
      const s = feet.offset(6, 0, 6)
      bot.chat(`/tp ${s.x - 0.5} ${s.y} ${s.z + 0.5}`) // the other player, in the cell west of the builder's
      builder.chat(`/tp ${s.x + 0.8} ${s.y} ${s.z + 0.5}`) // reaching 0.1 into the cell east of its own
      await waitFor(() => bot.entity.position.distanceTo(s.offset(-0.5, 0, 0.5)) < 0.01, 5000, 'other player there')
      await waitFor(
        () => builder.entity.position.distanceTo(s.offset(0.8, 0, 0.5)) < 0.01 && builder.entity.onGround,
        5000,
        'builder at the edge',
      )
      // and the builder has been told where the other player now stands: its spots leave out the bodies it knows of
      // (a full suite on a loaded machine: the move reached the builder after its placement, which the server refused)
      await waitFor(
        () => (builder.players[bot.username]?.entity?.position.distanceTo(s.offset(-0.5, 0, 0.5)) ?? 9) < 0.1,
        5000,
        'the builder sees the other player there',
      )
      let sent = 0
      const client = builder._client as unknown as { write(name: string, params: unknown): void }
      const write = client.write.bind(client)
      client.write = (name: string, params: unknown): void => {
        if (name === 'block_place') sent++
        write(name, params)
      }
      const r = await execute(builder, { type: 'place', object: 'crafting_table' }, { signal: never })
      expect(r.ok, r.message).toBe(true)
      expect(sent).toBe(1)
      const at = placedAt(r.message)
      for (const body of [builder.entity.position, bot.entity.position]) expect(overlapsCell(body, at)).toBe(false)
      expect(nameAt(builder, at)).toBe('crafting_table')
    } finally {
      quit(builder)
    }
  })
})

/** The block position in a place action's "I placed X at x y z." */
function placedAt(message: string): Vec3 {
  const m = /at (-?\d+) (-?\d+) (-?\d+)/.exec(message)
  if (!m) throw new Error(`no position in ${message}`)
  return new Vec3(Number(m[1]), Number(m[2]), Number(m[3]))
}
