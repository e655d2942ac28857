/**
 * Unit tests of the practice-world generator, straight from `PracticeWorld` (no server): determinism per seed and
 * independence from chunk order, terrain layers (bedrock, deepslate, stone, dirt, grass, sea-level water), biomes,
 * trees near the spawn point, lava depth, and the prismarine-chunk conversion (blocks, biomes, sky light).
 */
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { Vec3 } from 'vec3'
import { PracticeWorld, type ChunkData } from '../../../src/server/worldgen/generator.js'
import { MIN_Y, SEA_LEVEL } from '../../../src/server/worldgen/palette.js'
import { WorldScanner } from '../../../src/server/worldgen/scan.js'
import { idx } from '../../../src/server/worldgen/terrain.js'

const world = PracticeWorld.forVersion(1)
const chunks: ChunkData[] = []
for (let cx = -2; cx < 2; cx++) for (let cz = -2; cz < 2; cz++) chunks.push(world.generate(cx, cz))
const name = (d: ChunkData, x: number, y: number, z: number): string =>
  world.palette.nameOf.get(d.blocks[idx(x, y, z)]!) ?? 'unknown'

describe('determinism', () => {
  it('gives the same blocks for the same seed, in any chunk order', () => {
    const other = PracticeWorld.forVersion(1)
    const late = [other.generate(5, -3), other.generate(1, 1), other.generate(-2, -2)]
    expect(Buffer.from(late[1]!.blocks.buffer).equals(Buffer.from(world.generate(1, 1).blocks.buffer))).toBe(true)
    expect(Buffer.from(late[2]!.blocks.buffer).equals(Buffer.from(chunks[0]!.blocks.buffer))).toBe(true)
    expect(late[1]!.biomes).toEqual(world.generate(1, 1).biomes)
  })

  it('gives a different world for another seed', () => {
    const b = PracticeWorld.forVersion(2).generate(-2, -2)
    expect(Buffer.from(b.blocks.buffer).equals(Buffer.from(chunks[0]!.blocks.buffer))).toBe(false)
  })
})

describe('terrain', () => {
  it('has bedrock at the bottom, deepslate below y=0 and stone above y=8', () => {
    const counts = { deepBelow0: 0, rockBelow0: 0, stoneAbove8: 0, rockAbove8: 0 }
    for (const d of chunks) {
      for (let z = 0; z < 16; z++) {
        for (let x = 0; x < 16; x++) {
          expect(name(d, x, MIN_Y, z)).toBe('bedrock')
          for (let y = -40; y < 0; y++) {
            const n = name(d, x, y, z)
            if (n === 'air' || n === 'lava' || n.endsWith('_ore')) continue
            counts.rockBelow0++
            // gravel blobs replace deepslate too, as vanilla's ore_gravel (base_stone_overworld) does
            if (n === 'deepslate' || n === 'tuff' || n === 'gravel') counts.deepBelow0++
          }
          for (let y = 10; y < 40; y++) {
            const n = name(d, x, y, z)
            if (n === 'air' || n.endsWith('_ore')) continue
            counts.rockAbove8++
            if (['stone', 'granite', 'diorite', 'andesite', 'dirt', 'gravel'].includes(n)) counts.stoneAbove8++
          }
        }
      }
    }
    expect(counts.deepBelow0 / counts.rockBelow0).toBeGreaterThan(0.99)
    expect(counts.stoneAbove8 / counts.rockAbove8).toBeGreaterThan(0.99)
  })

  it('puts grass over dirt over stone on dry land', () => {
    let grassColumns = 0
    for (const d of chunks) {
      for (let z = 0; z < 16; z++) {
        for (let x = 0; x < 16; x++) {
          const h = d.heights[z * 16 + x]!
          if (name(d, x, h, z) !== 'grass_block') continue
          grassColumns++
          expect(name(d, x, h - 1, z)).toBe('dirt')
          expect(name(d, x, h - 3, z)).toBe('dirt')
          expect(name(d, x, h - 5, z)).toMatch(/^(stone|granite|diorite|andesite|dirt|gravel|[a-z]+_ore)$/)
          expect(name(d, x, h + 1, z)).not.toBe('water')
        }
      }
    }
    expect(grassColumns).toBeGreaterThan(1000)
  })

  it('fills lakes with water up to sea level and lines shores with sand', () => {
    const scanner = new WorldScanner(world)
    const origin = new Vec3(0, SEA_LEVEL, 0)
    const water = scanner.nearest((n) => n === 'water', origin, 12)
    expect(water).not.toBeNull()
    const sand = scanner.nearest((n) => n === 'sand', water!.position, 2)
    expect(sand).not.toBeNull()
    for (const d of chunks)
      for (let i = 0; i < d.blocks.length; i++)
        if (world.palette.nameOf.get(d.blocks[i]!) === 'water') expect((i >> 8) + MIN_Y).toBeLessThanOrEqual(SEA_LEVEL)
  })

  it('has lava only deep down (pools at -55..-40 and flooded caves below)', () => {
    let lava = 0
    for (const d of chunks) {
      for (let i = 0; i < d.blocks.length; i++) {
        if (world.palette.nameOf.get(d.blocks[i]!) !== 'lava') continue
        lava++
        expect((i >> 8) + MIN_Y).toBeLessThanOrEqual(-40)
      }
    }
    expect(lava).toBeGreaterThan(0)
  })

  it('has air pockets and tunnels underground', () => {
    let air = 0
    for (const d of chunks)
      for (let z = 0; z < 16; z++)
        for (let x = 0; x < 16; x++) for (let y = -50; y < 30; y++) if (name(d, x, y, z) === 'air') air++
    expect(air).toBeGreaterThan(500)
  })
})

