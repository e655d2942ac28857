/**
 * Integration tests of reflexes and the progress signal, driven through the registry's own run machinery
 * (runHandler) with test-only movement loops: walking straight at a lava pool (set with /setblock on the path), at
 * a hole into the void or at a shallow hole with lava at its bottom makes the reflex stop the bot and step back (never
 * into a second hole behind it; stopped with its middle over the hole, never moved further over it), and
 * the run reports `unsafe` (after the stops a run may absorb, its `detours`, are used up); the pathfinder keeps off a
 * lava pool's rim (src/bot/lava-margin.ts); walking in circles makes
 * the progress signal stop the run as `stalled`, with the trace kept for the failure analyser. Also
 * explore(underground): tunnelling through the superflat dirt until a buried ore is in view; and explore and mine
 * leave ore whose drop would fall into lava.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Vec3 } from 'vec3'
import { goals } from 'mineflayer-pathfinder'
import type { Bot } from 'mineflayer'
import type { ServerHandle } from '../../src/server/process.js'
import { execute, lastTrace } from '../../src/actions/index.js'
import { runHandler } from '../../src/actions/run.js'
import { loadRules, parseRules } from '../../src/progress/rules.js'
import type { ProgressEntry } from '../../src/progress/signal.js'
import { onceEvent, sleep, waitFor } from '../../src/util/async.js'
import { command, startServer, setBlockSeen, joinGhost } from '../helpers/world.js'

let server: ServerHandle
let bot: Bot
const never = new AbortController().signal

const setblock = (x: number, y: number, z: number, name: string): Promise<void> => setBlockSeen(bot, x, y, z, name)

/** Move to a fresh patch of the world for each test. */
async function teleport(x: number, z: number): Promise<void> {
  await command(bot, `/tp ${bot.username} ${x} 5 ${z}`)
  await waitFor(
    () => Math.abs(bot.entity.position.x - x) < 2 && Math.abs(bot.entity.position.z - z) < 2,
    5000,
    'teleport',
  )
  await bot.waitForChunksToLoad()
  await waitFor(() => bot.entity.onGround, 5000, 'landing')
}

/**
 * The pathfinder's whole search for `goal`: getPathTo returns after one tick's budget (40 ms of wall time), which on
 * a loaded machine is a partial path, so run the search generator to its end — a slice per event-loop turn, as the
 * pathfinder itself does, so the bot's connection is served meanwhile (a search run in one go for 30 s got it
 * kicked for a missed keep-alive, and the next tests' commands went unanswered).
 */
async function wholePath(
  moves: Parameters<Bot['pathfinder']['getPathTo']>[0],
  goal: Parameters<Bot['pathfinder']['getPathTo']>[1],
): Promise<ReturnType<Bot['pathfinder']['getPathTo']>> {
  let last: ReturnType<Bot['pathfinder']['getPathTo']> | undefined
  // the generator yields a partial result after each tick's budget and ends after the final one
  for (const { result } of bot.pathfinder.getPathFromTo(moves, bot.entity.position, goal, {
    timeout: 10_000,
    searchRadius: 24,
  })) {
    last = result
    await new Promise((resolve) => setImmediate(resolve))
  }
  return last!
}

/** Test-only movement: walk straight along +x until the run is stopped. */
async function walkEast(): ReturnType<typeof runHandler> {
  await bot.look(-Math.PI / 2, 0, true) // yaw -90° faces +x
  return runHandler(
    bot,
    { signal: never },
    { name: 'walk', doing: 'walking east', budget: { steps: 1000, timeMs: 8000 }, tracked: false },
    async (run) => {
      bot.setControlState('forward', true)
      for (;;) {
        await sleep(50, run.signal).catch(() => run.check())
        run.check()
      }
    },
  )
}

beforeAll(async () => {
  server = await startServer({ generator: 'superflat', practice: { naturalSpawning: false } })
  bot = await joinGhost(server, 'GhostC')
})
afterAll(async () => {
  try {
    bot?.quit()
  } catch {
    /* gone */
  }
  await server?.stop()
})

