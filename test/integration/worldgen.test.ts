/**
 * Integration test of the practice world on a real server child process (default generator, seed 1) with a real
 * mineflayer player: the player spawns where the generator's scan says, on dry ground; the column under it as the
 * client sees it equals the generator's output (grass over dirt over stone, deepslate, bedrock); the biome id in
 * the client's chunk data names the generator's biome; a tree stands near spawn; ores the client finds sit at
 * their vanilla depths and match the generator block for block.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Bot } from 'mineflayer'
import { Vec3 } from 'vec3'
import { joinPlayer, quit, startServer } from '../helpers/world.js'
import type { ServerHandle } from '../../src/server/process.js'
import { WorldScanner } from '../../src/server/worldgen/scan.js'
import { withTimeout } from '../../src/util/async.js'

const SEED = 1
let server: ServerHandle
let bot: Bot
const scanner = WorldScanner.forSeed(SEED)

beforeAll(async () => {
  server = await startServer({ seed: SEED })
  bot = await joinPlayer(server, 'WorldTester')
  await withTimeout(bot.waitForChunksToLoad(), 20_000, 'chunks to load')
}, 40_000)

afterAll(async () => {
  quit(bot)
  await server?.stop()
})

describe('practice world seen by a player', () => {
  it('spawns the player at the generator spawn point, on dry solid ground', async () => {
    const expected = await scanner.spawnPoint()
    expect(bot.entity.position.distanceTo(expected)).toBeLessThan(1.01)
    const below = bot.blockAt(expected.offset(0, -1, 0).floored())!
    expect(below.boundingBox).toBe('block')
    expect(below.name).toMatch(/^(grass_block|sand|dirt|stone|sandstone|gravel)$/)
  })

  it('shows the generated column under the player: grass over dirt over stone, deepslate, bedrock', () => {
    const p = bot.entity.position.floored()
    const seen: string[] = []
    const gen: string[] = []
    for (let y = p.y + 3; y >= -64; y--) {
      seen.push(bot.blockAt(new Vec3(p.x, y, p.z))!.name)
      gen.push(scanner.blockName(p.x, y, p.z))
    }
    expect(seen).toEqual(gen)
    const top = seen.findIndex((n) => n !== 'air' && n !== 'grass')
    if (seen[top] === 'grass_block') expect(seen.slice(top + 1, top + 4)).toEqual(['dirt', 'dirt', 'dirt'])
    expect(seen.at(-1)).toBe('bedrock')
    expect(seen.slice(-40, -6).filter((n) => n === 'deepslate').length).toBeGreaterThan(15)
  })

  it('carries the generator biome in the chunk data', () => {
    const p = bot.entity.position.floored()
    const block = bot.blockAt(p.offset(0, -1, 0))!
    // mineflayer 4.39's Block.biome.name is always '' (prismarine-block hands prismarine-biome a version object),
    // so resolve the id through the registry the client loaded from the server's login codec.
    const biomes = bot.registry.biomes as unknown as Record<number, { name: string }>
    const name = biomes[block.biome.id]?.name
    const cellX = (p.x & ~3) + 2,
      cellZ = (p.z & ~3) + 2
    expect(name).toBe(scanner.world.terrain.biome(cellX, cellZ))
    expect(['plains', 'forest', 'taiga', 'desert']).toContain(name)
  })

  it('has a tree near spawn', () => {
    const log = bot.findBlock({ matching: (b) => b.name.endsWith('_log'), maxDistance: 48 })
    expect(log).not.toBeNull()
    expect(scanner.blockName(log!.position.x, log!.position.y, log!.position.z)).toBe(log!.name)
    const leaves = bot.findBlock({ matching: (b) => b.name.endsWith('_leaves'), point: log!.position, maxDistance: 6 })
    expect(leaves).not.toBeNull()
  })

  it('has ores at their vanilla depths, identical to the generator', () => {
    const find = (names: string[]): Vec3[] =>
      bot.findBlocks({
        matching: names.map((n) => bot.registry.blocksByName[n]!.id),
        maxDistance: 96,
        count: 400,
      })
    const diamonds = find(['diamond_ore', 'deepslate_diamond_ore'])
    const iron = find(['iron_ore', 'deepslate_iron_ore'])
    const coal = find(['coal_ore'])
    expect(diamonds.length).toBeGreaterThan(0)
    expect(iron.length).toBeGreaterThan(0)
    expect(coal.length).toBeGreaterThan(0)
    for (const p of diamonds) expect(p.y).toBeLessThanOrEqual(16)
    for (const p of coal) expect(p.y).toBeGreaterThanOrEqual(0)
    for (const p of [...diamonds.slice(0, 20), ...iron.slice(0, 20)]) {
      expect(scanner.blockName(p.x, p.y, p.z)).toBe(bot.blockAt(p)!.name)
      if (p.y < 0) expect(bot.blockAt(p)!.name).toMatch(/^deepslate_/)
    }
  })
})
