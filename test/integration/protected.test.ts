/**
 * GHOST_PROTECTED at the hands: with a protected box around the bot, the handlers that dig and place refuse with
 * `unsafe` and leave the world as it was (the patroller and the critic refuse earlier; this is the last line).
 * Blocks players placed (issue 20): a player places planks next to the bot, which sees it happen; a plan to mine
 * them is refused by the critic and the patroller with who placed them where, the hands leave them, the bot's own
 * placed plank can still be mined, and the observation survives a restart (memory.db) of this server only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Bot } from 'mineflayer'
import { Vec3 } from 'vec3'
import { critiquePlan } from '../../src/agent/critic.js'
import { Patroller } from '../../src/agent/patroller.js'
import { createBotHands } from '../../src/agent/bot-hands.js'
import { createKnowledge } from '../../src/knowledge/index.js'
import { openMemory } from '../../src/memory/index.js'
import { placedPort } from '../../src/memory/placed.js'
import { createSenses } from '../../src/perception/percipient.js'
import { PlacedBlocks } from '../../src/perception/placed.js'
import type { ServerHandle } from '../../src/server/process.js'
import { execute } from '../../src/actions/index.js'
import { BoxList } from '../../src/schemas/region.js'
import { waitFor } from '../../src/util/async.js'
import { tempDir } from '../unit/memory/helpers.js'
import { VERSION, countItem, giveItem, joinPlayer, quit, startServer, joinGhost } from '../helpers/world.js'

let server: ServerHandle
let bot: Bot
const never = new AbortController().signal

beforeAll(async () => {
  server = await startServer({ generator: 'superflat' })
  bot = await joinGhost(server, 'GhostSafe')
}, 60_000)
afterAll(async () => {
  try {
    bot?.quit()
  } catch {
    /* gone */
  }
  await server?.stop()
})

describe('protected boxes', () => {
  it('refuses to dig down or place inside one, and changes nothing', async () => {
    const p = bot.entity.position.floored()
    const box = BoxList.parse(`${p.x - 4} ${p.y - 10} ${p.z - 4} ${p.x + 4} ${p.y + 4} ${p.z + 4}`)
    const below = bot.blockAt(p.offset(0, -1, 0))!.name
    await giveItem(bot, 'wooden_pickaxe', 1)
    const dig = await execute(
      bot,
      { type: 'dig_down', ylevel: p.y - 3, tool: 'wooden_pickaxe' },
      { signal: never, protected: box },
    )
    expect(dig, dig.message).toMatchObject({ ok: false, reason: 'unsafe' })
    expect(dig.message).toMatch(/protected area/)
    expect(bot.blockAt(p.offset(0, -1, 0))!.name).toBe(below)
    await giveItem(bot, 'dirt', 1)
    const place = await execute(bot, { type: 'place', object: 'dirt' }, { signal: never, protected: box })
    expect(place, place.message).toMatchObject({ ok: false, reason: 'unsafe' })
    expect(countItem(bot, 'dirt')).toBe(1)
    // the same actions outside any box work
    const ok = await execute(bot, { type: 'place', object: 'dirt' }, { signal: never })
    expect(ok, ok.message).toMatchObject({ ok: true })
  }, 60_000)
})

describe('blocks players placed', () => {
  it("refuses to mine a player's planks with who placed them, mines its own, and remembers across a restart", async () => {
    const tmp = tempDir()
    const where = `127.0.0.1:${server.port}`
    let memory = await openMemory({ path: tmp.file('memory.db') })
    const tracker = new PlacedBlocks(where)
    await tracker.persist(placedPort(memory, where))
    const detach = tracker.attach(bot)
    const alice = await joinPlayer(server, 'Alice')
    try {
      const kb = createKnowledge(VERSION)
      const playerPlaced = tracker.lookup(() => bot)
      const mine = { type: 'mine', object: 'oak_planks', count: 1, tool: null } as const
      const plan = { explanation: '', thoughts: 'planks', actions: [mine] }
      const judge = () => critiquePlan(kb, plan, {}, { blueprints: [], policy: { protected: [], playerPlaced } })
      const patroller = new Patroller(
        kb,
        createSenses(() => bot),
        { playerPlaced },
      )
      const hands = createBotHands(() => bot, where)
      // Alice places a plank on the ground beside her, in the bot's sight
      await giveItem(alice, 'oak_planks', 1)
      await alice.equip(alice.inventory.items().find((i) => i.name === 'oak_planks')!, 'hand')
      await waitFor(
        () => bot.players.Alice?.entity?.heldItem?.name === 'oak_planks',
        5000,
        "the bot sees Alice's planks",
      )
      const me = alice.entity.position.floored()
      const clear = (p: Vec3): boolean =>
        [alice, bot].every((b) => b.entity.position.distanceTo(p.offset(0.5, 0, 0.5)) > 1.5) &&
        alice.blockAt(p)?.name === 'air' &&
        alice.blockAt(p.offset(0, -1, 0))?.boundingBox === 'block'
      const at = [me.offset(2, 0, 0), me.offset(-2, 0, 0), me.offset(0, 0, 2), me.offset(0, 0, -2)].find(clear)!
      await alice.placeBlock(alice.blockAt(at.offset(0, -1, 0))!, new Vec3(0, 1, 0))
      await waitFor(() => tracker.size === 1, 5000, 'the bot recorded the placement')
      expect(tracker.all()[0]).toMatchObject({ player: 'Alice', block: 'oak_planks', x: at.x, y: at.y, z: at.z })

      const refused = judge()
      expect(refused.ok).toBe(false)
      expect(refused.problems.join(' ')).toContain(
        `I never dig oak_planks that players placed: Alice placed the one at ${at.x} ${at.y} ${at.z}`,
      )
      const pre = patroller.before(mine, hands.state())
      expect(pre).toMatchObject({ ok: false, reason: 'unsafe' })
      expect(pre.ok ? '' : pre.message).toMatch(/Alice placed/)
      const hand = await execute(bot, mine, { signal: never })
      expect(hand.ok, hand.message).toBe(false)
      expect(bot.blockAt(at)!.name).toBe('oak_planks')

      // the bot's own plank is its own: not recorded, and mined (Alice's stays)
      await giveItem(bot, 'oak_planks', 1)
      const placed = await execute(bot, { type: 'place', object: 'oak_planks' }, { signal: never })
      expect(placed, placed.message).toMatchObject({ ok: true })
      expect(countItem(bot, 'oak_planks')).toBe(0)
      expect(tracker.size).toBe(1)
      expect(judge()).toEqual({ ok: true, problems: [] })
      const mined = await execute(bot, mine, { signal: never })
      expect(mined, mined.message).toMatchObject({ ok: true })
      expect(countItem(bot, 'oak_planks')).toBe(1)
      expect(bot.blockAt(at)!.name).toBe('oak_planks')

      // a restart keeps the observation, for this server only
      detach()
      await memory.close()
      memory = await openMemory({ path: tmp.file('memory.db') })
      const again = new PlacedBlocks(where)
      await again.persist(placedPort(memory, where))
      expect(again.at('overworld', at)?.player).toBe('Alice')
      const elsewhere = new PlacedBlocks('127.0.0.1:1')
      await elsewhere.persist(placedPort(memory, '127.0.0.1:1'))
      expect(elsewhere.size).toBe(0)
    } finally {
      detach()
      quit(alice)
      await memory.close()
      tmp.cleanup()
    }
  }, 90_000)
})
