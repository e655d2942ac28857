/**
 * Issue 9, the percipient against a real world: the real app (Ghost) on a practice-server child (seed 42, natural
 * spawning off) and a real player (Alice, op) who sets scenes with admin commands — time, weather, summoned
 * animals and monsters, a teleport into the desert and into a stone pocket, water and lava placed with /setblock, a
 * block in sight and one hidden behind a wall. Each percept field is checked against the scene; the `where` and
 * `look` chat commands answer with the same facts. Scene spots come from the generator itself (WorldScanner).
 */
import type { Bot } from 'mineflayer'
import { Vec3 } from 'vec3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App } from '../../src/app.js'
import { execute } from '../../src/actions/index.js'
import { nearestVisible, perceive } from '../../src/perception/percipient.js'
import type { ServerHandle } from '../../src/server/process.js'
import { WorldScanner } from '../../src/server/worldgen/scan.js'
import { startPracticeApp, type PracticeApp } from '../helpers/app.js'
import { command, waitFor, waitForMessage } from '../helpers/world.js'

const SEED = 42
let scene: PracticeApp
let server: ServerHandle
let app: App
let alice: Bot
let ghost: Bot
const scanner = WorldScanner.forSeed(SEED)

/** A flat desert spot (same surface height 6 blocks around) with no water within 20 blocks. */
function flatDesert(): Vec3 {
  const t = scanner.world.terrain
  for (let r = 16; r < 400; r += 4) {
    for (let a = 0; a < 24; a++) {
      const x = Math.round(8 + r * Math.cos((a / 24) * 2 * Math.PI)), z = Math.round(8 + r * Math.sin((a / 24) * 2 * Math.PI))
      if (t.biome(x, z) !== 'desert') continue
      const h = t.height(x, z)
      let flat = true
      for (let dx = -6; dx <= 6 && flat; dx++) for (let dz = -6; dz <= 6 && flat; dz++) {
        if (t.height(x + dx, z + dz) !== h || t.biome(x + dx, z + dz) !== 'desert') flat = false
        else if (scanner.blockName(x + dx, h + 1, z + dz) !== 'air') flat = false // no cactus or dead bush in the scene
      }
      if (!flat) continue
      const water = scanner.nearest((n) => n === 'water' || n === 'lava', new Vec3(x, h, z), 2)
      if (water && water.distance < 20) continue
      return new Vec3(x, h, z)
    }
  }
  throw new Error(`no flat desert spot found for seed ${SEED}`)
}

/** A column with solid rock from y=36 up to the surface (no cave), for a sealed pocket at y=40..41. */
function rockColumn(): Vec3 {
  for (let x = 0; x < 40; x++) {
    for (let z = 0; z < 40; z++) {
      const top = scanner.world.terrain.height(x, z)
      let solid = scanner.blockName(x, top + 1, z) === 'air' && scanner.blockName(x, top + 2, z) === 'air'
      for (let y = 36; y <= top && solid; y++) if (scanner.blockName(x, y, z) === 'air' || scanner.blockName(x, y, z) === 'water') solid = false
      for (const [dx, dz] of [[1, 0], [-1, 0], [0, 1], [0, -1]] as const) for (let y = 39; y <= 42; y++) if (scanner.blockName(x + dx, y, z + dz) === 'air') solid = false
      if (solid) return new Vec3(x, 40, z)
    }
  }
  throw new Error('no solid rock column near spawn')
}

/** Teleport Ghost (and Alice close by, so the chunks are loaded for both) and wait until Ghost stands there. */
async function tpGhost(to: Vec3, aliceAt: Vec3 = to.offset(-2, 0, -2)): Promise<void> {
  await command(alice, `/tp Alice ${aliceAt.x} ${aliceAt.y} ${aliceAt.z}`, 200)
  await command(alice, `/tp Ghost ${to.x} ${to.y} ${to.z}`, 200)
  await waitFor(() => ghost.entity.position.distanceTo(to.offset(0.5, 0, 0.5)) < 1.5 && ghost.blockAt(to.offset(0, -1, 0)) !== null, 10_000, `Ghost at ${to}`)
  await new Promise((r) => setTimeout(r, 600))
}

async function setBlocks(cells: Array<[Vec3, string]>): Promise<void> {
  for (const [p, name] of cells) alice.chat(`/setblock ${p.x} ${p.y} ${p.z} ${name}`)
  await waitFor(() => cells.every(([p, name]) => ghost.blockAt(p)?.name === name), 10_000, `blocks placed: ${cells.map(([, n]) => n).join(' ')}`)
}