describe('reflexes and progress', () => {
  it('stops before a lava pool on its path and steps back (unsafe)', async () => {
    await teleport(40.5, 40.5)
    const p = bot.entity.position.floored()
    for (const dz of [-1, 0, 1]) for (const dx of [4, 5]) await setblock(p.x + dx, p.y - 1, p.z + dz, 'lava')
    const r = await walkEast()
    expect(r.reason, r.message).toBe('unsafe')
    expect(r.message).toMatch(/lava/)
    await bot.waitForTicks(18) // 0.9 s of simulated physics, however slow the machine
    const feet = bot.entity.position.floored()
    expect(feet.x).toBeLessThan(p.x + 4)
    expect(bot.entity.position.x).toBeLessThan(p.x + 3.2) // stepped back from the edge
    expect(bot.blockAt(feet)?.name).not.toBe('lava')
    expect(bot.blockAt(feet.offset(0, -1, 0))?.name).not.toBe('lava')
    expect(bot.health).toBe(20)
  })

  it('stops at the edge of a hole into the void (unsafe)', async () => {
    await teleport(80.5, 40.5)
    const p = bot.entity.position.floored()
    for (let y = p.y - 1; y >= p.y - 5; y--) await setblock(p.x + 3, y, p.z, 'air')
    const r = await walkEast()
    expect(r.reason, r.message).toBe('unsafe')
    expect(r.message).toMatch(/drop/)
    await bot.waitForTicks(12) // time to fall, in physics ticks rather than wall-clock time
    expect(bot.entity.position.y).toBeGreaterThan(p.y - 0.5)
    expect(bot.health).toBe(20)
  })

  it('does not step back into a second hole: on a one-block bridge between two drops it stops where it stands', async () => {
    // bench p7 piston seed 2: stopped at a cave's edge, the step back went into the next hole and fell 8 blocks
    await teleport(120.5, 40.5)
    const p = bot.entity.position.floored()
    for (let y = p.y - 1; y >= p.y - 5; y--)
      for (const dz of [-1, 0, 1]) {
        await setblock(p.x + 1, y, p.z + dz, 'air')
        await setblock(p.x - 1, y, p.z + dz, 'air')
      }
    const r = await walkEast()
    expect(r.reason, r.message).toBe('unsafe')
    expect(r.message).toMatch(/drop/)
    await bot.waitForTicks(18) // the step back's time, in physics ticks
    expect(bot.entity.position.y).toBeGreaterThan(p.y - 0.5)
    expect(bot.entity.position.floored().x).toBe(p.x)
    expect(bot.health).toBe(20)
  })

  it('stopped with its middle already over the edge, stays on the edge: the stop does not move it over the hole', async () => {
    // bench p10 compass seed 2: the guard saw a cave's edge only once the bot's middle hung over it (its look ahead
    // skips the cell it stands in), and the pathfinder's stop moved the body to the middle of that cell, in mid-air:
    // it fell 6 blocks into lava
    await teleport(160.5, 40.5)
    const p = bot.entity.position.floored()
    for (let y = p.y - 1; y >= p.y - 5; y--)
      for (const dx of [1, 2, 3]) for (const dz of [-1, 0, 1]) await setblock(p.x + dx, y, p.z + dz, 'air')
    // on the very edge: its middle 0.15 past the block it stands on, its body still over it by 0.15
    await command(bot, `/tp ${bot.username} ${p.x + 1.15} ${p.y} ${p.z + 0.5}`)
    await waitFor(() => bot.entity.position.x > p.x + 1.1 && bot.entity.onGround, 5000, 'standing on the edge')
    const r = await walkEast()
    expect(r.reason, r.message).toBe('unsafe')
    expect(r.message).toMatch(/drop/)
    await bot.waitForTicks(20) // the stop and the step back, in physics ticks
    expect(bot.entity.position.y).toBeGreaterThan(p.y - 0.5)
    expect(bot.entity.position.x).toBeLessThan(p.x + 1.3) // never past the edge
    expect(bot.health).toBe(20)
  })

  it('on a one-block tower top, a slide with no key pressed and a sneak back to the rim are no deadly drop', async () => {
    // the full suite under load (actions-world's ore up a tower): the pathfinder's stop on its tower top coasted a few
    // hundredths of a block, and its back-to-the-rim sneak (to place the block it steps onto) moved the bot; the
    // guard looked half a block on, saw the rim and stopped it, and mine gave the ore up
    await teleport(160.5, 80.5)
    const p = bot.entity.position.floored()
    for (let y = p.y - 1; y >= p.y - 5; y--)
      for (const dx of [-1, 0, 1])
        for (const dz of [-1, 0, 1]) if (dx !== 0 || dz !== 0) await setblock(p.x + dx, y, p.z + dz, 'air')
    await command(bot, `/tp ${bot.username} ${p.x + 0.75} ${p.y} ${p.z + 0.5}`)
    await waitFor(() => bot.entity.position.x > p.x + 0.7 && bot.entity.onGround, 5000, 'standing off-centre')
    const r = await runHandler(
      bot,
      { signal: never },
      { name: 'walk', doing: 'standing on a tower', budget: { steps: 1000, timeMs: 8000 }, tracked: false },
      async (run) => {
        bot.entity.velocity.x = 0.1 // coasting east, no key pressed: slides about 0.12 blocks, stays on the block
        await bot.waitForTicks(10)
        run.check()
        await bot.look(Math.PI / 2, 0, true) // yaw 90° faces -x: backing goes east, over the rim
        bot.setControlState('sneak', true)
        bot.setControlState('back', true)
        await bot.waitForTicks(20)
        run.check()
        return 'stood'
      },
    )
    bot.clearControlStates()
    expect(r.ok, r.message).toBe(true)
    expect(bot.entity.position.y).toBeGreaterThan(p.y - 0.5)
    expect(bot.entity.position.x).toBeGreaterThan(p.x + 0.9) // the sneak took it to the rim
    expect(bot.entity.position.x).toBeLessThan(p.x + 1.31) // and the physics kept it there
  })

  it('stops at a shallow hole with lava at its bottom (unsafe), although the drop itself is survivable', async () => {
    // the lava-filled caves under the diamond level: a two-block drop onto lava is a landing only in its depth
    await teleport(40.5, 80.5)
    const p = bot.entity.position.floored()
    for (const dz of [-1, 0, 1]) {
      await setblock(p.x + 3, p.y - 1, p.z + dz, 'air')
      await setblock(p.x + 3, p.y - 2, p.z + dz, 'lava')
    }
    const r = await walkEast()
    expect(r.reason, r.message).toBe('unsafe')
    expect(r.message).toMatch(/lava/)
    await bot.waitForTicks(18)
    expect(bot.entity.position.x).toBeLessThan(p.x + 3)
    expect(bot.entity.position.y).toBeGreaterThan(p.y - 0.5)
    expect(bot.health).toBe(20)
  })

  it('paths round the rim of a lava pool', async () => {
    await teleport(120.5, 80.5)
    const p = bot.entity.position.floored()
    // a strip of lava in the floor along the straight way to the goal, one block to its side
    for (let dx = 1; dx <= 6; dx++) await setblock(p.x + dx, p.y - 1, p.z + 1, 'lava')
    const moves = bot.pathfinder.movements
    const path = await wholePath(moves, new goals.GoalBlock(p.x + 7, p.y, p.z))
    const seen = `from ${bot.entity.position} (p ${p}), ${path.visitedNodes} nodes in ${Math.round(path.time)} ms`
    expect(path.status, seen).toBe('success')
    const cells = path.path.map((n) => new Vec3(n.x, n.y, n.z).floored())
    const onRim = cells.filter((c) => c.x >= p.x + 1 && c.x <= p.x + 6 && c.z === p.z)
    expect(onRim, 'steps beside the lava').toEqual([])
  })

  it('lets an action that finds its own way absorb its allowed guard stops, then ends the run as unsafe', async () => {
    await teleport(80.5, 80.5)
    const p = bot.entity.position.floored()
    for (let y = p.y - 1; y >= p.y - 5; y--) await setblock(p.x + 3, y, p.z, 'air')
    let absorbed = 0
    const r = await runHandler(
      bot,
      { signal: never },
      { name: 'walk', doing: 'walking east', budget: { steps: 1000, timeMs: 15_000 }, tracked: false, detours: 1 },
      async (run) => {
        // walk at the edge until the guard stops us; the run goes on, so walk at it again
        for (;;) {
          const before = run.detours()
          await bot.look(-Math.PI / 2, 0, true) // the step back turned us round
          bot.setControlState('forward', true)
          await onceEvent(bot, 'physicsTick', { filter: () => run.detours() > before, signal: run.signal }).catch(() =>
            run.check(),
          )
          absorbed = run.detours()
          await bot.waitForTicks(20) // the step back (16 ticks at most) ends before the next walk
        }
      },
    )
    expect(absorbed).toBe(1)
    expect(r.reason, r.message).toBe('unsafe')
    expect(r.message).toMatch(/drop/)
    await bot.waitForTicks(12)
    expect(bot.entity.position.y).toBeGreaterThan(p.y - 0.5)
    expect(bot.health).toBe(20)
  })

  it('leaves ore whose drop would fall into lava and mines the one whose drop lands on the ground', async () => {
    // MP5 bench p5 (diamond pickaxe, seed 2): two diamond ores in a cave roof over a lava lake, both dug, both burned
    await teleport(80.5, 120.5)
    const p = bot.entity.position.floored()
    const overLava = p.offset(2, 2, 0) // the nearer one, hanging over a lava pool three blocks down
    const overGround = p.offset(-3, 2, 0)
    await setblock(overLava.x, p.y - 1, overLava.z, 'lava')
    await setblock(overLava.x, overLava.y, overLava.z, 'iron_ore')
    await setblock(overGround.x, overGround.y, overGround.z, 'iron_ore')
    await command(bot, `/give ${bot.username} stone_pickaxe`)
    await waitFor(() => bot.inventory.items().some((i) => i.name === 'stone_pickaxe'), 3000, 'the pickaxe')
    const found = await execute(bot, { type: 'explore', object: 'iron_ore', strategy: 'surface' }, { signal: never })
    expect(found.ok, found.message).toBe(true)
    expect(found.message).toContain(`at ${overGround.x} ${overGround.y} ${overGround.z}`)
    const r = await execute(
      bot,
      { type: 'mine', object: 'raw_iron', tool: 'stone_pickaxe', count: 1 },
      { signal: never, budget: { timeMs: 30_000 } },
    )
    expect(r.ok, r.message).toBe(true)
    expect(bot.inventory.items().some((i) => i.name === 'raw_iron')).toBe(true)
    expect(bot.blockAt(overLava)?.name).toBe('iron_ore')
    expect(bot.blockAt(overGround)?.name).toBe('air')
  }, 45_000)

  it('explores underground by tunnelling until a buried ore comes into view', async () => {
    await teleport(120.5, 40.5)
    const down = await execute(bot, { type: 'dig_down', ylevel: 2, tool: null }, { signal: never })
    expect(down.ok, down.message).toBe(true)
    const p = bot.entity.position.floored()
    // one buried ore 5 blocks away in each direction: the search picks its own heading and level (no x-ray, so it
    // must dig to one of them before it can see it; bare hands dig this dirt at about 1.5 s a cell)
    for (const [dx, dz] of [
      [5, 0],
      [-5, 0],
      [0, 5],
      [0, -5],
    ] as const)
      await setblock(p.x + dx, p.y, p.z + dz, 'iron_ore')
    const r = await execute(
      bot,
      { type: 'explore', object: 'iron_ore', strategy: 'underground' },
      { signal: never, budget: { timeMs: 40_000 } },
    )
    expect(r.ok, r.message).toBe(true)
    expect(r.message).toMatch(/I can see iron_ore/)
    expect(bot.entity.position.distanceTo(p)).toBeGreaterThan(1) // it dug its way before it could see one
  }, 50_000)

  it('stops a bot that walks in circles as stalled and keeps the signal trace', async () => {
    // a spot of its own: at 40.5, 80.5 the shallow-hole test's lava lies 3 blocks east, and a wide circle under load
    // met it ("lava ahead", unsafe, in a clean-clone run)
    await teleport(40.5, 120.5)
    const shipped = loadRules()
    const rules = parseRules({ ...shipped, stall: { ...shipped.stall, windowMs: 4000, perAction: {} } })
    const seen: ProgressEntry[] = []
    const started = Date.now()
    const r = await runHandler(
      bot,
      { signal: never, rules, onSignal: (e) => seen.push(e) },
      { name: 'circle', doing: 'walking in circles', budget: { steps: 1000, timeMs: 30_000 }, tracked: true },
      async (run) => {
        bot.setControlState('forward', true)
        for (let i = 0; ; i++) {
          await bot.look((i * 0.25) % (2 * Math.PI), 0, true)
          await sleep(50, run.signal).catch(() => run.check())
        }
      },
    )
    expect(r.reason, r.message).toBe('stalled')
    expect(Date.now() - started).toBeLessThan(20_000)
    const trace = lastTrace(bot)
    expect(trace?.action).toBe('circle')
    expect(trace?.reason).toBe('stalled')
    expect(
      trace!.entries.some((e) => (e.parts.revisit ?? 0) < 0),
      JSON.stringify(trace!.entries.slice(-12)),
    ).toBe(true)
    expect(seen.length).toBeGreaterThan(5)
  }, 30_000)
})
