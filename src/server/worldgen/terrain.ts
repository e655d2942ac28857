/**
 * The practice world's shape, as pure functions of the seed: surface height (rolling hills around y≈67 with
 * lake basins below sea level 62), climate → biome (plains, forest, taiga, desert), surface kind (grass, beach or
 * desert sand, lake bottom), and the base fill of one chunk into a flat state-id buffer: bedrock at the bottom,
 * deepslate below y=0 (mixed up to y=8), stone, the biome's surface layers, water up to sea level, and caves —
 * noodle tunnels and cheese pockets from interpolated 3D noise, lava-filled below y=-55. Features (ores, trees ...)
 * are added on top by features.ts.
 */
import { hash, hash01, Perlin } from './noise.js'
import { MIN_Y, SEA_LEVEL, type BiomeName, type Palette } from './palette.js'

/** Index of block (x, y, z) (x, z local 0..15) in a chunk buffer; the layout matches chunk sections. */
export const idx = (x: number, y: number, z: number): number => ((y - MIN_Y) << 8) | (z << 4) | x
export const CHUNK_VOLUME = 16 * 16 * 384

export type SurfaceKind = 'grass' | 'sand' | 'desert' | 'underwater'

/** Columns within this many blocks of water (and low enough) are sandy beach. */
const BEACH_RADIUS = 2
/** Caves stay this many blocks below the surface, so the ground a player walks on has no holes. */
const CAVE_CRUST = 6
/** Caves at and below this y are lava, as in vanilla 1.18+ (the knowledge's `lavaLevel`; a unit test keeps them equal). */
export const LAVA_LEVEL = -55

export class Terrain {
  private readonly continent: Perlin
  private readonly detail: Perlin
  private readonly rough: Perlin
  private readonly temp: Perlin
  private readonly humid: Perlin
  private readonly caveA: Perlin
  private readonly caveB: Perlin
  private readonly cheese: Perlin
  private readonly bottom: Perlin

  constructor(
    readonly seed: number,
    private readonly pal: Palette,
  ) {
    const s = (salt: number): number => hash(seed, salt)
    this.continent = new Perlin(s(1))
    this.detail = new Perlin(s(2))
    this.rough = new Perlin(s(3))
    this.temp = new Perlin(s(4))
    this.humid = new Perlin(s(5))
    this.caveA = new Perlin(s(6))
    this.caveB = new Perlin(s(7))
    this.cheese = new Perlin(s(8))
    this.bottom = new Perlin(s(9))
  }

  /** y of the top solid block of column (x, z). */
  height(x: number, z: number): number {
    const c = this.continent.fbm2(x / 320, z / 320, 3)
    const d = this.detail.fbm2(x / 72, z / 72, 3)
    const r = this.rough.noise2(x / 18, z / 18)
    return Math.floor(67 + c * 20 + d * 8 + r * 1.5)
  }

  biome(x: number, z: number): BiomeName {
    const t = this.temp.fbm2(x / 420 + 0.5, z / 420 + 0.5, 2)
    const h = this.humid.fbm2(x / 360 + 0.5, z / 360 + 0.5, 2)
    if (t > 0.16 && h < 0.08) return 'desert'
    if (t < -0.22) return 'taiga'
    if (h > 0.02) return 'forest'
    return 'plains'
  }

  /** Surface kind from the column's height, its neighbours' heights (`heightAt`) and its biome. */
  surfaceKind(x: number, z: number, heightAt: (x: number, z: number) => number): SurfaceKind {
    const h = heightAt(x, z)
    if (h < SEA_LEVEL) return 'underwater'
    if (this.biome(x, z) === 'desert') return 'desert'
    if (h <= SEA_LEVEL + 2) {
      for (let dx = -BEACH_RADIUS; dx <= BEACH_RADIUS; dx++) {
        for (let dz = -BEACH_RADIUS; dz <= BEACH_RADIUS; dz++) if (heightAt(x + dx, z + dz) < SEA_LEVEL) return 'sand'
      }
    }
    return 'grass'
  }

