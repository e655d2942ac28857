/**
 * Issue 16 against a real protocol at Minecraft 1.21.4: `npm start` with MC_VERSION=1.21.4 hosts the practice world
 * (flying-squid 1.12 child) and its bot Ghost joins; a second bot started the way a remote-server user would
 * (MC_HOST set, MC_VERSION left at its default `auto`) pings the server and comes up speaking 1.21.4. Then what that
 * server can host at 1.21.4: chat and whispers both ways, roles, a human client digging, placing and crafting in
 * the 2×2 grid, and obtain requests carried out end to end (dig dirt; craft planks from a given log). An
 * unsupported server version is a clear start-up error naming the supported versions. Not run here (flying-squid
 * breaks them at 1.21.4): `/tp` (drops every player who sees the teleported one) and chests.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import type { Bot } from 'mineflayer'
import { Vec3 } from 'vec3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp, type App } from '../../src/app.js'
import { detectServerVersion } from '../../src/bot/version.js'
import { loadConfig } from '../../src/config.js'
import { waitFor } from '../../src/util/async.js'
import { SUPPORTED_VERSIONS } from '../../src/versions.js'
import { tempDir } from '../helpers/tmp.js'
import { command, countItem, joinPlayer, quit, startServer, waitForMessage } from '../helpers/world.js'

const VERSION = '1.21.4'
const root = join(import.meta.dirname, '..', '..')
const { dir } = tempDir('ghost-1214-')

let main: ChildProcess
let mainOut = ''
let mainErr = ''
let port = 0
let auto: App
let alice: Bot
let eve: Bot

function remoteConfig(env: Record<string, string>) {
  const cfg = loadConfig(
    {
      MC_HOST: '127.0.0.1',
      MC_PORT: String(port),
      GHOST_OWNERS: 'Alice',
      GHOST_ALLOW_OFFLINE_OWNERS: 'true',
      GHOST_CHAT_INTERVAL_MS: '100',
      GHOST_AUDIT_LOG: '',
      GHOST_DB: ':memory:',
      ...env,
    },
    '/nonexistent.json',
  )
  if (!cfg.ok) throw new Error(JSON.stringify(cfg.problems))
  return cfg.config
}

beforeAll(async () => {
  main = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      MC_VERSION: VERSION,
      MC_PORT: '0',
      GHOST_SEED: '42',
      GHOST_OWNERS: 'Alice',
      GHOST_CHAT_INTERVAL_MS: '100',
      GHOST_DB: join(dir, 'memory.db'),
      GHOST_AUDIT_LOG: join(dir, 'audit.log'),
      GHOST_CONFIG: '/nonexistent.json',
    },
  })
  main.stdout!.on('data', (d: Buffer) => {
    mainOut += d.toString()
  })
  main.stderr!.on('data', (d: Buffer) => {
    mainErr = (mainErr + d.toString()).slice(-4000)
  })
  await waitFor(
    () => {
      if (main.exitCode !== null) throw new Error(`npm start at ${VERSION} exited with ${main.exitCode}: ${mainErr}`)
      return /Ghost joined/.test(mainOut)
    },
    45_000,
    `npm start at ${VERSION} printing "Ghost joined"`,
  )
  const m = /embedded server listening on 127\.0\.0\.1:(\d+) \(Minecraft ([\d.]+)\)/.exec(mainOut)
  expect(m?.[2]).toBe(VERSION)
  port = Number(m![1])
  alice = await joinPlayer({ port, version: VERSION }, 'Alice')
  eve = await joinPlayer({ port, version: VERSION }, 'Eve')
  await command(alice, '/time set day')
}, 90_000)

afterAll(async () => {
  quit(alice, eve)
  await auto?.stop()
  if (main && main.exitCode === null) {
    const exited = new Promise((r) => main.once('exit', r))
    main.kill('SIGTERM')
    await exited
  }
})

describe(`Minecraft ${VERSION} against a real server process`, () => {
  it('starts a bot with MC_VERSION=auto (the default with MC_HOST): it asks the server and speaks 1.21.4', async () => {
    const cfg = remoteConfig({ MC_USERNAME: 'Auto' })
    expect(cfg.MC_VERSION).toBe('auto')
    auto = await createApp(cfg, { host: '127.0.0.1', port }, { initialBackoffMs: 300 })
    expect(auto.config.MC_VERSION).toBe(VERSION)
    const bot = await auto.ready()
    expect(bot.version).toBe(VERSION)
  }, 30_000)

  it('shows other players as players (not as a mob: src/server/plugins/player-visibility.ts)', async () => {
    await waitFor(() => Object.values(alice.entities).some((e) => e.username === 'Ghost'), 10_000, 'Alice sees Ghost')
    const seen = Object.values(alice.entities).filter(
      (e) => e.username === 'Ghost' || e.username === 'Eve' || e.username === 'Auto',
    )
    expect(seen.map((e) => e.type)).toEqual(seen.map(() => 'player'))
  })

  it('answers in chat and by whisper, and other players hear each other', async () => {
    const heard = waitForMessage(eve, /^hello from alice$/, { from: 'Alice' })
    alice.chat('hello from alice')
    await heard
    const help = waitForMessage(alice, /Commands for you \(owner\)/, { from: 'Ghost' })
    alice.chat('Ghost help')
    await help
    const whispered = waitForMessage(alice, /Commands for you \(owner\)/, { from: 'Auto' })
    alice.chat('/msg Auto help')
    await whispered
  }, 30_000)

  it('checks roles: a guest may ask for help but not make the bot come', async () => {
    const denied = waitForMessage(eve, /needs the trusted role and you are guest/, { from: 'Ghost' })
    eve.chat('Ghost come')
    await denied
    const help = waitForMessage(eve, /Commands for you \(guest\)/, { from: 'Ghost' })
    eve.chat('Ghost help')
    await help
  }, 30_000)

  it('lets a player dig (and pick up), place and craft in the 2×2 grid', async () => {
    // Everyone spawned on one spot and the nearest player picks a drop up: Alice walks off first (no /tp at 1.21.4).
    const start = alice.entity.position.clone()
    for (let turn = 0; turn < 8 && alice.entity.position.distanceTo(start) < 3; turn++) {
      await alice.look(turn * (Math.PI / 2), 0, true)
      alice.setControlState('forward', true)
      await waitFor(() => alice.entity.position.distanceTo(start) >= 3, 1500, 'Alice walked off').catch(() => {})
      alice.setControlState('forward', false)
    }
    alice.clearControlStates()
    expect(alice.entity.position.distanceTo(start)).toBeGreaterThanOrEqual(3)
    await waitFor(() => alice.entity.onGround, 3000, 'Alice on the ground')
    const ground = (b: { name: string; position: Vec3 }): boolean =>
      (b.name === 'grass_block' || b.name === 'dirt') && alice.blockAt(b.position.offset(0, 1, 0))?.name === 'air'
    const below = alice.blockAt(alice.entity.position.offset(0, -1, 0))!
    expect(['grass_block', 'dirt']).toContain(below.name)
    await alice.dig(below)
    expect(alice.blockAt(below.position)?.name).toBe('air')
    await waitFor(() => countItem(alice, 'dirt') === 1, 5000, `Alice picked up the dirt she dug at ${below.position}`)
    await command(alice, `/give Alice oak_log 1`)
    await waitFor(() => countItem(alice, 'oak_log') === 1, 5000, 'Alice got a log')
    const recipe = alice.recipesFor(alice.registry.itemsByName.oak_planks!.id, null, 1, null)[0]
    expect(recipe?.requiresTable).toBe(false)
    await alice.craft(recipe!, 1, undefined)
    await waitFor(() => countItem(alice, 'oak_planks') === 4, 5000, 'four planks crafted in the 2×2 grid')
    const ref = alice.findBlock({
      matching: (b) => b.name === 'grass_block' || b.name === 'dirt',
      maxDistance: 4,
      useExtraInfo: (b) => ground(b) && b.position.distanceTo(alice.entity.position) > 1.5,
    })
    expect(ref).not.toBeNull()
    await alice.equip(alice.inventory.items().find((i) => i.name === 'oak_planks')!, 'hand')
    await alice.placeBlock(ref!, new Vec3(0, 1, 0))
    expect(alice.blockAt(ref!.position.offset(0, 1, 0))?.name).toBe('oak_planks')
    expect(countItem(alice, 'oak_planks')).toBe(3)
  }, 30_000)

  it('carries out obtain requests end to end: digs dirt, and crafts planks from a log', async () => {
    const bot = await auto.ready()
    // "for yourself": the bot keeps what it obtained. Handing items over (the give action's toss) is not proven at
    // 1.21.4: on this server the toss is never confirmed and the items come back (README, Minecraft versions).
    const dirt = waitForMessage(alice, /^Done: 2 dirt|fail|cannot/i, { from: 'Auto', timeoutMs: 60_000 })
    alice.chat('Auto get 2 dirt for yourself')
    expect(await dirt).toMatch(/^Done: 2 dirt\. Verified: \d+ dirt now in inventory/)
    expect(countItem(bot, 'dirt')).toBeGreaterThanOrEqual(2)
    await command(alice, '/give Auto oak_log 1')
    await waitFor(() => countItem(bot, 'oak_log') === 1, 5000, 'Auto got a log')
    const planksBefore = countItem(alice, 'oak_planks')
    const planks = waitForMessage(alice, /^Done: 4 oak_planks|fail|cannot/i, { from: 'Auto', timeoutMs: 30_000 })
    alice.chat('Auto make 4 oak planks for yourself')
    expect(await planks).toMatch(/^Done: 4 oak_planks\. Verified: 4 oak_planks now in inventory \(needed 4\)\./)
    expect(countItem(bot, 'oak_planks')).toBe(4)
    expect(countItem(alice, 'oak_planks')).toBe(planksBefore)
  }, 100_000)

  it('refuses to start against an unsupported server version, naming the supported ones', async () => {
    const old = await startServer({ version: '1.19.4', seed: 1 })
    try {
      await expect(detectServerVersion('127.0.0.1', old.port)).rejects.toThrow(
        `supported: ${SUPPORTED_VERSIONS.join(', ')}`,
      )
      port = old.port
      await expect(
        createApp(remoteConfig({ MC_USERNAME: 'Old' }), { host: '127.0.0.1', port: old.port }),
      ).rejects.toThrow(/MC_VERSION=auto: the server runs Minecraft "1\.19\.4"/)
    } finally {
      await old.stop()
    }
  }, 45_000)
})
