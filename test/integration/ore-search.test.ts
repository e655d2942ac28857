/**
 * Integration test of the underground search on the practice world (seed 1, generated terrain, no x-ray): from the
 * surface, holding a stone pickaxe, the bot explores underground for coal and then for iron — it digs toward the
 * level the knowledge gives and branch-mines (or walks caves) there until an ore is in sight — and then mines it,
 * each within the actions' own step and time budgets. The pickaxe comes from /give; everything else the bot does itself.
 * Then dig_down over a narrow cave carved with /setblock under its hole: the shaft moves sideways and goes on. Last,
 * the poke holes: sealed in a 1×2 cell in solid rock with gold blocks (which the world never makes) 4 blocks away at
 * eye level on every side, the search sees one from where it stands by digging a 1×1 hole toward it, without
 * walking or digging a corridor to it. A cave walk looks all the way: gold round a niche half way along ends it there.
 * A dig down watching for a block stops where its shaft opens a room with one in sight. Underground, mine leaves a block in sight down a 20-block tunnel (beyond the
 * search's own sight, sighting.ts) rather than walking at it, but goes for a block explore saw a moment before and a
 * wall now hides. A walk with a time limit ends then although the pathfinder is digging its way. And go_up with no
 * way back to where it left the surface (the pathfinder finds no path in time) pillars straight up through the rock
 * from where it stands to the open sky. Sealed in a cell below the lava level, the search first climbs back up to its
 * level.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Bot } from 'mineflayer'
import { Vec3 } from 'vec3'
import { createBot } from '../../src/bot/create.js'
import type { ServerHandle } from '../../src/server/process.js'
import { execute } from '../../src/actions/index.js'
import { runHandler } from '../../src/actions/run.js'
import { stairsDown } from '../../src/actions/stairs.js'
import { type CaveWalk, caveWalk } from '../../src/actions/cave-walk.js'
import { goals, gotoWithin } from '../../src/actions/world.js'
import { rememberSurface } from '../../src/actions/memory.js'
import { isUnderground, visibleBlocks } from '../../src/perception/vision.js'
import { onceEvent, waitFor } from '../../src/util/async.js'
import { VERSION, command, countItem, giveItem, startServer } from '../helpers/world.js'
import { LAVA_LEVEL } from '../../src/server/worldgen/terrain.js'
import { isRock as rockAt, solidPatch as patchNear } from '../helpers/rock.js'

let server: ServerHandle
let bot: Bot
const never = new AbortController().signal
/** An explore (180 s budget) and a mine (180 s budget) back to back. */
const SEARCH_MS = 400_000

beforeAll(async () => {
  server = await startServer({ seed: 1, practice: { naturalSpawning: false } })
  bot = createBot({ host: '127.0.0.1', port: server.port, username: 'Miner', version: VERSION, auth: 'offline' })
  await onceEvent(bot, 'spawn', { timeoutMs: 20_000 })
  await bot.waitForChunksToLoad()
  await waitFor(() => bot.entity.onGround, 5000, 'landing')
  await command(bot, '/time set day')
  await giveItem(bot, 'stone_pickaxe', 1)
})
afterAll(async () => {
  try {
    bot?.quit()
  } catch {
    /* gone */
  }
  await server?.stop()
})

const isRock = (p: Vec3): boolean => rockAt(bot, p)
const solidPatch = (half: number, fromDy: number, toDy: number): Vec3 => patchNear(bot, half, fromDy, toDy)

/**
 * A cell 12 below the feet with a 1×1 tunnel at eye level running `length` blocks through solid rock and a coal
 * block at its end; the bot stands in the cell. Returns the cell, the tunnel's direction and the coal block.
 */
