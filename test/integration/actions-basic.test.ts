/**
 * Integration tests of the action registry on a superflat practice world (real server child, real bot from
 * createBot): validation with did-you-mean, equip, place, mine, approach, explore (success, not_found, stop), stop
 * during mine, the land in sight (the chunks the server sent), dig_down/go_up, build, and the BotState feedback. Blocks are set with /setblock, items given with
 * /give (count 1 each, see the flying-squid notes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Bot } from 'mineflayer'
import { Vec3 } from 'vec3'
import type { ServerHandle } from '../../src/server/process.js'
import { execute, feedback, lastTrace } from '../../src/actions/index.js'
import { landInSight } from '../../src/actions/biome-sight.js'
import { waitFor } from '../../src/util/async.js'
import { command, giveItem, setBlockSeen, startServer, joinGhost } from '../helpers/world.js'

let server: ServerHandle
let bot: Bot
const never = new AbortController().signal

const give = (name: string, n = 1): Promise<void> => giveItem(bot, name, n)
function here() {
  return bot.entity.position.floored()
}
const setblock = (x: number, y: number, z: number, name: string): Promise<void> => setBlockSeen(bot, x, y, z, name)

beforeAll(async () => {
  server = await startServer({ generator: 'superflat' })
  bot = await joinGhost(server, 'GhostA')
})
afterAll(async () => {
  try {
    bot?.quit()
  } catch {
    /* gone */
  }
  await server?.stop()
})

