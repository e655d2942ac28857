/**
 * Issue 17, deposit/withdraw: a real bot (createBot, pathfinder) on a superflat practice server with the chest
 * plugin. It puts everything but its tools into a chest and takes 3 items back, and the counts are checked both
 * by the action (it reopens the chest) and here by a second plain client who opens the same chest. A chest inside a
 * GHOST_PROTECTED box is never opened (`unsafe`); asking for more than the chest holds is `missing_materials`; a
 * stop while walking to a far chest ends the action within 1 s.
 */
import type { Bot } from 'mineflayer'
import type { Vec3 } from 'vec3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execute } from '../../src/actions/index.js'
import type { ServerHandle } from '../../src/server/process.js'
import { command, countItem, giveItem, joinPlayer, quit, startServer, waitFor, joinGhost } from '../helpers/world.js'

let server: ServerHandle
let bot: Bot
let alice: Bot
let chest: Vec3
const never = new AbortController().signal

async function contents(b: Bot, at: Vec3): Promise<Record<string, number>> {
  const win = await b.openContainer(b.blockAt(at)!)
  const out: Record<string, number> = {}
  for (const it of win.containerItems()) out[it.name] = (out[it.name] ?? 0) + it.count
  win.close()
  return out
}

async function setChest(at: Vec3): Promise<void> {
  await command(alice, `/setblock ${at.x} ${at.y} ${at.z} chest`)
  await waitFor(() => bot.blockAt(at)?.name === 'chest', 5000, 'chest placed')
}

beforeAll(async () => {
  server = await startServer({ generator: 'superflat', seed: 3 })
  bot = await joinGhost(server, 'GhostChest')
  alice = await joinPlayer(server, 'Alice')
  chest = bot.entity.position.floored().offset(4, 0, 2)
  await setChest(chest)
}, 60_000)
afterAll(async () => {
  quit(bot, alice)
  await server?.stop()
})

describe('deposit and withdraw', () => {
  it('puts everything but its tools into the nearest chest, counts verified', async () => {
    await giveItem(bot, 'wooden_pickaxe', 1)
    await giveItem(bot, 'stone_sword', 1)
    await giveItem(bot, 'cobblestone', 20)
    await giveItem(bot, 'dirt', 5)
    await giveItem(bot, 'oak_log', 3)
    const r = await execute(bot, { type: 'deposit', items: [], chest: null }, { signal: never })
    expect(r, r.message).toMatchObject({
      ok: true,
      reason: null,
      inventoryDelta: { cobblestone: -20, dirt: -5, oak_log: -3 },
    })
    expect(r.message).toMatch(/counts checked/)
    expect(
      bot.inventory
        .items()
        .map((i) => i.name)
        .sort(),
    ).toEqual(['stone_sword', 'wooden_pickaxe'])
    await waitFor(() => alice.blockAt(chest)?.name === 'chest', 5000, 'Alice sees the chest')
    expect(await contents(alice, chest)).toEqual({ cobblestone: 20, dirt: 5, oak_log: 3 })
  }, 60_000)

  it('takes 3 items back from the chest at given coordinates', async () => {
    const r = await execute(
      bot,
      { type: 'withdraw', items: [{ object: 'cobblestone', count: 3 }], chest: { x: chest.x, y: chest.y, z: chest.z } },
      { signal: never },
    )
    expect(r, r.message).toMatchObject({ ok: true, inventoryDelta: { cobblestone: 3 } })
    expect(countItem(bot, 'cobblestone')).toBe(3)
    expect(await contents(alice, chest)).toEqual({ cobblestone: 17, dirt: 5, oak_log: 3 })
  }, 30_000)

  it('fails with fixed reasons: more than the chest holds, nothing held, no chest there', async () => {
    const at = { x: chest.x, y: chest.y, z: chest.z }
    expect(
      await execute(bot, { type: 'withdraw', items: [{ object: 'dirt', count: 9 }], chest: at }, { signal: never }),
    ).toMatchObject({ ok: false, reason: 'missing_materials' })
    expect(
      await execute(bot, { type: 'deposit', items: [{ object: 'diamond', count: 1 }], chest: at }, { signal: never }),
    ).toMatchObject({ ok: false, reason: 'missing_materials' })
    expect(
      await execute(bot, { type: 'deposit', items: [], chest: { ...at, y: at.y + 3 } }, { signal: never }),
    ).toMatchObject({ ok: false, reason: 'not_found' })
    expect(await contents(alice, chest)).toEqual({ cobblestone: 17, dirt: 5, oak_log: 3 })
  }, 30_000)

  it('never opens a chest inside a protected box', async () => {
    const box = { x1: chest.x - 1, y1: chest.y - 1, z1: chest.z - 1, x2: chest.x + 1, y2: chest.y + 1, z2: chest.z + 1 }
    const r = await execute(
      bot,
      { type: 'withdraw', items: [{ object: 'dirt', count: 1 }], chest: { x: chest.x, y: chest.y, z: chest.z } },
      { signal: never, protected: [box] },
    )
    expect(r, r.message).toMatchObject({ ok: false, reason: 'unsafe' })
    expect(r.message).toMatch(/never open containers inside the protected area/)
    expect(await contents(alice, chest)).toEqual({ cobblestone: 17, dirt: 5, oak_log: 3 })
  }, 30_000)

  it('stores junk in the chest instead of failing when the inventory fills during mining', async () => {
    for (let i = 0; i < 32; i++) await command(alice, `/give GhostChest dirt 64`)
    await waitFor(() => bot.inventory.emptySlotCount() <= 1, 10_000, 'inventory nearly full')
    // on the far side of the chest: more than 7 blocks from Alice (at spawn), or she picks up the drops herself
    const logs = chest.offset(3, 0, 0)
    await command(alice, `/setblock ${logs.x} ${logs.y} ${logs.z} oak_log`)
    await command(alice, `/setblock ${logs.x} ${logs.y} ${logs.z + 1} oak_log`)
    await waitFor(() => bot.blockAt(logs.offset(0, 0, 1))?.name === 'oak_log', 5000, 'logs placed')
    const dirtBefore = (await contents(alice, chest)).dirt ?? 0
    const r = await execute(bot, { type: 'mine', object: 'oak_log', tool: null, count: 2 }, { signal: never })
    expect(r, r.message).toMatchObject({ ok: true })
    expect(r.message).toMatch(/stored junk|put .* in the chest/)
    expect((await contents(alice, chest)).dirt ?? 0).toBeGreaterThan(dirtBefore)
    expect(countItem(bot, 'oak_log')).toBe(2)
    expect(countItem(bot, 'stone_sword') + countItem(bot, 'wooden_pickaxe')).toBe(2)
    expect(bot.inventory.emptySlotCount()).toBeGreaterThan(1)
  }, 60_000)

  it('stops within 1 s while walking to a far chest', async () => {
    const far = bot.entity.position.floored().offset(-40, 0, 0)
    await setChest(far)
    const ac = new AbortController()
    const running = execute(
      bot,
      { type: 'deposit', items: [{ object: 'cobblestone', count: 1 }], chest: { x: far.x, y: far.y, z: far.z } },
      { signal: ac.signal },
    )
    const start = bot.entity.position.clone()
    await waitFor(() => bot.entity.position.distanceTo(start) > 2, 10_000, 'walking')
    const t0 = Date.now()
    ac.abort()
    const r = await running
    expect(r.reason).toBe('interrupted')
    expect(Date.now() - t0).toBeLessThan(1000)
  }, 30_000)
})