async function tunnelScene(length: number): Promise<{ cell: Vec3; dir: Vec3; end: Vec3 }> {
  const cell = solidPatch(1, -13, -10).offset(0, -12, 0)
  const eye = cell.offset(0, 1, 0)
  const dir = [new Vec3(1, 0, 0), new Vec3(-1, 0, 0), new Vec3(0, 0, 1), new Vec3(0, 0, -1)].find((d) => {
    for (let k = 1; k <= length + 1; k++) if (!isRock(eye.plus(d.scaled(k)))) return false
    return true
  })
  if (!dir) throw new Error('no straight run of rock from the cell')
  const end = eye.plus(dir.scaled(length))
  for (const y of [0, 1]) await command(bot, `/setblock ${cell.x} ${cell.y + y} ${cell.z} air`)
  for (let k = 1; k < length; k++) {
    const p = eye.plus(dir.scaled(k))
    await command(bot, `/setblock ${p.x} ${p.y} ${p.z} air`)
  }
  await command(bot, `/setblock ${end.x} ${end.y} ${end.z} coal_block`)
  await command(bot, `/tp ${bot.username} ${cell.x + 0.5} ${cell.y} ${cell.z + 0.5}`)
  await waitFor(
    () =>
      bot.entity.position.floored().equals(cell) &&
      bot.entity.onGround &&
      bot.blockAt(end)?.name === 'coal_block' &&
      bot.blockAt(end.minus(dir))?.name === 'air',
    5000,
    'in the cell with the coal block down the tunnel',
  )
  return { cell, dir, end }
}

