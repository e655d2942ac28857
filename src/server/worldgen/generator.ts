/**
 * The practice-world generator: `PracticeWorld` turns (seed, chunkX, chunkZ) into block data (terrain.ts, then
 * features.ts) and into a prismarine-chunk Chunk with blocks, biomes (4×4×4 cells, so a mineflayer bot reads
 * `bot.blockAt(pos).biome.name`) and sky light (15 above each column's highest block). `createGenerator(options)`
 * is the function flying-squid calls (`generation: { name: <generator.cjs>, options }`, options carry `seed` and
 * `registry`); tests and benchmarks use `PracticeWorld.generate` directly to scan blocks without a server.
 */
import { createRequire } from 'node:module'
import { Vec3 } from 'vec3'
import { Features, type ChunkContext } from './features.js'
import { buildPalette, MIN_Y, WORLD_HEIGHT, type BiomeName, type Palette, type WorldgenRegistry } from './palette.js'
import { CHUNK_VOLUME, idx, Terrain, type SurfaceKind } from './terrain.js'

const require = createRequire(import.meta.url)

/** One generated chunk: state ids in `idx` layout, top solid y per column (z*16+x), biome per column. */
export interface ChunkData {
  cx: number
  cz: number
  blocks: Uint16Array
  heights: Int16Array
  biomes: BiomeName[]
}

export interface GeneratorOptions {
  seed?: number
  version?: string
  /** prismarine-registry for the version (flying-squid passes its own); built from `version` when absent. */
  registry?: unknown
  [key: string]: unknown
}

/** The prismarine-chunk pieces we touch (the library is untyped JavaScript). */
interface ChunkColumn {
  sections: unknown[]
  maxBitsPerBlock: number
  skyLightSections: Array<{ data: Uint32Array } | null>
  setBlockStateId(pos: Vec3, id: number): void
  setBiome(pos: Vec3, id: number): void
  setSkyLight(pos: Vec3, light: number): void
}
type ChunkCtor = (new (opts?: {
  minY: number
  worldHeight: number
}) => ChunkColumn) & { section: new (o: Record<string, unknown>) => unknown }
/** prismarine-chunk internals (deep requires) used to build a section's palette container in one pass. */
interface ChunkLib {
  BitArray: new (o: { bitsPerValue: number; capacity: number }) => { set(i: number, v: number): void }
  Indirect: new (o: Record<string, unknown>) => unknown
  Section: new (o: Record<string, unknown>) => unknown
}

const memoKey = (x: number, z: number): number => ((x & 0xffff) | ((z & 0xffff) << 16)) >>> 0

export class PracticeWorld {
  readonly palette: Palette
  readonly terrain: Terrain
  private readonly features: Features
  private readonly Chunk: ChunkCtor
  private readonly chunkLib: ChunkLib
  /** Scratch map state id → palette index + 1 (0 = not in the palette yet), reset after each section. */
  private readonly paletteSlot = new Uint16Array(65536)

  constructor(
    readonly seed: number,
    readonly registry: unknown,
  ) {
    this.palette = buildPalette(registry as WorldgenRegistry)
    this.terrain = new Terrain(seed, this.palette)
    this.features = new Features(seed, this.palette, this.terrain)
    this.Chunk = (require('prismarine-chunk') as (r: unknown) => ChunkCtor)(registry)
    this.chunkLib = {
      BitArray: require('prismarine-chunk/src/pc/common/BitArrayNoSpan') as ChunkLib['BitArray'],
      Indirect: (
        require('prismarine-chunk/src/pc/common/PaletteContainer') as { IndirectPaletteContainer: ChunkLib['Indirect'] }
      ).IndirectPaletteContainer,
      Section: this.Chunk.section,
    }
  }

  static forVersion(seed: number, version = '1.20.2'): PracticeWorld {
    return new PracticeWorld(seed, (require('prismarine-registry') as (v: string) => unknown)(version))
  }

  /** Memoised per-chunk lookups over world columns (trees and beaches look past the chunk edge). */
  private lookups(): Pick<ChunkContext, 'heightAt' | 'kindAt' | 'biomeAt'> {
    const heights = new Map<number, number>()
    const kinds = new Map<number, SurfaceKind>()
    const biomes = new Map<number, BiomeName>()
    const heightAt = (x: number, z: number): number => {
      const k = memoKey(x, z)
      let h = heights.get(k)
      if (h === undefined) {
        h = this.terrain.height(x, z)
        heights.set(k, h)
      }
      return h
    }
    const biomeAt = (x: number, z: number): BiomeName => {
      const k = memoKey(x, z)
      let b = biomes.get(k)
      if (b === undefined) {
        b = this.terrain.biome(x, z)
        biomes.set(k, b)
      }
      return b
    }
    const kindAt = (x: number, z: number): SurfaceKind => {
      const k = memoKey(x, z)
      let s = kinds.get(k)
      if (s === undefined) {
        s = this.terrain.surfaceKind(x, z, heightAt)
        kinds.set(k, s)
      }
      return s
    }
    return { heightAt, kindAt, biomeAt }
  }

