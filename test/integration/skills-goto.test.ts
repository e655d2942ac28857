/**
 * Issue 17, goto: the real app on a superflat practice server, Alice as owner and Bob as a trusted player. Alice
 * names a place ("remember this place as base"), the bot walks to coordinates and to the named place, and the name
 * survives two bot restarts (a new app on the same memory.db file each time). Bob may not forget Alice's place;
 * Alice may. A walk to an unreachable spot fails with `no_path` and the distance left; `stop` ends a long walk
 * within 1 s. A long walk sprints when fed and does not when the food is too low to sprint (vanilla's rule).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Bot } from 'mineflayer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp, type App } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { SPRINT_FOOD } from '../../src/rules/policy.js'
import type { ServerHandle } from '../../src/server/process.js'
import { command, joinPlayer, quit, startServer, waitFor, waitForMessage } from '../helpers/world.js'

let server: ServerHandle
let app: App | null = null
let ghost: Bot
let alice: Bot
let bob: Bot
const dir = mkdtempSync(path.join(tmpdir(), 'ghost-goto-'))
const DB = path.join(dir, 'memory.db')

async function startApp(): Promise<void> {
  const cfg = loadConfig(
    { GHOST_OWNERS: 'Alice', GHOST_TRUSTED: 'Bob', GHOST_CHAT_INTERVAL_MS: '100', GHOST_AUDIT_LOG: '', GHOST_DB: DB },
    '/nonexistent.json',
  )
  if (!cfg.ok) throw new Error(JSON.stringify(cfg.problems))
  app = await createApp(cfg.config, { host: '127.0.0.1', port: server.port }, { initialBackoffMs: 300 })
  ghost = await app.ready()
  await waitFor(() => ghost.entity?.onGround === true, 10_000, 'Ghost on the ground')
}

async function restart(): Promise<void> {
  await app?.stop()
  app = null
  await waitFor(() => !alice.players.Ghost, 10_000, 'Ghost gone')
  await startApp()
  await waitFor(() => !!ghost.players.Alice?.entity, 10_000, 'Ghost sees Alice')
}

async function say(who: Bot, line: string, pattern: RegExp, timeoutMs = 60_000): Promise<string> {
  const reply = waitForMessage(who, pattern, { from: 'Ghost', timeoutMs })
  who.chat(line)
  return reply
}

const at = (b: Bot): { x: number; y: number; z: number } => b.entity.position.floored()

beforeAll(async () => {
  server = await startServer({ generator: 'superflat', seed: 7 })
  await startApp()
  alice = await joinPlayer(server, 'Alice')
  bob = await joinPlayer(server, 'Bob')
  await waitFor(() => alice.entity?.onGround === true && !!ghost.players.Alice?.entity, 10_000, 'Alice landed')
}, 90_000)

afterAll(async () => {
  quit(alice, bob)
  await app?.stop()
  await server?.stop()
  rmSync(dir, { recursive: true, force: true })
})

describe('goto and named places', () => {
  it('walks to coordinates and to a named place that survives two bot restarts', async () => {
    const o = at(ghost)
    const base = { x: o.x + 12, y: o.y, z: o.z + 5 }
    await command(alice, `/tp Alice ${base.x + 0.5} ${base.y} ${base.z + 0.5}`)
    await waitFor(() => alice.entity.position.floored().x === base.x, 5000, 'Alice at the base')
    expect(await say(alice, 'Ghost remember this place as base', /remember|base/i, 10_000)).toMatch(
      new RegExp(`${base.x} ${base.y} ${base.z} as base`),
    )

    const spot = { x: o.x - 10, y: o.y, z: o.z - 8 }
    expect(await say(alice, `Ghost goto ${spot.x} ${spot.y} ${spot.z}`, /I'm at|no way|closer/)).toMatch(/I'm at/)
    expect(
      ghost.entity.position.distanceTo(ghost.entity.position.floored().set(spot.x, spot.y, spot.z)),
    ).toBeLessThanOrEqual(3)

    await restart()
    expect(await say(alice, 'Ghost go to base', /I'm at|no place|can't/)).toMatch(/I'm at base/)
    expect(Math.hypot(at(ghost).x - base.x, at(ghost).z - base.z)).toBeLessThanOrEqual(3)

    await command(alice, `/tp Ghost ${spot.x + 0.5} ${spot.y} ${spot.z + 0.5}`)
    await waitFor(() => Math.abs(at(ghost).x - spot.x) <= 1, 5000, 'Ghost moved away')
    await restart()
    expect(await say(alice, 'Ghost goto base', /I'm at|no place|can't/)).toMatch(/I'm at base/)
    expect(Math.hypot(at(ghost).x - base.x, at(ghost).z - base.z)).toBeLessThanOrEqual(3)
  }, 150_000)

  it('lets only the player who saved a place (or an owner) forget it', async () => {
    expect(await say(bob, 'Ghost forget base', /saved by|forgot|no place/, 10_000)).toMatch(/saved by Alice/)
    expect(await say(alice, 'Ghost places', /base: |No named/, 10_000)).toMatch(/base: /)
    expect(await say(alice, 'Ghost forget base', /saved by|forgot|no place/, 10_000)).toMatch(/I forgot base/)
    expect(await say(alice, 'Ghost goto base', /no place|I'm at/, 10_000)).toMatch(/I know no place called base/)
  }, 40_000)

  it('fails an unreachable spot with no_path and the distance left', async () => {
    const o = at(ghost)
    // a spot 8 blocks up in the open air: nothing to stand on within reach, and Ghost carries no blocks to climb with
    const t = { x: o.x + 6, y: o.y + 8, z: o.z }
    const reply = await say(alice, `Ghost goto ${t.x} ${t.y} ${t.z}`, /I'm at|no way|closer|ran out/)
    expect(reply).toMatch(/(no way|closer).*\d+ blocks left/)
  }, 120_000)

  it('stops a long walk within 1 s', async () => {
    const o = at(ghost)
    const started = waitForMessage(alice, /On it|Going|goto|walk/i, { from: 'Ghost', timeoutMs: 10_000 }).catch(
      () => '',
    )
    alice.chat(`Ghost goto ${o.x + 300} ${o.y} ${o.z}`)
    await started
    await waitFor(
      () => ghost.entity.position.distanceTo(ghost.entity.position.floored().set(o.x, o.y, o.z)) > 3,
      15_000,
      'walking',
    )
    const t0 = Date.now()
    const stopped = waitForMessage(alice, /Stop/i, { from: 'Ghost', timeoutMs: 5_000 })
    alice.chat('Ghost stop')
    await stopped
    await waitFor(
      () => ghost.entity.velocity.x ** 2 + ghost.entity.velocity.z ** 2 < 0.001 && !ghost.pathfinder.isMoving(),
      3000,
      'standing still',
    )
    expect(Date.now() - t0).toBeLessThan(1500)
  }, 60_000)

  it('sprints on a long walk when fed and walks when too hungry to sprint, as vanilla has it', async () => {
    // whether Ghost's client held sprint on any tick of a walk
    const walk = async (dx: number): Promise<boolean> => {
      let sprinted = false
      const onTick = (): void => {
        if (ghost.getControlState('sprint')) sprinted = true
      }
      ghost.on('physicsTick', onTick)
      try {
        const o = at(ghost)
        expect(await say(alice, `Ghost goto ${o.x + dx} ${o.y} ${o.z}`, /I'm at|no way|closer/)).toMatch(/I'm at/)
      } finally {
        ghost.off('physicsTick', onTick)
      }
      return sprinted
    }
    expect(ghost.food).toBeGreaterThan(SPRINT_FOOD)
    expect(await walk(20)).toBe(true)
    await command(alice, '/effect Ghost hunger 20 127')
    await waitFor(() => ghost.food <= SPRINT_FOOD, 25_000, 'Ghost too hungry to sprint')
    await command(alice, '/effect Ghost clear')
    expect(await walk(-20)).toBe(false)
  }, 90_000)
})
