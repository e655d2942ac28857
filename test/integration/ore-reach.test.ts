/**
 * Integration test of what the underground search leaves to `mine`, `go_up` and its own end, on the practice world
 * (seed 1, generated terrain, no x-ray; the search itself is in ore-search.test.ts). Underground, mine leaves a block
 * in sight down a 20-block tunnel (beyond the search's own sight, sighting.ts) rather than walking at it, but goes for
 * a block explore saw a moment before and a wall now hides; a walk with a time limit ends then although the
 * pathfinder is digging its way. go_up with no way back to where it left the surface (the pathfinder finds no path in
 * time) pillars straight up through the rock from where it stands to the open sky. Boxed in by lava round two open
 * cells, the search ends instead of walking between them; sealed in a cell below the lava level, it first climbs back
 * up to its level.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Bot } from 'mineflayer'
import { Vec3 } from 'vec3'
import type { ServerHandle } from '../../src/server/process.js'
import { execute } from '../../src/actions/index.js'
import { runHandler } from '../../src/actions/run.js'
import { goals, gotoWithin } from '../../src/actions/world.js'
import { rememberSurface } from '../../src/actions/memory.js'
import { isUnderground, visibleBlocks } from '../../src/perception/vision.js'
import { waitFor } from '../../src/util/async.js'
import { command, countItem, giveItem, quit, startWithGhost } from '../helpers/world.js'
import { LAVA_LEVEL } from '../../src/server/worldgen/terrain.js'
import { isRock as rockAt, solidPatch as patchNear } from '../helpers/rock.js'

let server: ServerHandle
let bot: Bot
const never = new AbortController().signal

beforeAll(async () => {
  ;({ server, bot } = await startWithGhost({ seed: 1, practice: { naturalSpawning: false } }, 'Reacher'))
  await giveItem(bot, 'stone_pickaxe', 1)
})
afterAll(async () => {
  quit(bot)
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
describe('what the search leaves to mine, go_up and its own end', () => {
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