describe('actions on a superflat world', () => {
  it('sees the land as far as the server sends it: 80 blocks at the practice view distance of 6 chunks', async () => {
    // a biome search spirals with arms √2 × this apart. flying-squid sends the chunks cx-6 … cx+5 around the bot's
    // own chunk cx (a 12-chunk square), so 5 whole chunks lie on the near side; it sends more only after the player
    // has moved 16 blocks, so this runs first, before any walk
    await waitFor(() => landInSight(bot) >= 80, 10_000, 'the land within the view distance sent')
    expect(landInSight(bot)).toBe(80)
  })

  it('rejects malformed actions and unknown names with a did-you-mean', async () => {
    const bad = await execute(bot, { type: 'mine', object: 'dirt', tool: null, count: 0 }, { signal: never })
    expect(bad).toMatchObject({ ok: false, reason: 'invalid' })
    const typo = await execute(bot, { type: 'equip', object: 'iron_ingott' }, { signal: never })
    expect(typo.reason).toBe('invalid')
    expect(typo.message).toMatch(/did you mean iron_ingot/)
    const bp = await execute(bot, { type: 'build', blueprint: 'pilar' }, { signal: never })
    expect(bp.reason).toBe('invalid')
    expect(bp.message).toMatch(/pillar/)
  })

  it('equips an item it has and reports missing_tool for one it lacks', async () => {
    const missing = await execute(bot, { type: 'equip', object: 'wooden_pickaxe' }, { signal: never })
    expect(missing.reason).toBe('missing_tool')
    await give('wooden_pickaxe')
    const ok = await execute(bot, { type: 'equip', object: 'wooden_pickaxe' }, { signal: never })
    expect(ok).toMatchObject({ ok: true, reason: null })
    expect(bot.heldItem?.name).toBe('wooden_pickaxe')
  })

  it('places a block next to itself, and fails with missing_materials without one', async () => {
    const none = await execute(bot, { type: 'place', object: 'oak_planks' }, { signal: never })
    expect(none.reason).toBe('missing_materials')
    await give('dirt')
    const r = await execute(bot, { type: 'place', object: 'dirt' }, { signal: never })
    expect(r.ok).toBe(true)
    expect(r.inventoryDelta).toEqual({ dirt: -1 })
    const [x, y, z] = r.message
      .match(/at (-?\d+) (-?\d+) (-?\d+)/)!
      .slice(1)
      .map(Number) as [number, number, number]
    expect(bot.blockAt(here().set(x, y, z))?.name).toBe('dirt')
  })

  it('mines a visible log by its drop count, and reports not_found for blocks it cannot see', async () => {
    const p = here()
    await setblock(p.x + 3, p.y, p.z + 1, 'oak_log')
    const r = await execute(bot, { type: 'mine', object: 'oak_log', tool: null, count: 1 }, { signal: never })
    expect(r, r.message).toMatchObject({ ok: true, reason: null })
    expect(r.inventoryDelta.oak_log).toBe(1)
    expect(lastTrace(bot)?.action).toBe('mine')
    const hidden = await execute(bot, { type: 'mine', object: 'diamond_ore', tool: null, count: 1 }, { signal: never })
    expect(hidden.reason, hidden.message).toBe('not_found')
  })

  it('approaches a visible block to within 2 blocks and reports not_found for an unseen one', async () => {
    const p = here()
    await setblock(p.x - 12, p.y, p.z + 2, 'gold_block')
    const r = await execute(bot, { type: 'approach', object: 'gold_block' }, { signal: never })
    expect(r.ok, r.message).toBe(true)
    expect(bot.entity.position.floored().distanceTo(p.offset(-12, 0, 2))).toBeLessThanOrEqual(2.5)
    const none = await execute(bot, { type: 'approach', object: 'emerald_block' }, { signal: never })
    expect(none.reason).toBe('not_found')
  })

  it('explores the surface until it sees a far block; fails not_found on a small budget; stops at once', async () => {
    const p = here()
    await setblock(p.x + 45, p.y, p.z, 'lapis_block')
    const r = await execute(
      bot,
      { type: 'explore', object: 'lapis_block', strategy: 'surface' },
      { signal: never, budget: { timeMs: 45_000 } },
    )
    expect(r.ok, r.message).toBe(true)
    expect(r.message).toMatch(/I can see lapis_block/)
    // a far sighting is walked toward before the search ends, so the check after it still sees the block
    expect(bot.entity.position.distanceTo(new Vec3(p.x + 45.5, p.y + 0.5, p.z + 0.5))).toBeLessThan(16)
    const none = await execute(
      bot,
      { type: 'explore', object: 'emerald_block', strategy: 'surface' },
      { signal: never, budget: { timeMs: 4000 } },
    )
    expect(none.reason).toBe('not_found')
    const stop = new AbortController()
    const started = Date.now()
    setTimeout(() => stop.abort(), 1500)
    const s = await execute(
      bot,
      { type: 'explore', object: 'emerald_block', strategy: 'surface' },
      { signal: stop.signal },
    )
    expect(s.reason, s.message).toBe('interrupted')
    expect(Date.now() - started).toBeLessThan(2500)
    await bot.waitForTicks(12) // 0.6 s of simulated physics, however slow the machine: not coasting on
    expect(bot.pathfinder.isMoving()).toBe(false)
    expect(Math.hypot(bot.entity.velocity.x, bot.entity.velocity.z)).toBeLessThan(0.02)
  })

  it('sees a block across open land beyond its near sight and walks straight to it, not along the spiral', async () => {
    // 65 blocks off, within the land sent (80) and the far sight (96), twice the near sight (32): the spiral of
    // 20-block cells would walk about 30 cells before one came within 32 blocks of it; the far look walks there at once
    const p = here()
    const at = new Vec3(p.x + 60, p.y, p.z - 25)
    await setblock(at.x, at.y, at.z, 'redstone_block')
    const r = await execute(
      bot,
      { type: 'explore', object: 'redstone_block', strategy: 'surface' },
      { signal: never, budget: { steps: 3, timeMs: 60_000 } },
    )
    expect(r.ok, r.message).toBe(true)
    expect(r.message).toMatch(/I can see redstone_block/)
    expect(bot.entity.position.distanceTo(at.offset(0.5, 0.5, 0.5))).toBeLessThan(16)
  })

  it('passes the cells it has looked over from afar and walks on to land it has not seen', async () => {
    // 115 blocks off, past the land sent (80): the open land around is in sight, so the spiral walks no cell of its
    // first rings (about 50 cells, a step each) and goes on to the first unseen cell, from where the block comes in sight
    const p = here()
    const at = new Vec3(p.x + 115, p.y, p.z)
    await command(bot, `/setblock ${at.x} ${at.y} ${at.z} coal_block`)
    const r = await execute(
      bot,
      { type: 'explore', object: 'coal_block', strategy: 'surface' },
      { signal: never, budget: { steps: 8, timeMs: 120_000 } },
    )
    expect(r.ok, r.message).toBe(true)
    expect(bot.entity.position.distanceTo(at.offset(0.5, 0.5, 0.5))).toBeLessThan(16)
  })

  it('does not follow a far block when the search wants something beside it (seen within the near sight only)', async () => {
    const p = here()
    const far = new Vec3(p.x - 60, p.y, p.z)
    await command(bot, `/setblock ${far.x} ${far.y} ${far.z} gold_block`)
    const r = await execute(
      bot,
      { type: 'explore', object: 'gold_block', near: 'mooshroom', strategy: 'surface' },
      { signal: never, budget: { steps: 3, timeMs: 60_000 } },
    )
    expect(r.ok).toBe(false)
    // the spiral's first cells (its own and one ring), not the walk to the gold 60 blocks off
    expect(bot.entity.position.distanceTo(far)).toBeGreaterThan(35)
  })

  it('stops mining at once when told to', async () => {
    const stop = new AbortController()
    setTimeout(() => stop.abort(), 2000)
    const started = Date.now()
    const r = await execute(
      bot,
      { type: 'mine', object: 'grass_block', tool: null, count: 60 },
      { signal: stop.signal },
    )
    expect(r.reason, r.message).toBe('interrupted')
    expect(Date.now() - started).toBeLessThan(3000)
    await bot.waitForTicks(6)
    expect(bot.targetDigBlock).toBeFalsy()
  })

  it('digs down to a y-level, hits bedrock below, and goes back up to where it left the surface', async () => {
    const surfaceY = here().y
    const noMemory = await execute(bot, { type: 'go_up', tool: null }, { signal: never })
    expect(noMemory.reason).toBe('not_found')
    const down = await execute(bot, { type: 'dig_down', ylevel: surfaceY - 2, tool: null }, { signal: never })
    expect(down.ok, down.message).toBe(true)
    expect(here().y).toBe(surfaceY - 2)
    const state = feedback(bot, { type: 'dig_down', ylevel: surfaceY - 2, tool: null }, down).state
    expect(state.underground).toBe(true)
    const bedrock = await execute(bot, { type: 'dig_down', ylevel: -40, tool: null }, { signal: never })
    expect(bedrock.reason).toBe('no_path')
    const up = await execute(bot, { type: 'go_up', tool: null }, { signal: never })
    expect(up.ok, up.message).toBe(true)
    expect(here().y).toBe(surfaceY)
    expect(feedback(bot, { type: 'go_up', tool: null }, up).state).toMatchObject({
      underground: false,
      biome: 'plains',
      health: 20,
    })
  })

  it('builds the pillar blueprint bottom-up and reports missing_materials for the shelter', async () => {
    const lacking = await execute(bot, { type: 'build', blueprint: 'shelter' }, { signal: never })
    expect(lacking.reason).toBe('missing_materials')
    const have = bot.inventory
      .items()
      .filter((i) => i.name === 'dirt')
      .reduce((a, i) => a + i.count, 0)
    if (have < 3) await give('dirt', 3 - have)
    const r = await execute(bot, { type: 'build', blueprint: 'pillar' }, { signal: never })
    expect(r.ok, r.message).toBe(true)
    const [x, y, z] = r.message
      .match(/at (-?\d+) (-?\d+) (-?\d+)/)!
      .slice(1)
      .map(Number) as [number, number, number]
    for (let dy = 0; dy < 3; dy++) expect(bot.blockAt(here().set(x, y + dy, z))?.name).toBe('dirt')
  })
})
