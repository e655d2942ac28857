/**
 * Issue 17, guard: a real bot (createBot, reflexes attached) guards Alice on a superflat practice server at night
 * with natural spawning off. A summoned zombie walking at Alice is intercepted and dies without ever hurting her (every
 * hurt event Alice's client sees is recorded); the bot never targets Alice or the cow standing beside her, and the cow
 * is never hurt. `stop` ends the guard within 1 s as `interrupted`, and the guard ends by itself (ok) when the guarded
 * player leaves. Attacking a mob type goes through the
 * same care: asking to attack a player or a cow's neighbour never lands a hit on them.
 */
import type { Bot } from 'mineflayer'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { attachReflexes, execute } from '../../src/actions/index.js'
import type { Reflexes } from '../../src/actions/reflexes/index.js'
import { createBot } from '../../src/bot/create.js'
import type { ServerHandle } from '../../src/server/process.js'
import { onceEvent } from '../../src/util/async.js'
import { VERSION, command, giveItem, joinPlayer, quit, startServer, waitFor } from '../helpers/world.js'

let server: ServerHandle
let bot: Bot
let alice: Bot
let reflexes: Reflexes
const hurt: Array<{ id: number; name: string }> = []
/** Console warnings about a deprecated mineflayer event while the bot loaded its plugins and spawned. */
let deprecations: string[] = []

const at = (dx: number, dy: number, dz: number): string => {
  const p = bot.entity.position.floored()
  return `${p.x + dx} ${p.y + dy} ${p.z + dz}`
}

beforeAll(async () => {
  server = await startServer({ generator: 'superflat', practice: { naturalSpawning: false } })
  const warn = vi.spyOn(console, 'warn')
  bot = createBot({ host: '127.0.0.1', port: server.port, username: 'GhostG', version: VERSION, auth: 'offline' })
  await onceEvent(bot, 'spawn', { timeoutMs: 20_000 })
  deprecations = warn.mock.calls.map((c) => String(c[0])).filter((m) => m.includes('deprecated'))
  warn.mockRestore()
  await bot.waitForChunksToLoad()
  await waitFor(() => bot.entity.onGround, 5000, 'landing')
  reflexes = attachReflexes(bot)
  alice = await joinPlayer(server, 'Alice')
  alice.on('entityHurt', (e) => {
    hurt.push({ id: e.id, name: e.type === 'player' ? (e.username ?? 'player') : (e.name ?? '?') })
  })
  await giveItem(bot, 'stone_sword', 1)
  await command(alice, '/time set midnight')
  await waitFor(() => bot.time.timeOfDay >= 18000, 5000, 'night')
}, 60_000)
afterAll(async () => {
  reflexes?.detach()
  quit(bot, alice)
  await server?.stop()
})

describe('guard', () => {
  it('loads mineflayer-pvp without mineflayer printing a deprecated-event warning (the fights below are pvp)', () => {
    expect(deprecations).toEqual([])
  })

  it('keeps a zombie off the guarded player and never hits her or the cow beside her', async () => {
    await command(alice, `/tp Alice ${at(2, 0, 0)}`)
    await waitFor(
      () => !!bot.players.Alice?.entity && bot.players.Alice.entity.position.distanceTo(bot.entity.position) < 3,
      5000,
      'Alice next to the bot',
    )
    await command(alice, `/summon cow ${at(3, 0, 1)}`)
    await waitFor(() => Object.values(bot.entities).some((e) => e.name === 'cow'), 5000, 'cow seen')
    const cow = Object.values(bot.entities).find((e) => e.name === 'cow')!
    const ac = new AbortController()
    const guarding = execute(bot, { type: 'guard', player: 'Alice' }, { signal: ac.signal })
    await command(alice, `/summon zombie ${at(2, 0, 9)}`)
    await waitFor(() => Object.values(bot.entities).some((e) => e.name === 'zombie'), 5000, 'zombie seen')
    const zombie = Object.values(bot.entities).find((e) => e.name === 'zombie')!
    // The bot's own target, every tick: it must never be Alice (or the cow).
    const targets = new Set<number>()
    const watch = (): void => {
      if (bot.pvp.target) targets.add(bot.pvp.target.id)
    }
    bot.on('physicsTick', watch)
    await waitFor(() => !bot.entities[zombie.id], 40_000, 'zombie dead').finally(() => bot.off('physicsTick', watch))
    const aliceId = alice.entity.id
    expect(
      hurt.filter((h) => h.name === 'Alice' || h.id === aliceId),
      'the zombie never reached Alice',
    ).toEqual([])
    expect(alice.health).toBe(20)
    expect(targets.has(bot.players.Alice?.entity?.id ?? aliceId), 'the bot never targeted Alice').toBe(false)
    expect(targets.has(cow.id), 'the bot never targeted the cow').toBe(false)
    expect(targets.has(zombie.id), 'the bot fought the zombie').toBe(true)
    expect(
      hurt.filter((h) => h.name === 'cow'),
      'the cow was never hurt',
    ).toEqual([])
    expect(cow.isValid !== false && !!bot.entities[cow.id]).toBe(true)

    const t0 = Date.now()
    ac.abort()
    const r = await guarding
    expect(r.reason, r.message).toBe('interrupted')
    expect(Date.now() - t0).toBeLessThan(1000)
  }, 90_000)

  it('ends on its own when the guarded player leaves', async () => {
    const bob = await joinPlayer(server, 'Bob')
    await waitFor(() => !!bot.players.Bob, 5000, 'Bob online')
    const guarding = execute(bot, { type: 'guard', player: 'Bob' }, { signal: new AbortController().signal })
    quit(bob)
    const r = await guarding
    expect(r, r.message).toMatchObject({ ok: true })
    expect(r.message).toMatch(/Bob left the game/)
  }, 30_000)

  it('refuses to attack a player and attacks a zombie without touching the cow', async () => {
    if (!bot.inventory.items().some((i) => i.name === 'stone_sword')) await giveItem(bot, 'stone_sword', 1) // own state
    const bad = await execute(
      bot,
      { type: 'attack', object: 'player', tool: 'stone_sword' },
      { signal: new AbortController().signal },
    )
    expect(bad.ok).toBe(false)
    hurt.length = 0
    await command(alice, `/summon zombie ${at(-4, 0, 0)}`)
    await waitFor(() => Object.values(bot.entities).some((e) => e.name === 'zombie'), 5000, 'zombie seen')
    const r = await execute(
      bot,
      { type: 'attack', object: 'zombie', tool: 'stone_sword' },
      { signal: new AbortController().signal },
    )
    expect(r, r.message).toMatchObject({ ok: true })
    expect(hurt.filter((h) => h.name === 'cow' || h.name === 'Alice')).toEqual([])
  }, 60_000)
})
