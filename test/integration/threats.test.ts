/**
 * The searches keep away from hostile mobs (src/actions/threats.ts), on a real superflat practice server with natural
 * spawning off (only summoned zombies exist) and the combat reflex off (no flight or fight interferes): at night a
 * surface search whose first cells lie past a zombie walks the other way, an unarmed search for a log does not stop
 * at one with a zombie by it, and an unarmed mine of logs digs the one with no zombie by it although another is
 * nearer. In each case the bot stands where, without the zombie, it would have gone toward it: its own search cell's
 * centre and the first cell of the spiral lie east, and the nearer log.
 */
import type { Bot } from 'mineflayer'
import { Vec3 } from 'vec3'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { attachReflexes, execute, reflexesOf } from '../../src/actions/index.js'
import { CELL } from '../../src/actions/surface-search.js'
import type { ServerHandle } from '../../src/server/process.js'
import { command, joinPlayer, quit, setBlockSeen, startServer, waitFor, joinGhost } from '../helpers/world.js'

let server: ServerHandle
let bot: Bot
let alice: Bot
const never = new AbortController().signal
const here = (): Vec3 => bot.entity.position.floored()

beforeAll(async () => {
  server = await startServer({ generator: 'superflat', practice: { naturalSpawning: false } })
  bot = await joinGhost(server, 'GhostT')
  attachReflexes(bot, { fightBack: false })
  alice = await joinPlayer(server, 'Alice')
  await command(alice, '/time set midnight')
})
afterEach(async () => {
  await command(alice, '/kill @e[type=zombie]')
  await waitFor(() => !Object.values(bot.entities).some((e) => e.name === 'zombie'), 5000, 'the zombies gone')
})
afterAll(async () => {
  reflexesOf(bot)?.detach()
  quit(bot, alice)
  await server?.stop()
})

/**
 * Stand the bot at a column 2 blocks into a search cell (its own cell's centre 8 blocks east), Alice far off (a
 * zombie goes for the nearest player), and a zombie `dx` blocks east of it; returns where the bot stands.
 */
async function standWithZombieEast(dx: number): Promise<Vec3> {
  const p = here()
  const x = Math.floor(p.x / CELL) * CELL + 2
  const at = new Vec3(x, p.y, p.z)
  await command(alice, `/tp Alice ${x - 40} ${p.y} ${p.z + 40}`)
  await command(alice, `/tp GhostT ${at.x} ${at.y} ${at.z}`)
  await waitFor(() => here().equals(at) && bot.entity.onGround, 5000, 'GhostT in place')
  await command(alice, `/summon zombie ${at.x + dx} ${at.y} ${at.z}`)
  await waitFor(() => Object.values(bot.entities).some((e) => e.name === 'zombie'), 5000, 'the zombie seen')
  return at
}

/** An oak log 3 blocks east of `at` (by the zombie) and one `westDx` blocks west of it, both seen by the bot. */
async function logsEastAndWest(at: Vec3, westDx: number): Promise<{ east: Vec3; west: Vec3 }> {
  const east = at.offset(3, 0, 0)
  const west = at.offset(-westDx, 0, 0)
  for (const p of [east, west]) await setBlockSeen(alice, p.x, p.y, p.z, 'oak_log')
  await waitFor(() => bot.blockAt(west)?.name === 'oak_log' && bot.blockAt(east)?.name === 'oak_log', 3000, 'logs')
  return { east, west }
}

describe('keeping away from hostile mobs', () => {
  it('a surface search at night walks away from a zombie standing where its first cells lie', async () => {
    // a creature is looked for within the near sight only: the spiral's first ring
    const at = await standWithZombieEast(6)
    const r = await execute(
      bot,
      { type: 'explore', object: 'axolotl', strategy: 'surface' },
      { signal: never, budget: { timeMs: 5000 } },
    )
    expect(r.reason, r.message).toBe('not_found')
    // it went west, the far side from the zombie (its own cell's centre and the spiral's first cell lie east)
    expect(bot.entity.position.x).toBeLessThan(at.x - 5)
  })

  it('a block search at night walks to land not seen yet away from the zombie, not past it', async () => {
    // the open land within the far sight is looked over; of the cells beyond, those past the zombie are passed over
    // (four more rings' worth may be), and the walk goes to the first one on the far side
    const at = await standWithZombieEast(6)
    const zombie = at.offset(6, 0, 0)
    const r = await execute(
      bot,
      { type: 'explore', object: 'emerald_block', strategy: 'surface' },
      { signal: never, budget: { timeMs: 5000 } },
    )
    expect(r.reason, r.message).toBe('not_found')
    expect(bot.entity.position.x).toBeLessThan(at.x)
    expect(bot.entity.position.distanceTo(zombie)).toBeGreaterThan(at.distanceTo(zombie) + 5)
  })

  it('an unarmed search for a log does not count one with a zombie by it, and walks on to another', async () => {
    const { east, west } = await logsEastAndWest(await standWithZombieEast(6), 24)
    const r = await execute(
      bot,
      { type: 'explore', object: 'oak_log', strategy: 'surface' },
      { signal: never, budget: { timeMs: 20_000 } },
    )
    expect(r.ok, r.message).toBe(true)
    expect(r.message).toContain(`at ${west.x} ${west.y} ${west.z}`)
    for (const p of [east, west]) await setBlockSeen(alice, p.x, p.y, p.z, 'air')
  })

  it('an unarmed mine takes the log with no zombie by it, not the nearer one', async () => {
    const { east, west } = await logsEastAndWest(await standWithZombieEast(7), 6)
    const r = await execute(bot, { type: 'mine', object: 'oak_log', tool: null, count: 1 }, { signal: never })
    expect(r.ok, r.message).toBe(true)
    expect(bot.blockAt(west)?.name).toBe('air')
    expect(bot.blockAt(east)?.name).toBe('oak_log')
  })
})
