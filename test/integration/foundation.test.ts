/**
 * Issue 2 end to end: the real app (supervisor, router, chat channel) against a real practice-server child, with
 * real mineflayer clients as players: help, come, follow/stop, a guest denied and audited, long replies split and
 * paced, and reconnection after the server kicks the bot.
 */
import { readFileSync } from 'node:fs'
import type { Bot } from 'mineflayer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp, type App } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import type { ServerHandle } from '../../src/server/process.js'
import { tempDir } from '../helpers/tmp.js'
import { command, joinPlayer, quit, recordMessages, startServer, waitFor, waitForMessage } from '../helpers/world.js'

let server: ServerHandle
let app: App
let alice: Bot
let eve: Bot
let ghost: Bot
const auditFile = tempDir('ghost-audit-').file('audit.log')

beforeAll(async () => {
  server = await startServer({ generator: 'superflat' })
  const cfg = loadConfig(
    { GHOST_OWNERS: 'Alice', GHOST_CHAT_INTERVAL_MS: '300', GHOST_AUDIT_LOG: auditFile, GHOST_DB: ':memory:' },
    '/nonexistent.json',
  )
  if (!cfg.ok) throw new Error(JSON.stringify(cfg.problems))
  app = await createApp(cfg.config, { host: '127.0.0.1', port: server.port }, { initialBackoffMs: 300 })
  ghost = await app.ready()
  alice = await joinPlayer(server, 'Alice')
  eve = await joinPlayer(server, 'Eve')
})

afterAll(async () => {
  quit(alice, eve)
  await app?.stop()
  await server?.stop()
})

const dist = (a: Bot, b: Bot): number => a.entity.position.distanceTo(b.entity.position)
/** After Alice's /tp is acknowledged, wait until Ghost's client has her at the new spot too. */
const ghostSeesAlice = (): Promise<void> =>
  waitFor(
    () => (ghost.players.Alice?.entity?.position.distanceTo(alice.entity.position) ?? Infinity) < 0.5,
    5000,
    'Ghost sees Alice where she is',
  )