  /**
   * Fill the base terrain of chunk (cx, cz) into `buf` (state ids, layout of `idx`). `heights` is the 16×16 height
   * grid (index z*16+x) and `kinds` the surface kinds.
   */
  fillChunk(cx: number, cz: number, buf: Uint16Array, heights: Int16Array, kinds: SurfaceKind[]): void {
    const S = this.pal.state
    for (let z = 0; z < 16; z++) {
      for (let x = 0; x < 16; x++) {
        const wx = cx * 16 + x
        const wz = cz * 16 + z
        const h = heights[z * 16 + x]!
        const kind = kinds[z * 16 + x]!
        buf[idx(x, MIN_Y, z)] = S.bedrock
        for (let y = MIN_Y + 1; y <= MIN_Y + 4; y++) {
          buf[idx(x, y, z)] = hash01(this.seed, wx, y, wz, 11) < (MIN_Y + 5 - y) / 5 ? S.bedrock : S.deepslate
        }
        for (let y = MIN_Y + 5; y < 8 && y <= h; y++) {
          buf[idx(x, y, z)] = y < 0 || hash01(this.seed, wx, y, wz, 12) < (8 - y) / 8 ? S.deepslate : S.stone
        }
        for (let y = 8; y <= h; y++) buf[idx(x, y, z)] = S.stone
        const depth = 3 + (hash(this.seed, wx, wz, 13) & 1)
        if (kind === 'grass') {
          buf[idx(x, h, z)] = S.grass_block
          for (let y = h - depth; y < h; y++) buf[idx(x, y, z)] = S.dirt
        } else if (kind === 'sand' || kind === 'desert') {
          const sand = kind === 'desert' ? depth + 1 : depth
          for (let y = h - sand + 1; y <= h; y++) buf[idx(x, y, z)] = S.sand
          for (let y = h - sand - 3; y <= h - sand; y++) buf[idx(x, y, z)] = S.sandstone
        } else {
          const b = this.bottom.noise2(wx / 9, wz / 9)
          const top = h >= SEA_LEVEL - 4 ? S.sand : b > 0.35 ? S.clay : S.gravel
          for (let y = h - 2; y <= h; y++) buf[idx(x, y, z)] = top
          for (let y = h + 1; y <= SEA_LEVEL; y++) buf[idx(x, y, z)] = S.water
        }
      }
    }
    this.carveCaves(cx, cz, buf, heights)
  }

  /**
   * Noodle caves (where two 3D noises are both near zero) and cheese pockets (one noise high), sampled on a 4×4×4
   * grid and interpolated. Below LAVA_LEVEL the carved space is lava.
   */
  private carveCaves(cx: number, cz: number, buf: Uint16Array, heights: Int16Array): void {
    const S = this.pal.state
    let top = MIN_Y
    for (const h of heights) top = Math.max(top, h - CAVE_CRUST)
    const y0 = MIN_Y + 4
    const ny = Math.ceil((top - y0) / 4) + 2
    if (top < y0) return
    const N = 5 * 5 * ny
    const a = new Float32Array(N)
    const b = new Float32Array(N)
    const c = new Float32Array(N)
    for (let gz = 0; gz < 5; gz++) {
      for (let gx = 0; gx < 5; gx++) {
        const wx = cx * 16 + gx * 4
        const wz = cz * 16 + gz * 4
        for (let gy = 0; gy < ny; gy++) {
          const wy = y0 + gy * 4
          const i = (gz * 5 + gx) * ny + gy
          a[i] = this.caveA.noise3(wx / 40, wy / 28, wz / 40)
          b[i] = this.caveB.noise3(wx / 40, wy / 28, wz / 40)
          c[i] = this.cheese.noise3(wx / 56, wy / 36, wz / 56)
        }
      }
    }
    // Per column: interpolate the four surrounding grid columns horizontally, then linearly along y.
    const colA = new Float32Array(ny),
      colB = new Float32Array(ny),
      colC = new Float32Array(ny)
    const column = (arr: Float32Array, out: Float32Array, x: number, z: number): void => {
      const gx = x >> 2,
        gz = z >> 2,
        tx = (x & 3) / 4,
        tz = (z & 3) / 4
      const i00 = (gz * 5 + gx) * ny,
        i10 = (gz * 5 + gx + 1) * ny,
        i01 = ((gz + 1) * 5 + gx) * ny,
        i11 = ((gz + 1) * 5 + gx + 1) * ny
      for (let gy = 0; gy < ny; gy++) {
        const a0 = arr[i00 + gy]! + (arr[i10 + gy]! - arr[i00 + gy]!) * tx
        const a1 = arr[i01 + gy]! + (arr[i11 + gy]! - arr[i01 + gy]!) * tx
        out[gy] = a0 + (a1 - a0) * tz
      }
    }
    for (let z = 0; z < 16; z++) {
      for (let x = 0; x < 16; x++) {
        const limit = heights[z * 16 + x]! - CAVE_CRUST
        if (limit < y0) continue
        column(a, colA, x, z)
        column(b, colB, x, z)
        column(c, colC, x, z)
        for (let y = y0; y <= limit; y++) {
          const gy = (y - y0) >> 2
          const t = ((y - y0) & 3) / 4
          const av = colA[gy]! + (colA[gy + 1]! - colA[gy]!) * t
          const bv = colB[gy]! + (colB[gy + 1]! - colB[gy]!) * t
          const noodle = av * av + bv * bv < 0.0045
          const pocket = y < 40 && colC[gy]! + (colC[gy + 1]! - colC[gy]!) * t > 0.42
          if (noodle || pocket) buf[idx(x, y, z)] = y <= LAVA_LEVEL ? S.lava : S.air
        }
      }
    }
  }
}
