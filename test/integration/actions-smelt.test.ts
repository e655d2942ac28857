/**
 * Integration tests of the smelt action on the practice server: it smelts raw iron in a furnace it places (and reports
 * missing_materials without fuel; with no pickaxe to pick it back up it leaves it standing), shares a smelt among the
 * furnaces it carries, each with its own fuel, and picks them all back up; walled in, it digs a pocket for each
 * furnace and never digs out the one it just placed, never places on a table under the one open cell, never digs
 * through a table left standing for a later step, and never places into its own body; a path never digs through a
 * work station; on a pillar with no ground beside it, it places each furnace against the pillar's side, over a deep
 * drop where the drop lands near first.
 * Superflat world without natural spawning, furnaces at 10× (practice.ts's furnaceSpeed); items come from /give.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Bot } from 'mineflayer'
import type { Vec3 } from 'vec3'
import type { ServerHandle } from '../../src/server/process.js'
import { execute } from '../../src/actions/index.js'
import { goals } from '../../src/actions/world.js'
import { leftStationNear, rememberLeftStation, takeLeftStation } from '../../src/perception/own-stations.js'
import { STATION_REACH } from '../../src/rules/index.js'
import { waitFor } from '../../src/util/async.js'
import { command, countItem, giveItem, quit, recordSlots, startWithGhost } from '../helpers/world.js'

let server: ServerHandle
let bot: Bot
const never = new AbortController().signal

const count = (name: string): number => countItem(bot, name)
const give = (name: string, n = 1): Promise<void> => giveItem(bot, name, n)
beforeAll(async () => {
  // furnaces at 10× (practice.ts's furnaceSpeed): these tests are about placing, pockets and picking up, not the 10 s an
  // item cooks (furnace.test.ts smelts at vanilla speed)
  ;({ server, bot } = await startWithGhost(
    { generator: 'superflat', practice: { naturalSpawning: false, furnaceSpeed: 10 } },
    'GhostSmelt',
  ))
})
afterAll(async () => {
  quit(bot)
  await server?.stop()
})

describe('smelting in furnaces it places', () => {
  it('smelts raw iron in a furnace it places, and reports missing_materials without fuel; no pickaxe, it stays', async () => {
    await give('furnace')
    await give('raw_iron', 2)
    const noFuel = await execute(
      bot,
      { type: 'smelt', object: 'iron_ingot', count: 2, materials: { raw_iron: 2 }, fuel: 'coal' },
      { signal: never },
    )
    expect(noFuel.reason).toBe('missing_materials')
    await give('coal')
    const r = await execute(
      bot,
      { type: 'smelt', object: 'iron_ingot', count: 2, materials: { raw_iron: 2 }, fuel: 'coal' },
      // a step per item taken and per block placed or dug, never per poll: a poll every 500 ms had used 40 steps on
      // these 2 items (and the default 64 by the 4th item of a compass's smelt of 4)
      { signal: never, budget: { steps: 8 } },
    )
    expect(r.ok, r.message).toBe(true)
    expect(r.inventoryDelta).toMatchObject({ iron_ingot: 2, raw_iron: -2 })
    // with no pickaxe a furnace dug by hand drops nothing (17.5 s for it): it is left standing, not destroyed
    expect(count('furnace')).toBe(0)
    const left = bot.findBlocks({ matching: bot.registry.blocksByName.furnace!.id, maxDistance: 6, count: 2 })
    expect(left).toHaveLength(1)
    await command(bot, `/setblock ${left[0]!.x} ${left[0]!.y} ${left[0]!.z} air`)
    await waitFor(() => bot.blockAt(left[0]!)?.name === 'air', 5000, 'the furnace gone')
  }, 45_000)

  /** Smelt 3 iron in 3 carried furnaces, each with its own coal, and check all of that came about. */
  async function smeltInThree(): Promise<void> {
    // a rare miscount (5 ingots for 3: twice in about 130 runs under load, not reproduced with this record): its record
    const record = recordSlots(bot, 'iron_ingot')
    try {
      await smeltInThreeRecorded(record.text)
    } finally {
      record.stop()
    }
  }

  async function smeltInThreeRecorded(record: () => string): Promise<void> {
    if (count('furnace') < 3) await give('furnace', 3 - count('furnace'))
    // its pockets and pick-ups with a pickaxe, not by hand (a stone 7.5 s, a furnace 17.5 s): iron, as these tests are
    // about where it digs, not how long a wooden pickaxe takes
    if (count('iron_pickaxe') === 0) await give('iron_pickaxe')
    await give('raw_iron', 3)
    await give('coal', 3)
    const before = { ingots: count('iron_ingot'), coal: count('coal') }
    const r = await execute(
      bot,
      { type: 'smelt', object: 'iron_ingot', count: 3, materials: { raw_iron: 3 }, fuel: 'coal', furnaces: 3 },
      { signal: never },
    )
    expect(r.ok, r.message).toBe(true)
    expect(r.message).toContain('in 3 furnaces')
    expect(count('iron_ingot') - before.ingots, `before ${before.ingots}\n${record()}`).toBe(3)
    // a coal in each furnace: one furnace dug out for the next one's pocket would have cooked two items on one coal
    // (bench d19 seed 10: 20 s instead of 10)
    expect(before.coal - count('coal')).toBe(3)
    expect(count('furnace')).toBe(3)
  }

  it('shares a smelt among the furnaces it carries, each with its own fuel, and picks them all back up', async () => {
    await smeltInThree()
    const near = bot.findBlocks({ matching: bot.registry.blocksByName.furnace!.id, maxDistance: 6, count: 4 })
    expect(near).toEqual([])
  }, 60_000)

  /**
   * Stone at foot and head height all round the bot within 3 blocks, so no spot next to it is free; returns `fill`
   * (stone to wall in, air to open up again, after waiting for the client to see it) and `set` for single blocks.
   */
  function walls(): { p: Vec3; fill: (name: string) => Promise<void>; set: (q: Vec3, name: string) => Promise<void> } {
    const p = bot.entity.position.floored()
    const ring: Vec3[] = []
    for (let dx = -3; dx <= 3; dx++)
      for (let dz = -3; dz <= 3; dz++)
        if (Math.abs(dx) + Math.abs(dz) >= 1 && Math.abs(dx) + Math.abs(dz) <= 3) ring.push(p.offset(dx, 0, dz))
    const set = async (q: Vec3, name: string): Promise<void> => {
      await command(bot, `/setblock ${q.x} ${q.y} ${q.z} ${name}`)
    }
    const fill = async (name: string): Promise<void> => {
      for (const q of ring) for (const dy of [0, 1]) await set(q.offset(0, dy, 0), name)
      await waitFor(() => ring.every((q) => bot.blockAt(q.offset(0, 1, 0))?.name === name), 5000, `walls of ${name}`)
    }
    return { p, fill, set }
  }

  it('walled in (a tunnel), digs a pocket for each furnace and never digs out the one it just placed', async () => {
    const { fill } = walls()
    await fill('stone')
    try {
      await smeltInThree()
    } finally {
      await fill('air')
    }
  }, 90_000)

  it('walled in beside a table left standing under an open cell, digs its pockets and never places on the table', async () => {
    // bench d24 seeds 5 and 7: the only open cell next to the bot stood on its crafting table; a furnace "placed" there
    // is a click on the table, which the server refuses, and the smelt went up to the surface
    const { p, fill, set } = walls()
    const under = p.offset(1, -1, 0)
    const ground = bot.blockAt(under)!.name
    await fill('stone')
    await set(p.offset(1, 0, 0), 'air')
    await set(p.offset(1, 1, 0), 'air')
    await set(under, 'crafting_table')
    await waitFor(
      () => bot.blockAt(under)?.name === 'crafting_table' && bot.blockAt(p.offset(1, 0, 0))?.name === 'air',
      5000,
      'the table under the open cell',
    )
    try {
      await smeltInThree()
      expect(bot.blockAt(under)?.name).toBe('crafting_table')
    } finally {
      await fill('air')
      await set(under, ground)
    }
  }, 90_000)

  it('walled in beside the table it left standing for a later step, digs its pockets elsewhere', async () => {
    // bench d30 seed 1: the smelt dug out the table left for the pickaxe's craft to make a furnace pocket
    const { p, fill, set } = walls()
    const table = p.offset(1, 0, 0)
    await fill('stone')
    await set(table, 'crafting_table')
    await waitFor(() => bot.blockAt(table)?.name === 'crafting_table', 5000, 'the table in the wall')
    rememberLeftStation(bot, bot.blockAt(table)!)
    try {
      await smeltInThree()
      expect(bot.blockAt(table)?.name).toBe('crafting_table')
      // and still remembered as left standing: the pickaxe's craft is to find it behind the furnaces' pockets
      expect(leftStationNear(bot, 'crafting_table', STATION_REACH)?.position).toEqual(table)
    } finally {
      takeLeftStation(bot, table)
      await fill('air')
    }
  }, 90_000)

  /**
   * Stand the bot on a stone pillar `height` blocks high, 6 east of where it stands, run `body` with the pillar's foot,
   * then take the pillar (and any block left beside its top) away and bring the bot back.
   */
  async function onPillar(height: number, body: (q: Vec3) => Promise<void>): Promise<void> {
    const p = bot.entity.position.floored()
    const q = p.offset(6, 0, 0)
    const pillar = Array.from({ length: height }, (_, dy) => q.offset(0, dy, 0))
    for (const b of pillar) await command(bot, `/setblock ${b.x} ${b.y} ${b.z} stone`)
    await command(bot, `/tp ${bot.username} ${q.x + 0.5} ${q.y + height} ${q.z + 0.5}`)
    await waitFor(
      () =>
        bot.entity.onGround &&
        Math.floor(bot.entity.position.y) === q.y + height &&
        bot.blockAt(q.offset(0, height - 1, 0))?.name === 'stone',
      5000,
      'standing on the pillar',
    )
    try {
      await body(q)
    } finally {
      // and any furnace left beside its top (a failed run), or the next test's station would walk to it
      const top = q.offset(0, height - 1, 0)
      const beside = [top.offset(1, 0, 0), top.offset(-1, 0, 0), top.offset(0, 0, 1), top.offset(0, 0, -1)]
      for (const b of [...beside, ...pillar]) await command(bot, `/setblock ${b.x} ${b.y} ${b.z} air`)
      await command(bot, `/tp ${bot.username} ${p.x + 0.5} ${p.y} ${p.z + 0.5}`)
    }
  }

  it('on a pillar with no ground beside it and no pocket to dig, places each furnace against the pillar’s side', async () => {
    // bench d64 seed 42: on a ledge over a cave no spot beside it had ground under it, nor a pocket a floor; the smelt
    // failed no_space and went 93 s up to the surface with its raw iron
    await onPillar(2, async (q) => {
      const placedAt: Vec3[] = []
      // a furnace's lit state changes are updates too: only a furnace where none stood counts
      const onUpdate = (old: { name: string } | null, b: { name: string; position: Vec3 }): void => {
        if (b.name === 'furnace' && old?.name !== 'furnace') placedAt.push(b.position)
      }
      bot.on('blockUpdate', onUpdate)
      try {
        await smeltInThree()
      } finally {
        bot.off('blockUpdate', onUpdate)
      }
      expect(placedAt).toHaveLength(3)
      // beside the pillar's top block, on nothing
      for (const at of placedAt) {
        expect(at.y).toBe(q.y + 1)
        expect(Math.abs(at.x - q.x) + Math.abs(at.z - q.z)).toBe(1)
      }
    })
  }, 90_000)

  it('on a pillar over a deep drop, places against the side whose drop lands near (a ledge below), not the others', async () => {
    if (count('furnace') === 0) await give('furnace')
    const held = count('furnace')
    await onPillar(6, async (q) => {
      // a ledge two below the east side of the pillar's top (the side its scan comes to last): a furnace there falls
      // onto it once dug, elsewhere 5 down
      const ledge = q.offset(1, 2, 0)
      await command(bot, `/setblock ${ledge.x} ${ledge.y} ${ledge.z} stone`)
      try {
        await waitFor(() => bot.blockAt(ledge)?.name === 'stone', 5000, 'the ledge')
        const r = await execute(bot, { type: 'place', object: 'furnace' }, { signal: never })
        expect(r.ok, r.message).toBe(true)
        expect(bot.blockAt(q.offset(1, 5, 0))?.name, r.message).toBe('furnace')
        expect(count('furnace')).toBe(held - 1)
      } finally {
        await command(bot, `/setblock ${ledge.x} ${ledge.y} ${ledge.z} air`)
      }
    })
  }, 30_000)

  it('never lets a path dig through a work station: a walk to the cell of a table fails and the table stands', async () => {
    // bench p14 and p15 compass seed 3: the walk to a smelt's furnace drops dug out the table left standing for the
    // pickaxe's craft, and the plan climbed to the surface for a log to make another
    const p = bot.entity.position.floored()
    const table = p.offset(2, 0, 0)
    await command(bot, `/setblock ${table.x} ${table.y} ${table.z} crafting_table`)
    await waitFor(() => bot.blockAt(table)?.name === 'crafting_table', 5000, 'the table beside the bot')
    try {
      await expect(bot.pathfinder.goto(new goals.GoalBlock(table.x, table.y, table.z))).rejects.toThrow()
      expect(bot.blockAt(table)?.name).toBe('crafting_table')
    } finally {
      bot.pathfinder.stop()
      await command(bot, `/setblock ${table.x} ${table.y} ${table.z} air`)
    }
  }, 30_000)

  it('walled in with its body across into the one open cell, digs pockets instead of placing into itself', async () => {
    // bench p3 compass seed 2 and piston seed 2: in a 1-wide tunnel the pocket offered was the corridor cell the bot's
    // body reached into; the server refuses a furnace there, and 7 iron cooked in one furnace (70 s)
    const { p, fill, set } = walls()
    await fill('stone')
    await set(p.offset(1, 0, 0), 'air')
    await set(p.offset(1, 1, 0), 'air')
    await command(bot, `/tp ${bot.username} ${p.x + 0.8} ${p.y} ${p.z + 0.5}`)
    await waitFor(
      () => bot.entity.position.x > p.x + 0.75 && bot.entity.onGround && bot.blockAt(p.offset(1, 1, 0))?.name === 'air',
      5000,
      'standing across into the open cell',
    )
    try {
      await smeltInThree()
    } finally {
      await fill('air')
      await command(bot, `/tp ${bot.username} ${p.x + 0.5} ${p.y} ${p.z + 0.5}`)
    }
  }, 90_000)
})