describe('foundation', () => {
  it("two clients see each other as players and hear each other's chat", async () => {
    await waitFor(
      () => Object.values(alice.entities).some((e) => e.type === 'player' && e.username === 'Eve'),
      5000,
      'Alice sees Eve',
    )
    await waitFor(
      () => Object.values(eve.entities).some((e) => e.type === 'player' && e.username === 'Alice'),
      5000,
      'Eve sees Alice',
    )
    // each client is in its own tab list, as on a vanilla server (flying-squid sent everyone but the newcomer)
    for (const c of [alice, eve, ghost])
      await waitFor(() => c.player?.username === c.username, 5000, `${c.username} has its own player entry`)
    const heard = waitForMessage(eve, /^hello eve$/, { from: 'Alice' })
    alice.chat('hello eve')
    await heard
  })

  it('a player who joins while others move sees every player standing near', async () => {
    // Jumper hops in and out of range every 30 ms while Late logs in: each hop runs the server's updateAndSpawn for
    // it, which (flying-squid) set the newcomer's list of nearby entities without spawning them to it, so Late never
    // saw Eve standing by (3 of 8 joins before src/server/plugins/player-visibility.ts started the list afresh).
    const jumper = await joinPlayer(server, 'Jumper')
    const home = eve.entity.position.floored()
    try {
      for (let i = 0; i < 5; i++) {
        let far = false
        const hops = setInterval(() => {
          far = !far
          const to = far ? home.offset(300, 0, 300) : home.offset(3, 0, 3)
          jumper.chat(`/tp Jumper ${to.x + 0.5} ${to.y} ${to.z + 0.5}`)
        }, 30)
        let late: Bot | null = null
        try {
          late = await joinPlayer(server, 'Late')
          clearInterval(hops)
          const joined = late
          await waitFor(() => !!joined.players.Eve?.entity, 5000, `Late sees Eve (join ${i + 1})`)
        } finally {
          clearInterval(hops)
          if (late) quit(late)
        }
        await waitFor(() => !eve.players.Late, 10_000, 'Late gone')
      }
    } finally {
      quit(jumper)
    }
  })

  it('answers help addressed by name and by prefix, and by whisper', async () => {
    const a = waitForMessage(alice, /Commands for you \(owner\)/, { from: 'Ghost' })
    alice.chat('Ghost help')
    await a
    const b = waitForMessage(alice, /Commands for you \(owner\)/, { from: 'Ghost' })
    alice.chat('!help')
    await b
    const c = waitForMessage(alice, /Commands for you \(owner\)/, { from: 'Ghost' })
    alice.whisper('Ghost', 'help')
    await c
  })

  it('answers an unknown command with did-you-mean', async () => {
    const m = waitForMessage(alice, /did you mean "follow"/i, { from: 'Ghost' })
    alice.chat('!folow Alice')
    await m
  })

  it('comes to the requester', async () => {
    await command(
      alice,
      `/tp Alice ${Math.floor(ghost.entity.position.x) + 12} ${Math.floor(alice.entity.position.y)} ${Math.floor(ghost.entity.position.z) + 9}`,
    )
    await ghostSeesAlice()
    const done = waitForMessage(alice, /I'm here/, { from: 'Ghost', timeoutMs: 30_000 })
    alice.chat('!come')
    await done
    expect(dist(ghost, alice)).toBeLessThanOrEqual(3)
  })

  it('follows until stopped, and status answers while busy', async () => {
    const started = waitForMessage(alice, /Following Alice/, { from: 'Ghost' })
    alice.chat('!follow Alice')
    await started
    await command(
      alice,
      `/tp Alice ${Math.floor(alice.entity.position.x) - 10} ${Math.floor(alice.entity.position.y)} ${Math.floor(alice.entity.position.z)}`,
    )
    await waitFor(() => dist(ghost, alice) < 4, 20_000, 'Ghost catches up with Alice')
    const busy = waitForMessage(alice, /Working on "follow" for Alice/, { from: 'Ghost' })
    alice.chat('!status')
    await busy
    const stopped = waitForMessage(alice, /Stopping/, { from: 'Ghost' })
    alice.chat('!stop')
    await stopped
    await waitFor(() => app.router.queue.current() === null, 3000, 'queue idle after stop')
    const before = ghost.entity.position.clone()
    await command(
      alice,
      `/tp Alice ${Math.floor(alice.entity.position.x) + 10} ${Math.floor(alice.entity.position.y)} ${Math.floor(alice.entity.position.z)}`,
    )
    // ordering, not a pause: Ghost has seen Alice move away and run physics ticks since, and is not after her
    await ghostSeesAlice()
    await ghost.waitForTicks(10)
    expect(ghost.pathfinder.goal).toBeNull()
    expect(ghost.entity.position.distanceTo(before)).toBeLessThan(1)
  })

  it('denies a guest privately and writes the audit log', async () => {
    const denied = waitForMessage(eve, /needs the trusted role and you are guest/, { from: 'Ghost' })
    eve.chat('!come')
    await denied
    const entry = app.router.audit.recent.find((e) => e.player === 'Eve' && e.command === 'come')
    expect(entry).toMatchObject({ allowed: false, role: 'guest', source: 'chat' })
    await app.router.audit.flush()
    const lines = readFileSync(auditFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { player: string; allowed: boolean })
    expect(lines.some((l) => l.player === 'Eve' && !l.allowed)).toBe(true)
    expect(lines.some((l) => l.player === 'Alice' && l.allowed)).toBe(true)
  })

  it('splits long replies to the chat limit and paces them', async () => {
    const items = [
      'dirt',
      'stone',
      'cobblestone',
      'oak_planks',
      'birch_planks',
      'spruce_planks',
      'oak_log',
      'birch_log',
      'sand',
      'gravel',
      'glass',
      'torch',
      'stick',
      'coal',
      'iron_ingot',
      'gold_ingot',
      'diamond',
      'emerald',
      'redstone',
      'lapis_lazuli',
      'bone',
      'string',
      'feather',
      'gunpowder',
      'wheat',
      'wheat_seeds',
      'apple',
      'bread',
      'flint',
      'clay_ball',
    ] // 30 kinds: fits the 36 slots
    for (const it of items) alice.chat(`/give Ghost ${it}`)
    await waitFor(() => ghost.inventory.items().length >= items.length, 10_000, 'Ghost received the items').catch(
      (err: Error) => {
        throw new Error(
          `${err.message}: has ${ghost.inventory
            .items()
            .map((i) => i.name)
            .join(' ')}`,
        )
      },
    )
    const lines = recordMessages(alice, 'Ghost')
    alice.chat('!inventory')
    await waitFor(
      () =>
        lines.length >= 2 &&
        lines
          .map((l) => l.text)
          .join(' ')
          .includes('.'),
      10_000,
      'a split inventory reply',
    )
    await new Promise((r) => setTimeout(r, 800))
    expect(lines.length).toBeGreaterThanOrEqual(2)
    for (const l of lines) expect(l.text.length).toBeLessThanOrEqual(256)
    const sent = app.chat.outbox.sent.slice(-lines.length)
    // Token bucket (GHOST_CHAT_BURST 3, one more line per 300 ms): any run of n lines spans at least (n - 3) intervals.
    for (let i = 0; i < sent.length; i++)
      for (let j = i + 3; j < sent.length; j++)
        expect(sent[j]!.at - sent[i]!.at).toBeGreaterThanOrEqual((j - i + 1 - 3) * 300 - 10)
  })

  it('reconnects after the server kicks the bot', async () => {
    const before = app.supervisor.reconnects.length
    alice.chat('/kick Ghost testing reconnection')
    await waitFor(() => app.supervisor.reconnects.length > before, 10_000, 'supervisor noticed the kick')
    expect(app.supervisor.reconnects.at(-1)!.reason).toMatch(/kick|end/)
    ghost = await app.ready()
    await waitFor(() => app.supervisor.current !== null, 15_000, 'bot back online')
    ghost = app.supervisor.current!
    const back = ghost
    await waitFor(() => back.player?.username === back.username, 5000, 'the reconnected bot has its own player entry')
    const m = waitForMessage(alice, /Commands for you/, { from: 'Ghost', timeoutMs: 15_000 })
    alice.chat('Ghost help')
    await m
  })
})