let desert: Vec3

beforeAll(async () => {
  desert = flatDesert()
  scene = await startPracticeApp({ seed: SEED })
  ;({ server, app, ghost, alice } = scene)
}, 60_000)

afterAll(async () => { await scene?.stop() })

describe('percipient', () => {
  it('time of day follows /time set, and surface light with it', async () => {
    await command(alice, '/time set night')
    await waitFor(() => perceive(ghost).time.phase === 'night', 5000, 'phase night')
    expect(perceive(ghost).light).toMatchObject({ brightness: 'dark' })
    await command(alice, '/time set day')
    await waitFor(() => perceive(ghost).time.phase === 'day', 5000, 'phase day')
    const p = perceive(ghost)
    expect(p.underground).toBe(false)
    expect(p.light).toEqual({ level: 15, brightness: 'sufficient' })
  })

  it('weather follows /weather', async () => {
    await command(alice, '/weather rain')
    await waitFor(() => perceive(ghost).weather === 'rain', 5000, 'weather rain')
    await command(alice, '/weather thunder')
    await waitFor(() => perceive(ghost).weather === 'thunder', 5000, 'weather thunder')
    await command(alice, '/weather clear')
    await waitFor(() => perceive(ghost).weather === 'clear', 5000, 'weather clear')
  })

  it('knows the biome it stands in, as the world generator reports it', async () => {
    const spawn = ghost.entity.position.floored()
    expect(perceive(ghost).biome).toBe(scanner.world.terrain.biome(spawn.x, spawn.z))
    await tpGhost(desert.offset(0, 1, 0))
    expect(scanner.world.terrain.biome(desert.x, desert.z)).toBe('desert')
    const p = perceive(ghost)
    expect(p.biome).toBe('desert')
    expect(p.y).toBe(desert.y + 1)
    expect(p.underground).toBe(false)
    expect(p.water).toBeNull()
    expect(p.lava).toBeNull()
  })

  it('explores for a biome: at once when standing in it, by walking when just outside it', async () => {
    await tpGhost(desert.offset(0, 1, 0))
    const here = await execute(ghost, { type: 'explore', object: 'desert', strategy: 'surface' }, { signal: new AbortController().signal })
    expect(here, here.message).toMatchObject({ ok: true })
    expect(nearestVisible(ghost, 'desert')?.distance).toBe(0)
    // walk +x out of the desert, then 6 blocks further, and ask to find the desert again
    const t = scanner.world.terrain
    let x = desert.x
    while (t.biome(x, desert.z) === 'desert' && x < desert.x + 200) x++
    x += 6
    await tpGhost(new Vec3(x, t.height(x, desert.z) + 1, desert.z))
    expect(perceive(ghost).biome).not.toBe('desert')
    const walk = await execute(ghost, { type: 'explore', object: 'desert', strategy: 'surface' }, { signal: new AbortController().signal, budget: { timeMs: 60_000 } })
    expect(walk, walk.message).toMatchObject({ ok: true })
    expect(perceive(ghost).biome).toBe('desert')
    await tpGhost(desert.offset(0, 1, 0)) // the next tests start from the desert spot
  })

  it('lists summoned creatures with distance and hostility', async () => {
    const feet = desert.offset(0, 1, 0)
    await command(alice, `/summon cow ${feet.x - 4} ${feet.y} ${feet.z}`)
    await command(alice, `/summon zombie ${feet.x} ${feet.y} ${feet.z - 6}`)
    await waitFor(() => perceive(ghost).entities.some((e) => e.name === 'cow') && perceive(ghost).entities.some((e) => e.name === 'zombie'), 5000, 'cow and zombie seen')
    const ents = perceive(ghost).entities
    const cow = ents.find((e) => e.name === 'cow')!
    const zombie = ents.find((e) => e.name === 'zombie')!
    expect(cow.hostile).toBe(false)
    expect(cow.distance).toBeGreaterThan(1)
    expect(cow.distance).toBeLessThan(8)
    expect(zombie.hostile).toBe(true)
    expect(zombie.distance).toBeLessThan(8)
    for (const e of ents.filter((x) => x.name.startsWith('player:'))) expect(e.hostile).toBe(false)
    const look = waitForMessage(alice, /Creatures: .*cow/, { from: 'Ghost', timeoutMs: 5000 })
    alice.chat('Ghost look')
    expect(await look).toMatch(/!zombie \d/)
    await command(alice, '/kill @e[type=zombie]')
    await waitFor(() => !perceive(ghost).entities.some((e) => e.name === 'zombie'), 5000, 'zombie gone')
  })

  it('sees a block in line of sight but not one hidden behind a wall (no x-ray)', async () => {
    const feet = new Vec3(Math.floor(ghost.entity.position.x), Math.floor(ghost.entity.position.y), Math.floor(ghost.entity.position.z))
    const wall: Array<[Vec3, string]> = []
    for (let dy = 0; dy <= 2; dy++) for (let dz = -1; dz <= 1; dz++) wall.push([feet.offset(3, dy, dz), 'gold_block'])
    const hidden = feet.offset(5, 1, 0)
    await setBlocks([...wall, [hidden, 'diamond_block']])
    const p = perceive(ghost)
    const gold = p.blocks.find((b) => b.name === 'gold_block')
    expect(gold).toBeDefined()
    expect(gold!.distance).toBeLessThan(5)
    expect(gold!.direction).toBe('east')
    expect(p.blocks.some((b) => b.name === 'diamond_block')).toBe(false)
    // the block exists and is loaded — the percipient just cannot see it
    expect(ghost.blockAt(hidden)?.name).toBe('diamond_block')
    expect(nearestVisible(ghost, 'diamond_block')).toBeNull()
    expect(nearestVisible(ghost, 'gold_block')?.distance).toBeLessThan(5)
    const look = waitForMessage(alice, /I see: .*gold_block \d+(\.\d)?m east/, { from: 'Ghost', timeoutMs: 5000 })
    alice.chat('Ghost look')
    expect(await look).not.toMatch(/diamond_block/)
  })

  it('notices water and lava nearby', async () => {
    const feet = ghost.entity.position.floored()
    await setBlocks([[feet.offset(0, -1, 3), 'water'], [feet.offset(-3, -1, -5), 'lava']])
    const p = perceive(ghost)
    expect(p.water).not.toBeNull()
    expect(p.water!).toBeGreaterThan(2)
    expect(p.water!).toBeLessThan(4.5)
    expect(p.lava).not.toBeNull()
    expect(p.lava!).toBeGreaterThan(4.5)
    expect(p.lava!).toBeLessThan(7.5)
    const look = waitForMessage(alice, /Nearby: water \d+(\.\d)?m, LAVA \d/, { from: 'Ghost', timeoutMs: 5000 })
    alice.chat('Ghost look')
    await look
  })

  it('answers where on the surface: position, biome, time, weather, light', async () => {
    const where = waitForMessage(alice, /^At /, { from: 'Ghost', timeoutMs: 5000 })
    alice.chat('Ghost where')
    const m = /^At (-?\d+) (-?\d+) (-?\d+) \(on the surface\) in desert; day, clear, light 15 \(sufficient\)\.$/.exec(await where)
    expect(m).not.toBeNull()
    const p = perceive(ghost).position // the bot may have shuffled a block after the zombie's visit
    expect(Math.abs(Number(m![1]) - p.x) + Math.abs(Number(m![2]) - p.y) + Math.abs(Number(m![3]) - p.z)).toBeLessThanOrEqual(2)
  })

  it('knows when it is underground, at which y, and that it is dark there', async () => {
    const pocket = rockColumn()
    // first both stand on the surface above (chunks loaded); the pocket is two blocks of air sealed in rock
    const top = new Vec3(pocket.x, scanner.world.terrain.height(pocket.x, pocket.z) + 1, pocket.z)
    await tpGhost(top, top.offset(1, 0, 1))
    expect(perceive(ghost).underground).toBe(false)
    await setBlocks([[pocket, 'air'], [pocket.offset(0, 1, 0), 'air']])
    await command(alice, `/tp Ghost ${pocket.x} ${pocket.y} ${pocket.z}`, 200)
    await waitFor(() => ghost.entity.position.distanceTo(pocket.offset(0.5, 0, 0.5)) < 1, 10_000, 'Ghost in the pocket')
    await new Promise((r) => setTimeout(r, 500))
    const p = perceive(ghost)
    expect(p.y).toBe(40)
    expect(p.underground).toBe(true)
    expect(p.light.brightness).toBe('dark')
    expect(p.biome).toBe(scanner.world.terrain.biome(pocket.x, pocket.z))
    const where = waitForMessage(alice, /^At /, { from: 'Ghost', timeoutMs: 5000 })
    alice.chat('Ghost where')
    expect(await where).toMatch(new RegExp(`^At ${pocket.x} 40 ${pocket.z} \\(underground\\) in ${p.biome}; day, clear, light \\d+ \\(dark\\)\\.$`))
  })
})
