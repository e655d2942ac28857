/**
 * Deterministic randomness for the practice-world generator: integer hashing of (seed, coordinates, salt), a small
 * seeded PRNG (mulberry32) for per-chunk decisions, and seeded Perlin gradient noise in 2D and 3D with fractal
 * sums. Everything is a pure function of the seed, so the same seed always gives the same world, whatever order
 * chunks are generated in. No dependencies.
 */

/** 32-bit integer hash of a list of integers (murmur3-style mixing). */
export function hash(...values: number[]): number {
  let h = 0x9e3779b9
  for (const v of values) {
    let k = Math.imul(v | 0, 0xcc9e2d51)
    k = (k << 15) | (k >>> 17)
    k = Math.imul(k, 0x1b873593)
    h ^= k
    h = (h << 13) | (h >>> 19)
    h = (Math.imul(h, 5) + 0xe6546b64) | 0
  }
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/** A hash mapped to [0, 1). */
export function hash01(...values: number[]): number {
  return hash(...values) / 4294967296
}

/** Seeded PRNG returning floats in [0, 1) (mulberry32). */
import { mulberry32, type Rng } from '../../util/random.js'

export { mulberry32, type Rng }

/** Integer in [min, max] inclusive. */
export function randInt(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1))
}

const GRAD3: ReadonlyArray<readonly [number, number, number]> = [
  [1, 1, 0],
  [-1, 1, 0],
  [1, -1, 0],
  [-1, -1, 0],
  [1, 0, 1],
  [-1, 0, 1],
  [1, 0, -1],
  [-1, 0, -1],
  [0, 1, 1],
  [0, -1, 1],
  [0, 1, -1],
  [0, -1, -1],
  [1, 1, 0],
  [0, -1, 1],
  [-1, 1, 0],
  [0, -1, -1],
]

const fade = (t: number): number => t * t * t * (t * (t * 6 - 15) + 10)
const lerp = (a: number, b: number, t: number): number => a + (b - a) * t

/** Classic improved Perlin noise with a permutation table shuffled from the seed. Output roughly in [-1, 1]. */
export class Perlin {
  private readonly perm = new Uint8Array(512)
  private readonly gx = new Float64Array(512)
  private readonly gy = new Float64Array(512)
  private readonly gz = new Float64Array(512)
  private readonly g2x = new Float64Array(512)
  private readonly g2y = new Float64Array(512)

  constructor(seed: number) {
    const rng = mulberry32(seed)
    const p = Array.from({ length: 256 }, (_, i) => i)
    for (let i = 255; i > 0; i--) {
      const j = Math.floor(rng() * (i + 1))
      const t = p[i]!
      p[i] = p[j]!
      p[j] = t
    }
    for (let i = 0; i < 512; i++) {
      const v = p[i & 255]!
      this.perm[i] = v
      const g = GRAD3[v & 15]!
      this.gx[i] = g[0]
      this.gy[i] = g[1]
      this.gz[i] = g[2]
      const a = (v / 256) * Math.PI * 2
      this.g2x[i] = Math.cos(a)
      this.g2y[i] = Math.sin(a)
    }
  }

  noise2(x: number, y: number): number {
    const xf = Math.floor(x)
    const yf = Math.floor(y)
    const X = xf & 255
    const Y = yf & 255
    x -= xf
    y -= yf
    const p = this.perm
    const aa = p[p[X]! + Y]!
    const ab = p[p[X]! + Y + 1]!
    const ba = p[p[X + 1]! + Y]!
    const bb = p[p[X + 1]! + Y + 1]!
    const n00 = this.g2x[aa]! * x + this.g2y[aa]! * y
    const n10 = this.g2x[ba]! * (x - 1) + this.g2y[ba]! * y
    const n01 = this.g2x[ab]! * x + this.g2y[ab]! * (y - 1)
    const n11 = this.g2x[bb]! * (x - 1) + this.g2y[bb]! * (y - 1)
    const u = fade(x)
    return lerp(lerp(n00, n10, u), lerp(n01, n11, u), fade(y)) * 1.41
  }

  noise3(x: number, y: number, z: number): number {
    const xf = Math.floor(x)
    const yf = Math.floor(y)
    const zf = Math.floor(z)
    const X = xf & 255
    const Y = yf & 255
    const Z = zf & 255
    x -= xf
    y -= yf
    z -= zf
    const p = this.perm
    const A = p[X]! + Y
    const AA = p[A]! + Z
    const AB = p[A + 1]! + Z
    const B = p[X + 1]! + Y
    const BA = p[B]! + Z
    const BB = p[B + 1]! + Z
    const u = fade(x)
    const v = fade(y)
    const w = fade(z)
    return lerp(
      lerp(
        lerp(this.g3(p[AA]!, x, y, z), this.g3(p[BA]!, x - 1, y, z), u),
        lerp(this.g3(p[AB]!, x, y - 1, z), this.g3(p[BB]!, x - 1, y - 1, z), u),
        v,
      ),
      lerp(
        lerp(this.g3(p[AA + 1]!, x, y, z - 1), this.g3(p[BA + 1]!, x - 1, y, z - 1), u),
        lerp(this.g3(p[AB + 1]!, x, y - 1, z - 1), this.g3(p[BB + 1]!, x - 1, y - 1, z - 1), u),
        v,
      ),
      w,
    )
  }

  private g3(i: number, dx: number, dy: number, dz: number): number {
    return this.gx[i]! * dx + this.gy[i]! * dy + this.gz[i]! * dz
  }

  /** Fractal sum of `octaves` 2D octaves, each twice the frequency and half the amplitude; roughly in [-1, 1]. */
  fbm2(x: number, y: number, octaves: number): number {
    let sum = 0
    let amp = 1
    let norm = 0
    for (let o = 0; o < octaves; o++) {
      sum += this.noise2(x, y) * amp
      norm += amp
      amp *= 0.5
      x *= 2.03
      y *= 2.03
    }
    return sum / norm
  }
}