describe('finding ore underground', () => {
  it(
    'finds coal under the surface and mines it',
    async () => {
      expect(isUnderground(bot)).toBe(false)
      const startY = bot.entity.position.y
      const seen = await execute(
        bot,
        { type: 'explore', object: 'coal_ore', strategy: 'underground' },
        { signal: never },
      )
      expect(seen.ok, seen.message).toBe(true)
      expect(seen.message).toMatch(/I can see coal_ore/)
      expect(bot.entity.position.y).toBeLessThan(startY)
      const mined = await execute(
        bot,
        { type: 'mine', object: 'coal', tool: 'stone_pickaxe', count: 1 },
        { signal: never },
      )
      expect(mined.ok, mined.message).toBe(true)
      expect(countItem(bot, 'coal')).toBeGreaterThanOrEqual(1)
    },
    SEARCH_MS,
  )

  it(
    'digs down to the iron level and finds and mines iron ore',
    async () => {
      const seen = await execute(
        bot,
        { type: 'explore', object: 'iron_ore', strategy: 'underground' },
        { signal: never },
      )
      expect(seen.ok, seen.message).toBe(true)
      expect(seen.message).toMatch(/I can see (deepslate_)?iron_ore/)
      const mined = await execute(
        bot,
        { type: 'mine', object: 'raw_iron', tool: 'stone_pickaxe', count: 1 },
        { signal: never },
      )
      expect(mined.ok, mined.message).toBe(true)
      expect(countItem(bot, 'raw_iron')).toBeGreaterThanOrEqual(1)
    },
    SEARCH_MS,
  )

  it('moves its shaft sideways around a deep drop (a narrow cave under it) and digs on without a fall', async () => {
    const c = solidPatch(2, -12, -1)
    // room to stand at the top, three blocks of roof, then a 7-deep shaft of air right under the hole (the "cave")
    for (const y of [0, 1, -4, -5, -6, -7, -8, -9, -10]) await command(bot, `/setblock ${c.x} ${c.y + y} ${c.z} air`)
    await waitFor(() => bot.blockAt(c.offset(0, -10, 0))?.name === 'air', 5000, 'the cave')
    await command(bot, `/tp ${bot.username} ${c.x + 0.5} ${c.y} ${c.z + 0.5}`)
    await waitFor(() => bot.entity.position.floored().equals(c) && bot.entity.onGround, 5000, 'standing in the hole')
    const health = bot.health
    const down = await execute(bot, { type: 'dig_down', ylevel: c.y - 9, tool: 'stone_pickaxe' }, { signal: never })
    expect(down.ok, down.message).toBe(true)
    expect(bot.entity.position.y).toBeLessThan(c.y - 8)
    expect(bot.health).toBe(health) // it never dropped into the cave
  }, 60_000)

  it('stops digging down once the block it watches for is in sight, in a cave its shaft opens (dig_down watch)', async () => {
    // sealed in a 1×2 cell in rock; 3 below its floor a 3-high room opens beside the shaft's column, gold at its far
    // wall: out of sight until the shaft reaches the room, then in sight well above the level asked
    const start = bot.entity.position.clone()
    const cell = solidPatch(4, -17, -2).offset(0, -5, 0)
    const room: Vec3[] = []
    for (let dx = 1; dx <= 3; dx++) for (let dy = -5; dy <= -3; dy++) room.push(cell.offset(dx, dy, 0))
    const gold = cell.offset(4, -4, 0)
    for (const p of [cell, cell.offset(0, 1, 0), ...room]) await command(bot, `/setblock ${p.x} ${p.y} ${p.z} air`)
    await command(bot, `/setblock ${gold.x} ${gold.y} ${gold.z} gold_block`)
    await command(bot, `/tp ${bot.username} ${cell.x + 0.5} ${cell.y} ${cell.z + 0.5}`)
    await waitFor(
      () =>
        bot.entity.position.floored().equals(cell) && bot.entity.onGround && bot.blockAt(gold)?.name === 'gold_block',
      5000,
      'sealed in the cell over the room',
    )
    const ids = new Set([bot.registry.blocksByName.gold_block!.id])
    expect(visibleBlocks(bot, ids, 16, 1), 'the gold is out of sight from the cell').toHaveLength(0)
    try {
      const r = await execute(
        bot,
        { type: 'dig_down', ylevel: cell.y - 10, tool: 'stone_pickaxe', watch: 'gold_block' },
        { signal: never },
      )
      expect(r.ok, r.message).toBe(true)
      expect(r.message).toContain(`I can see gold_block at ${gold.x} ${gold.y} ${gold.z}`)
      // it stopped where the room opened, not at the level asked
      expect(bot.entity.position.y).toBeGreaterThanOrEqual(cell.y - 5)
      expect(visibleBlocks(bot, ids, 16, 1)[0]?.position).toEqual(gold)
    } finally {
      const shaft = [0, 1, -1, -2, -3, -4, -5, -6].map((dy) => cell.offset(0, dy, 0))
      await command(bot, `/tp ${bot.username} ${start.x} ${start.y} ${start.z}`)
      for (const p of [...shaft, ...room, gold]) await command(bot, `/setblock ${p.x} ${p.y} ${p.z} stone`)
      await waitFor(() => bot.entity.position.distanceTo(start) < 0.5 && bot.entity.onGround, 5000, 'back at the start')
    }
  }, 60_000)

  it('digs a staircase down beside a cave under its shaft, toward the side with rock under it (stairsDown)', async () => {
    // the next tests carve their scenes in the rock around where the bot stands: it goes back there at the end, and
    // the rock this scene opened is closed again (the poke test's cell beside this cave was no longer sealed)
    const start = bot.entity.position.clone()
    const cell = solidPatch(3, -22, -8).offset(0, -12, 0)
    for (const y of [0, 1]) await command(bot, `/setblock ${cell.x} ${cell.y + y} ${cell.z} air`)
    // the cave: this column and the one to -x, three wide along z, six deep from two below the feet
    const cave: Vec3[] = []
    for (const dx of [-1, 0])
      for (const dz of [-1, 0, 1]) for (let dy = -2; dy >= -7; dy--) cave.push(cell.offset(dx, dy, dz))
    for (const p of cave) await command(bot, `/setblock ${p.x} ${p.y} ${p.z} air`)
    await command(bot, `/tp ${bot.username} ${cell.x + 0.5} ${cell.y} ${cell.z + 0.5}`)
    await waitFor(
      () =>
        bot.entity.position.floored().equals(cell) && bot.entity.onGround && bot.blockAt(cave.at(-1)!)?.name === 'air',
      5000,
      'standing over the cave',
    )
    const health = bot.health
    const inCave: Vec3[] = []
    const watch = (): void => {
      const at = bot.entity.position.floored()
      if (cave.some((c) => c.equals(at))) inCave.push(at)
    }
    bot.on('physicsTick', watch)
    try {
      const r = await runHandler(
        bot,
        { signal: never },
        { name: 'dig_down', doing: 'digging', budget: { steps: 20, timeMs: 60_000 }, tracked: false },
        async (run) => {
          const shaftSafe = (at: Vec3): boolean => isRock(at.offset(0, -1, 0)) && isRock(at.offset(0, -2, 0))
          return String(await stairsDown(run, cell.y - 8, 'stone_pickaxe', shaftSafe))
        },
      )
      expect(r.ok, r.message).toBe(true)
      expect(r.message).toBe('true')
      // one step along +x (the only side whose steps have rock under them), where the rock below is whole again
      expect(bot.entity.position.floored()).toEqual(cell.offset(1, -1, 0))
      expect(inCave).toEqual([])
      expect(bot.health).toBe(health)
    } finally {
      bot.removeListener('physicsTick', watch)
      await command(bot, `/tp ${bot.username} ${start.x} ${start.y} ${start.z}`)
      const opened = [...cave, cell, cell.offset(0, 1, 0), ...[-1, 0, 1].map((dy) => cell.offset(1, dy, 0))]
      for (const p of opened) await command(bot, `/setblock ${p.x} ${p.y} ${p.z} stone`)
      await waitFor(() => bot.entity.position.distanceTo(start) < 0.5 && bot.entity.onGround, 5000, 'back at the start')
    }
  }, 60_000)

  it('pokes 1×1 holes from where it stands and sees a block 4 away at eye level without walking to it', async () => {
    // a cell 12 below the feet, in rock from 1 below it to 6 above it, 5 blocks to every side
    const cell = solidPatch(5, -13, -6).offset(0, -12, 0)
    for (const y of [0, 1]) await command(bot, `/setblock ${cell.x} ${cell.y + y} ${cell.z} air`)
    const golds = [new Vec3(4, 1, 0), new Vec3(-4, 1, 0), new Vec3(0, 1, 4), new Vec3(0, 1, -4)].map((d) =>
      cell.plus(d),
    )
    for (const g of golds) await command(bot, `/setblock ${g.x} ${g.y} ${g.z} gold_block`)
    await command(bot, `/tp ${bot.username} ${cell.x + 0.5} ${cell.y} ${cell.z + 0.5}`)
    await waitFor(
      () =>
        bot.entity.position.floored().equals(cell) &&
        bot.entity.onGround &&
        golds.every((g) => bot.blockAt(g)?.name === 'gold_block'),
      5000,
      'sealed in the cell with the gold around',
    )
    const seen = await execute(
      bot,
      { type: 'explore', object: 'gold_block', strategy: 'underground' },
      { signal: never },
    )
    expect(seen.ok, seen.message).toBe(true)
    // seen from the cell itself: the bot never left it, and the hole toward the gold is 1×1 at eye level
    expect(bot.entity.position.floored()).toEqual(cell)
    const found = golds.find((g) => seen.message.includes(`at ${g.x} ${g.y} ${g.z}`))
    expect(found, seen.message).toBeDefined()
    // the distance said is from the feet to the block's corner: 4 toward +x or +z, 5 toward -x or -z (which way the
    // search pokes first depends on the heading earlier searches left it)
    const said = Number(/(\d+) blocks away/.exec(seen.message)?.[1])
    expect(said).toBe(Math.round(found!.distanceTo(bot.entity.position)))
    expect(said).toBeLessThanOrEqual(5)
    const step = found!.minus(cell.offset(0, 1, 0)).scaled(1 / 4)
    for (let k = 1; k <= 3; k++) {
      const hole = cell.offset(0, 1, 0).plus(step.scaled(k))
      expect(bot.blockAt(hole)?.name, `poke block ${k}`).toBe('air')
      expect(bot.blockAt(hole.offset(0, -1, 0))?.boundingBox, `under poke block ${k}`).toBe('block')
    }
  }, 60_000)

  it('looks all along a cave walk: a block in sight only half way, round a niche, ends the walk there (caveWalk)', async () => {
    // a 2-high "cave" 9 long through rock 12 below the feet; half way along, a niche at eye level with gold behind it,
    // seen only from beside the niche: neither from the start nor from the spot at the far end
    const mid = solidPatch(5, -13, -8).offset(0, -12, 0)
    const cave = [-4, -3, -2, -1, 0, 1, 2, 3, 4].flatMap((dx) => [mid.offset(dx, 0, 0), mid.offset(dx, 1, 0)])
    const niche = mid.offset(0, 1, 1)
    const gold = mid.offset(0, 1, 2)
    for (const p of [...cave, niche]) await command(bot, `/setblock ${p.x} ${p.y} ${p.z} air`)
    await command(bot, `/setblock ${gold.x} ${gold.y} ${gold.z} gold_block`)
    const start = mid.offset(-4, 0, 0)
    const spot = mid.offset(4, 0, 0)
    const ids = new Set([bot.registry.blocksByName.gold_block!.id])
    const look = (): Vec3 | null => visibleBlocks(bot, ids, 16, 1)[0]?.position ?? null
    const standAt = async (p: Vec3, what: string): Promise<void> => {
      await command(bot, `/tp ${bot.username} ${p.x + 0.5} ${p.y} ${p.z + 0.5}`)
      await waitFor(
        () =>
          bot.entity.position.floored().equals(p) && bot.entity.onGround && bot.blockAt(gold)?.name === 'gold_block',
        5000,
        what,
      )
    }
    try {
      await standAt(spot, 'at the far end')
      expect(look(), 'the gold is out of sight from the spot').toBeNull()
      await standAt(start, 'at the start')
      expect(look(), 'the gold is out of sight from the start').toBeNull()
      let walk: CaveWalk | null = null
      const r = await runHandler(
        bot,
        { signal: never },
        { name: 'explore', doing: 'exploring', budget: { steps: 20, timeMs: 30_000 }, tracked: false },
        async (run) => {
          walk = await caveWalk(run, spot, look)
          return 'walked'
        },
      )
      expect(r.ok, r.message).toBe(true)
      expect(walk).toEqual({ seen: gold, reached: true })
      // the sighting ended the walk short of the spot
      expect(bot.entity.position.x).toBeLessThan(spot.x - 0.5)
    } finally {
      await command(bot, `/tp ${bot.username} ${start.x + 0.5} ${start.y} ${start.z + 0.5}`)
      for (const p of [...cave, niche, gold]) await command(bot, `/setblock ${p.x} ${p.y} ${p.z} stone`)
    }
  }, 60_000)

  it("underground, mines no block it sees beyond the search's own sight (20 blocks down a tunnel): not_found", async () => {
    // 20 blocks down the tunnel: in sight, but farther than the underground sight of explore, so mine leaves it
    const { cell, end } = await tunnelScene(20)
    expect(isUnderground(bot)).toBe(true)
    const ids = new Set([bot.registry.blocksByName.coal_block!.id])
    expect(visibleBlocks(bot, ids, 32, 1)[0]?.position, 'the coal block is in sight').toEqual(end)
    const r = await execute(
      bot,
      { type: 'mine', object: 'coal_block', count: 1, tool: 'stone_pickaxe' },
      { signal: never },
    )
    expect(r.reason, r.message).toBe('not_found')
    expect(bot.entity.position.floored()).toEqual(cell)
    expect(bot.blockAt(end)?.name).toBe('coal_block')
  }, 60_000)

  it('mines the block explore saw even when, a step later, it is out of sight', async () => {
    // 6 blocks down the tunnel: explore sees it; then the tunnel is closed between them (as when the bot stops
    // where a wall hides it), and mine still goes for it
    const { cell, dir, end } = await tunnelScene(6)
    const eye = cell.offset(0, 1, 0)
    const seen = await execute(
      bot,
      { type: 'explore', object: 'coal_block', strategy: 'underground' },
      { signal: never },
    )
    expect(seen.ok, seen.message).toBe(true)
    expect(seen.message).toContain(`at ${end.x} ${end.y} ${end.z}`)
    const wall = eye.plus(dir.scaled(3))
    await command(bot, `/setblock ${wall.x} ${wall.y} ${wall.z} stone`)
    await waitFor(() => bot.blockAt(wall)?.name === 'stone', 5000, 'the tunnel closed')
    const ids = new Set([bot.registry.blocksByName.coal_block!.id])
    expect(visibleBlocks(bot, ids, 32, 1)).toHaveLength(0)
    const r = await execute(
      bot,
      { type: 'mine', object: 'coal_block', count: 1, tool: 'stone_pickaxe' },
      { signal: never },
    )
    expect(r.ok, r.message).toBe(true)
    expect(countItem(bot, 'coal_block')).toBeGreaterThanOrEqual(1)
  }, 60_000)

  // the same stop two ways: the walk's time limit, and its `until` condition (dig_down's path down ends on a stall)
  const STOPS = [
    ['at its time limit', () => [100, () => false] as const],
    [
      'when its until condition holds',
      () => {
        const t0 = Date.now()
        return [60_000, () => Date.now() - t0 > 100] as const
      },
    ],
  ] as const
  it.each(STOPS)(
    'ends a walk %s even while the pathfinder is digging its way (gotoWithin)',
    async (_, stop) => {
      // sealed in a 1×2 cell with its only way on through two crafting tables (3.75 s each by hand, no tool held): the
      // pathfinder digs, and honours its own stop only on reaching its next node, after both tables
      const cell = solidPatch(2, -14, -9).offset(0, -12, 0)
      const dir = new Vec3(1, 0, 0)
      for (const y of [0, 1]) {
        await command(bot, `/setblock ${cell.x} ${cell.y + y} ${cell.z} air`)
        const wall = cell.plus(dir).offset(0, y, 0)
        await command(bot, `/setblock ${wall.x} ${wall.y} ${wall.z} crafting_table`)
        for (const k of [2, 3]) {
          const p = cell.plus(dir.scaled(k)).offset(0, y, 0)
          await command(bot, `/setblock ${p.x} ${p.y} ${p.z} air`)
        }
      }
      await command(bot, `/clear ${bot.username}`)
      await command(bot, `/tp ${bot.username} ${cell.x + 0.5} ${cell.y} ${cell.z + 0.5}`)
      const wall = cell.plus(dir)
      await waitFor(
        () =>
          bot.entity.position.floored().equals(cell) &&
          bot.entity.onGround &&
          bot.inventory.items().length === 0 &&
          bot.blockAt(wall)?.name === 'crafting_table',
        5000,
        'in the cell, empty-handed, the tables in front',
      )
      const end = cell.plus(dir.scaled(3))
      try {
        const r = await runHandler(
          bot,
          { signal: never },
          { name: 'goto', doing: 'walking', budget: { steps: 10, timeMs: 60_000 }, tracked: false },
          async (run) => {
            const [ms, until] = stop()
            await gotoWithin(run, new goals.GoalBlock(end.x, end.y, end.z), 'the far side', ms, until)
            return 'walked'
          },
        )
        expect(r.ok, r.message).toBe(true)
        // stopped outright (STOP_GRACE_MS after the stop), halfway through the first table: both still stand
        expect(bot.blockAt(wall)?.name).toBe('crafting_table')
        expect(bot.blockAt(wall.offset(0, 1, 0))?.name).toBe('crafting_table')
        expect(bot.entity.position.floored()).toEqual(cell)
      } finally {
        await giveItem(bot, 'stone_pickaxe', 1)
      }
    },
    60_000,
  )

  it('goes up straight through the rock when there is no way back to where it left the surface', async () => {
    await command(bot, '/time set day')
    // on the surface above where the bot is (the earlier tests left it deep down)
    const me = bot.entity.position.floored()
    let ground = 200
    while (ground > me.y && bot.blockAt(new Vec3(me.x, ground, me.z))?.boundingBox !== 'block') ground--
    await command(bot, `/tp ${bot.username} ${me.x + 0.5} ${ground + 1} ${me.z + 0.5}`)
    await waitFor(() => bot.entity.position.y >= ground + 1 && bot.entity.onGround, 5000, 'on the surface')
    // sealed in a cell 5 below the surface, the remembered surface place 3 blocks off; the pathfinder is given 1 ms
    // to think, so no path is ever found in time (as over a long way back through the tunnels)
    const top = solidPatch(1, -6, -1)
    const cell = top.offset(0, -5, 0)
    const home = top.offset(3, 0, 0)
    for (const y of [0, 1]) await command(bot, `/setblock ${cell.x} ${cell.y + y} ${cell.z} air`)
    await giveItem(bot, 'dirt', 16)
    await command(bot, `/tp ${bot.username} ${cell.x + 0.5} ${cell.y} ${cell.z + 0.5}`)
    await waitFor(() => bot.entity.position.floored().equals(cell) && bot.entity.onGround, 5000, 'sealed in the cell')
    rememberSurface(bot, home)
    expect(isUnderground(bot)).toBe(true)
    const think = bot.pathfinder.thinkTimeout
    bot.pathfinder.thinkTimeout = 1
    const up = await execute(bot, { type: 'go_up', tool: null }, { signal: never }).finally(() => {
      bot.pathfinder.thinkTimeout = think
    })
    expect(up.ok, up.message).toBe(true)
    expect(up.message).toMatch(/I am on the surface at .*dug straight up/)
    expect(bot.entity.position.floored().x).toBe(cell.x)
    expect(bot.entity.position.floored().z).toBe(cell.z)
    expect(isUnderground(bot)).toBe(false)
    expect(bot.entity.position.floored().y).toBeGreaterThanOrEqual(top.y)
  }, 90_000)

  it('ends the search, boxed in by lava round two open cells, instead of walking between them (bench d27 seed 7)', async () => {
    // two open cells side by side in the rock, walls a block thick and lava behind every wall, floor and roof: no
    // cell may be opened, nothing dug down, and walking from one cell to the other opens no new rock. The search must
    // end as blocked, not walk between the two until its budget runs out (d27 seed 7: 157 s at y -52)
    const a = solidPatch(3, -15, -8).offset(0, -12, 0)
    const cells = [a, a.offset(1, 0, 0)].flatMap((p) => [p, p.offset(0, 1, 0)])
    const inside = (p: Vec3): boolean => cells.some((c) => c.equals(p))
    const faces = [
      [1, 0, 0],
      [-1, 0, 0],
      [0, 0, 1],
      [0, 0, -1],
      [0, 1, 0],
      [0, -1, 0],
    ].map(([x, y, z]) => new Vec3(x!, y!, z!))
    const lava = cells.flatMap((c) => faces.filter((f) => !inside(c.plus(f))).map((f) => c.plus(f.scaled(2))))
    for (const c of cells) await command(bot, `/setblock ${c.x} ${c.y} ${c.z} air`)
    for (const l of lava) await command(bot, `/setblock ${l.x} ${l.y} ${l.z} lava`)
    await command(bot, `/tp ${bot.username} ${a.x + 0.5} ${a.y} ${a.z + 0.5}`)
    await waitFor(
      () =>
        bot.entity.position.floored().equals(a) &&
        bot.entity.onGround &&
        lava.every((l) => bot.blockAt(l)?.name === 'lava') &&
        cells.every((c) => bot.blockAt(c)?.name === 'air'),
      5000,
      'boxed in the two cells',
    )
    const r = await execute(bot, { type: 'explore', object: 'gold_block', strategy: 'underground' }, { signal: never })
    expect(r.reason, r.message).toBe('not_found')
    expect(r.message).toMatch(/as far as I safely could/)
    expect(cells.some((c) => bot.entity.position.floored().equals(c))).toBe(true)
    expect(lava.every((l) => bot.blockAt(l)?.name === 'lava')).toBe(true)
  }, 120_000)

  it('climbs back out of the lava-filled caves to its level before it searches (a fall left it below them)', async () => {
    // bench p7 piston seed 2: fallen to y -57, four searches there ended at once with every corridor blocked by lava
    const me = bot.entity.position.floored()
    rememberSurface(bot, me)
    const c = new Vec3(me.x, LAVA_LEVEL - 3, me.z)
    // a 3×3 column of stone from under the cell to above the search level, with the 1×2 cell hollow in its middle
    for (let y = c.y - 1; y <= c.y + 12; y++)
      for (let dx = -1; dx <= 1; dx++)
        for (let dz = -1; dz <= 1; dz++) {
          const hollow = dx === 0 && dz === 0 && (y === c.y || y === c.y + 1)
          await command(bot, `/setblock ${c.x + dx} ${y} ${c.z + dz} ${hollow ? 'air' : 'stone'}`)
        }
    await giveItem(bot, 'dirt', 16)
    await command(bot, `/tp ${bot.username} ${c.x + 0.5} ${c.y} ${c.z + 0.5}`)
    await waitFor(() => bot.entity.position.floored().equals(c) && bot.entity.onGround, 5000, 'in the cell')
    const stop = new AbortController()
    const explore = { type: 'explore', object: 'diamond_ore', strategy: 'underground' } as const
    const search = execute(bot, explore, { signal: stop.signal })
    try {
      await waitFor(() => bot.entity.position.y > LAVA_LEVEL + 1, 40_000, 'back above the lava level')
    } finally {
      stop.abort()
      await search
    }
  }, 90_000)
})