  /** Block data of chunk (cx, cz). Pure: the same seed and coordinates always give the same data. */
  generate(cx: number, cz: number): ChunkData {
    const blocks = new Uint16Array(CHUNK_VOLUME)
    const heights = new Int16Array(256)
    const kinds: SurfaceKind[] = new Array<SurfaceKind>(256)
    const biomes: BiomeName[] = new Array<BiomeName>(256)
    const look = this.lookups()
    let top = MIN_Y
    for (let z = 0; z < 16; z++) {
      for (let x = 0; x < 16; x++) {
        const wx = cx * 16 + x,
          wz = cz * 16 + z
        const h = look.heightAt(wx, wz)
        heights[z * 16 + x] = h
        kinds[z * 16 + x] = look.kindAt(wx, wz)
        biomes[z * 16 + x] = look.biomeAt(wx, wz)
        if (h > top) top = h
      }
    }
    this.terrain.fillChunk(cx, cz, blocks, heights, kinds)
    this.features.apply({ cx, cz, buf: blocks, top, ...look })
    return { cx, cz, blocks, heights, biomes }
  }

  /** A prismarine-chunk Chunk for `data`: non-air blocks, biomes per 4×4 column cell, sky light. */
  toChunk(data: ChunkData): ChunkColumn {
    const chunk = new this.Chunk({ minY: MIN_Y, worldHeight: WORLD_HEIGHT })
    const pos = new Vec3(0, 0, 0)
    const b = data.blocks
    const highest = new Int16Array(256).fill(MIN_Y - 1)
    for (let i = 0; i < b.length; i++) if (b[i] !== 0) highest[i & 255] = (i >> 8) + MIN_Y
    // Build each non-empty section's palette and bit array directly (one pass), instead of 30k setBlockStateId calls.
    const slot = this.paletteSlot
    for (let sIdx = 0; sIdx < WORLD_HEIGHT >> 4; sIdx++) {
      const base = sIdx << 12
      const palette: number[] = []
      let solid = 0
      for (let i = 0; i < 4096; i++) {
        const st = b[base + i]!
        if (st !== 0) solid++
        if (slot[st] === 0) {
          palette.push(st)
          slot[st] = palette.length
        }
      }
      if (solid === 0) {
        for (const st of palette) slot[st] = 0
        continue
      }
      const bits = Math.max(4, Math.ceil(Math.log2(palette.length)))
      const arr = new this.chunkLib.BitArray({ bitsPerValue: bits, capacity: 4096 })
      for (let i = 0; i < 4096; i++) {
        const v = slot[b[base + i]!]! - 1
        if (v !== 0) arr.set(i, v)
      }
      for (const st of palette) slot[st] = 0
      const container = new this.chunkLib.Indirect({ data: arr, palette, maxBitsPerBlock: chunk.maxBitsPerBlock })
      chunk.sections[sIdx] = new this.chunkLib.Section({
        data: container,
        solidBlockCount: solid,
        noSizePrefix: false,
        hasFluidCount: false,
        maxBitsPerBlock: chunk.maxBitsPerBlock,
      })
    }
    for (let z = 0; z < 16; z += 4) {
      for (let x = 0; x < 16; x += 4) {
        const id = this.palette.biome[data.biomes[(z + 2) * 16 + x + 2]!]
        for (let y = MIN_Y; y < MIN_Y + WORLD_HEIGHT; y += 4) {
          pos.x = x
          pos.y = y
          pos.z = z
          chunk.setBiome(pos, id)
        }
      }
    }
    this.light(chunk, highest)
    return chunk
  }

  /** Sky light 15 above each column's highest block, 0 below; light sections are filled word by word. */
  private light(chunk: ChunkColumn, highest: Int16Array): void {
    let maxTop = MIN_Y
    let minTop = Infinity
    for (const h of highest) {
      maxTop = Math.max(maxTop, h)
      minTop = Math.min(minTop, h)
    }
    const sections = WORLD_HEIGHT >> 4
    const pos = new Vec3(0, 0, 0)
    // light section index s covers y = MIN_Y + (s - 1) * 16 .. +15 (index 0 is the section below the world)
    for (let s = 1; s <= sections + 1; s++) {
      const yBase = MIN_Y + (s - 1) * 16
      if (yBase + 15 <= minTop) continue // every block at or below its column's top: sky light 0
      pos.x = 0
      pos.z = 0
      pos.y = yBase
      chunk.setSkyLight(pos, 15) // creates the section and sets its mask bit
      const section = chunk.skyLightSections[s]
      if (!section) continue
      const words = section.data
      if (yBase > maxTop) {
        words.fill(0xffffffff)
        continue
      }
      words.fill(0)
      for (let ly = 0; ly < 16; ly++) {
        const y = yBase + ly
        for (let c = 0; c < 256; c++) {
          if (y <= highest[c]!) continue
          const i = (ly << 8) | c
          words[i >> 3] = (words[i >> 3]! | (15 << ((i & 7) * 4))) >>> 0
        }
      }
    }
  }
}

/** flying-squid's generator entry point: `(options) => (chunkX, chunkZ) => Chunk`. */
export function createGenerator(options: GeneratorOptions): (chunkX: number, chunkZ: number) => unknown {
  const seed = Number(options.seed ?? 1)
  const registry =
    options.registry ?? (require('prismarine-registry') as (v: string) => unknown)(options.version ?? '1.20.2')
  const world = new PracticeWorld(seed, registry)
  return (chunkX: number, chunkZ: number) => world.toChunk(world.generate(chunkX, chunkZ))
}

export { idx }
export default createGenerator