describe('biomes and trees', () => {
  it('has plains, forest, taiga and desert, with desert sand and cactus', () => {
    const seen = new Map<string, [number, number]>()
    for (let x = -3000; x <= 3000; x += 50)
      for (let z = -3000; z <= 3000; z += 50)
        if (!seen.has(world.terrain.biome(x, z))) seen.set(world.terrain.biome(x, z), [x, z])
    expect([...seen.keys()].sort()).toEqual(['desert', 'forest', 'plains', 'taiga'])
    const [dx, dz] = seen.get('desert')!
    const scanner = new WorldScanner(world)
    const cactus = scanner.nearest((n) => n === 'cactus', new Vec3(dx, 70, dz), 4)
    expect(cactus).not.toBeNull()
    expect(scanner.blockName(cactus!.position.x, cactus!.position.y - 1, cactus!.position.z)).toMatch(/^(sand|cactus)$/)
    const [tx, tz] = seen.get('taiga')!
    expect(scanner.nearest((n) => n === 'spruce_log', new Vec3(tx, 70, tz), 4)).not.toBeNull()
  })

  it('grows oak and birch trees within 32 blocks of the spawn point for seed 1', async () => {
    const scanner = new WorldScanner(world)
    const spawn = await scanner.spawnPoint()
    const log = scanner.nearest((n) => n.endsWith('_log'), spawn, 3)
    expect(log).not.toBeNull()
    expect(log!.distance).toBeLessThan(32)
    const leaves = scanner.nearest((n) => n.endsWith('_leaves'), log!.position, 1)
    expect(leaves!.distance).toBeLessThan(6)
    expect(scanner.nearest((n) => n === 'oak_log', spawn, 4)).not.toBeNull()
    expect(scanner.nearest((n) => n === 'birch_log', spawn, 4)).not.toBeNull()
  })

  it('spawns players on dry solid ground', async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const scanner = WorldScanner.forSeed(seed)
      const spawn = await scanner.spawnPoint()
      const below = scanner.blockName(Math.floor(spawn.x), spawn.y - 1, Math.floor(spawn.z))
      expect(['grass_block', 'sand', 'dirt', 'stone', 'sandstone', 'gravel']).toContain(below)
      expect(scanner.blockName(Math.floor(spawn.x), spawn.y, Math.floor(spawn.z))).toMatch(
        /^(air|grass|dandelion|poppy|dead_bush)$/,
      )
    }
  })
})

describe('chunk conversion', () => {
  it('builds chunks that accept block changes and survive a network dump/load round trip', () => {
    type Col = {
      setBlockStateId(p: Vec3, s: number): void
      getBlockStateId(p: Vec3): number
      dump(): Buffer
      load(b: Buffer): void
    }
    const chunk = world.toChunk(chunks[3]!) as unknown as Col
    const changes: Array<[Vec3, number]> = []
    for (let i = 0; i < 40; i++) changes.push([new Vec3(i % 16, 60 + (i % 7), (i * 5) % 16), 1000 + i * 17]) // 40 new states: palette grows
    for (const [p, st] of changes) chunk.setBlockStateId(p, st)
    const Chunk = (createRequire(import.meta.url)('prismarine-chunk') as (r: unknown) => new (o: object) => Col)(
      world.registry,
    )
    const copy = new Chunk({ minY: MIN_Y, worldHeight: 384 })
    copy.load(chunk.dump())
    for (const [p, st] of changes) expect(copy.getBlockStateId(p)).toBe(st)
    for (let i = 0; i < 98304; i += 101) {
      const p = new Vec3(i & 15, (i >> 8) + MIN_Y, (i >> 4) & 15)
      expect(copy.getBlockStateId(p)).toBe(chunk.getBlockStateId(p))
    }
  })

  it('writes the same blocks, biomes and sky light into the prismarine chunk', () => {
    const d = chunks[5]!
    const chunk = world.toChunk(d) as unknown as {
      getBlockStateId(p: Vec3): number
      getBiome(p: Vec3): number
      getSkyLight(p: Vec3): number
    }
    for (let i = 0; i < d.blocks.length; i += 37) {
      const p = new Vec3(i & 15, (i >> 8) + MIN_Y, (i >> 4) & 15)
      expect(chunk.getBlockStateId(p)).toBe(d.blocks[i])
    }
    for (let x = 0; x < 16; x += 4) {
      for (let z = 0; z < 16; z += 4) {
        expect(chunk.getBiome(new Vec3(x, 64, z))).toBe(world.palette.biome[d.biomes[(z + 2) * 16 + x + 2]!])
        let top = 319
        while (d.blocks[idx(x, top, z)] === 0) top--
        expect(chunk.getSkyLight(new Vec3(x, top + 1, z))).toBe(15)
        expect(chunk.getSkyLight(new Vec3(x, 300, z))).toBe(15)
        expect(chunk.getSkyLight(new Vec3(x, top - 2, z))).toBe(0)
      }
    }
  })
})
