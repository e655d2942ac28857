/**
 * Issue 17, build at a place: (1) end to end through the real app on a superflat practice server in survival, Alice
 * (owner) asks "build a pillar here" with Ghost's inventory empty — the dirt is obtained through the normal goal
 * pipeline (no /give), the pillar goes up in front of her and the block-by-block check passes; (2) the shelter at
 * given coordinates, turned to face the builder, with an admin removing a placed block after the first layer — the
 * final check reports exactly that block; (3) `stop` ends a build within 1 s; (4) a block where a player stepped in
 * mid-build is placed last (the server refuses a solid block in a player's box), and a player who stays is named.
 */
import { Vec3 } from 'vec3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildBlueprintAt, verifyBuild, loadBlueprint } from '../../src/actions/build.js'
import { runHandler } from '../../src/actions/run.js'
import { DEFAULT_BUDGETS } from '../../src/actions/types.js'
import { createApp, type App } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import type { ServerHandle } from '../../src/server/process.js'
import type { Bot } from 'mineflayer'
import {
  command,
  giveItem,
  joinPlayer,
  quit,
  startServer,
  turnSeenBy,
  waitFor,
  waitForMessage,
} from '../helpers/world.js'

let server: ServerHandle
let app: App
let ghost: Bot
let alice: Bot

beforeAll(async () => {
  server = await startServer({ generator: 'superflat', seed: 11, practice: { naturalSpawning: false } })
  const cfg = loadConfig(
    { GHOST_OWNERS: 'Alice', GHOST_CHAT_INTERVAL_MS: '100', GHOST_AUDIT_LOG: '', GHOST_DB: ':memory:' },
    '/nonexistent.json',
  )
  if (!cfg.ok) throw new Error(JSON.stringify(cfg.problems))
  app = await createApp(cfg.config, { host: '127.0.0.1', port: server.port }, { initialBackoffMs: 300 })
  ghost = await app.ready()
  alice = await joinPlayer(server, 'Alice')
  await command(alice, '/time set day')
  await waitFor(() => ghost.entity?.onGround === true && !!ghost.players.Alice?.entity, 10_000, 'both landed')
}, 90_000)
afterAll(async () => {
  quit(alice)
  await app?.stop()
  await server?.stop()
})

/** The ground-level spot (air with a solid block under it) at horizontal offset dx, dz from Ghost. */
function ground(dx: number, dz: number): Vec3 {
  const p = ghost.entity.position.floored().offset(dx, 4, dz)
  while (p.y > 0 && !(ghost.blockAt(p)?.name === 'air' && ghost.blockAt(p.offset(0, -1, 0))?.boundingBox === 'block'))
    p.y--
  return p
}

describe('build at a place', () => {
  it('builds a pillar in front of the player from an empty inventory, materials obtained in survival', async () => {
    expect(ghost.inventory.items()).toEqual([])
    const p = ghost.entity.position.floored()
    await command(alice, `/tp Alice ${p.x + 5.5} ${p.y} ${p.z + 0.5}`)
    await waitFor(() => alice.entity.position.floored().x === p.x + 5, 5000, 'Alice in place')
    await turnSeenBy(alice, ghost, Math.PI / 2) // yaw π/2: looking towards -x, back at Ghost
    const done = waitForMessage(alice, /I built the pillar|could not|can't|not as planned/, {
      from: 'Ghost',
      timeoutMs: 90_000,
    })
    alice.chat('Ghost build a pillar here')
    const reply = await done
    expect(reply).toMatch(/I built the pillar .*all 3 checked/)
    const a = alice.entity.position.floored()
    const spot = new Vec3(a.x - 2, a.y, a.z)
    for (let y = 0; y < 3; y++) expect(ghost.blockAt(spot.offset(0, y, 0))?.name).toBe('dirt')
  }, 120_000)

  it('reports a block an admin removed mid-build', async () => {
    await giveItem(ghost, 'cobblestone', 64)
    const o = ground(5, 5)
    const site = { origin: o, fx: 1, fz: 0 }
    const bp = loadBlueprint('shelter')!
    const removed = o.offset(0, 0, -2) // blueprint (x -2, y 0, z 0): a corner of the first layer
    const r = await runHandler(
      ghost,
      { signal: new AbortController().signal },
      { name: 'build', doing: 'building a shelter', budget: DEFAULT_BUDGETS.build, tracked: false },
      (run) =>
        buildBlueprintAt(run, 'shelter', site, (layer) => {
          if (layer === 1) void command(alice, `/setblock ${removed.x} ${removed.y} ${removed.z} air`)
        }),
    )
    expect(r.reason, r.message).toBe('unverified')
    expect(r.message).toContain(`${removed.x} ${removed.y} ${removed.z}: want cobblestone, found air`)
    expect(verifyBuild(ghost, bp, site)).toEqual([
      `${removed.x} ${removed.y} ${removed.z}: want cobblestone, found air`,
    ])
  }, 120_000)

  it('stops a build within 1 s', async () => {
    await giveItem(ghost, 'cobblestone', 64)
    const away = ground(-16, -16) // open ground away from the pillar and the shelter
    await command(alice, `/tp Ghost ${away.x + 0.5} ${away.y} ${away.z + 0.5}`)
    await waitFor(() => ghost.entity.position.distanceTo(away.offset(0.5, 0, 0.5)) < 1.5, 5000, 'Ghost moved')
    const o = ground(0, 3)
    const ac = new AbortController()
    let layers = 0
    let ended: string | null = null
    const running = runHandler(
      ghost,
      { signal: ac.signal },
      { name: 'build', doing: 'building a wall', budget: DEFAULT_BUDGETS.build, tracked: false },
      (run) =>
        buildBlueprintAt(run, 'wall_segment', { origin: o, fx: 0, fz: 1 }, () => {
          layers++
        }),
    )
    void running.then((r) => {
      ended = r.message
    })
    await waitFor(() => layers >= 1 || ended !== null, 30_000, 'first layer')
    expect(ended, 'the build was still running').toBeNull()
    const t0 = Date.now()
    ac.abort()
    const r = await running
    expect(r.reason).toBe('interrupted')
    expect(Date.now() - t0).toBeLessThan(1000)
  }, 60_000)

  it('places a block a player walked into last, and names the player who stays there', async () => {
    await giveItem(ghost, 'cobblestone', 64)
    const o = ground(0, -4)
    const site = { origin: o, fx: 0, fz: 1 } // the wall runs along x; each layer's middle block (placed first) at o
    const top = o.offset(0, 1, 0) // after the first layer, Alice steps onto its middle block: into the second's
    const r = await runHandler(
      ghost,
      { signal: new AbortController().signal },
      { name: 'build', doing: 'building a wall', budget: DEFAULT_BUDGETS.build, tracked: false },
      (run) =>
        buildBlueprintAt(run, 'wall_segment', site, async (layer) => {
          if (layer !== 1) return
          await command(alice, `/tp Alice ${top.x + 0.5} ${top.y} ${top.z + 0.5}`)
          await waitFor(() => ghost.players.Alice?.entity?.position.floored().equals(top) === true, 5000, 'Alice on it')
        }),
    )
    expect(r.reason, r.message).toBe('no_space')
    expect(r.message).toContain(`Alice is standing where a block goes, at ${top.x} ${top.y} ${top.z}`)
    // the rest of her layer went in first
    for (const dx of [-2, -1, 1, 2]) expect(ghost.blockAt(top.offset(dx, 0, 0))?.name).toBe('cobblestone')
    expect(ghost.blockAt(top)?.name).toBe('air')
  }, 60_000)
})
