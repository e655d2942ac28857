/**
 * Features the practice-world generator adds to a chunk after the base terrain: rock blobs (granite, diorite,
 * andesite, tuff, dirt, gravel), ores with vanilla 1.20.2 placement rules (counts per chunk, uniform or triangular
 * height ranges, vein sizes, discard-when-exposed chances; the deepslate variant wherever the vein crosses
 * deepslate), deep lava pools (y -55..-40), surface plants, cactus and sugar cane, and trees (oak, birch, spruce)
 * on a jittered grid so a tree's leaves cross chunk borders consistently. Every choice comes from a hash of the
 * seed and world coordinates, so the result does not depend on chunk order. Veins cross chunk borders as in vanilla
 * (each chunk replays its neighbours' veins); lava pools stay inside the chunk.
 */
import { ORE_HOSTS } from '../../knowledge/location.js'
import { hash, hash01, mulberry32, randInt, type Rng } from './noise.js'
import { MIN_Y, SEA_LEVEL, type BiomeName, type Ore, type Palette } from './palette.js'
import { idx, type SurfaceKind, type Terrain } from './terrain.js'

interface VeinRule {
  ore: Ore | 'granite' | 'diorite' | 'andesite' | 'tuff' | 'dirt' | 'gravel'
  count: number
  size: number
  dist: 'uniform' | 'triangle'
  min: number
  max: number
  discard?: number
  rarity?: number
  countMax?: number
}

/**
 * Vanilla 1.20.2 ore and blob placement (PlacedFeatures / OreFeatures), without mountain-only emerald; 1.20.2 is the
 * oldest version the practice server serves (src/versions.ts). Each rule draws from its own random stream (its index),
 * so a rule added at the end leaves every other vein where it was.
 */
export const VEIN_RULES: VeinRule[] = [
  { ore: 'dirt', count: 7, size: 33, dist: 'uniform', min: 0, max: 160 },
  { ore: 'gravel', count: 14, size: 33, dist: 'uniform', min: -64, max: 320 },
  { ore: 'granite', count: 2, size: 64, dist: 'uniform', min: 0, max: 60 },
  { ore: 'diorite', count: 2, size: 64, dist: 'uniform', min: 0, max: 60 },
  { ore: 'andesite', count: 2, size: 64, dist: 'uniform', min: 0, max: 60 },
  { ore: 'tuff', count: 2, size: 64, dist: 'uniform', min: -64, max: 0 },
  { ore: 'coal', count: 30, size: 17, dist: 'uniform', min: 136, max: 320 },
  { ore: 'coal', count: 20, size: 17, dist: 'triangle', min: 0, max: 192, discard: 0.5 },
  { ore: 'iron', count: 90, size: 9, dist: 'triangle', min: 80, max: 384 },
  { ore: 'iron', count: 10, size: 9, dist: 'triangle', min: -24, max: 56 },
  { ore: 'iron', count: 10, size: 4, dist: 'uniform', min: -64, max: 72 },
  { ore: 'copper', count: 16, size: 10, dist: 'triangle', min: -16, max: 112 },
  { ore: 'gold', count: 4, size: 9, dist: 'triangle', min: -64, max: 32, discard: 0.5 },
  { ore: 'gold', count: 0, countMax: 1, size: 9, dist: 'uniform', min: -64, max: -48, discard: 0.5 },
  { ore: 'redstone', count: 4, size: 8, dist: 'uniform', min: -64, max: 15 },
  { ore: 'redstone', count: 8, size: 8, dist: 'triangle', min: -96, max: -32 },
  { ore: 'lapis', count: 2, size: 7, dist: 'triangle', min: -32, max: 32 },
  { ore: 'lapis', count: 4, size: 7, dist: 'uniform', min: -64, max: 64, discard: 1 },
  { ore: 'diamond', count: 7, size: 4, dist: 'triangle', min: -144, max: 16, discard: 0.5 },
  { ore: 'diamond', count: 1, rarity: 9, size: 12, dist: 'triangle', min: -144, max: 16, discard: 0.7 },
  { ore: 'diamond', count: 4, size: 8, dist: 'triangle', min: -144, max: 16, discard: 1 },
  // ore_diamond_medium, new in 1.20.2 ("more diamond ore in the deep regions of the world")
  { ore: 'diamond', count: 2, size: 8, dist: 'uniform', min: -64, max: -4, discard: 0.5 },
]

const TREE_CELL = 6
const TREE_CHANCE: Record<BiomeName, number> = { forest: 0.6, taiga: 0.5, plains: 0.035, desert: 0 }

export interface ChunkContext {
  cx: number
  cz: number
  buf: Uint16Array
  /** Memoised height of any world column (trees look outside the chunk). */
  heightAt(x: number, z: number): number
  kindAt(x: number, z: number): SurfaceKind
  biomeAt(x: number, z: number): BiomeName
  /** Highest y of the terrain in this chunk (veins above it are skipped). */
  top: number
}

export class Features {
  /** Per state id: 1 = stone-like rock a vein may replace, 2 = deepslate or tuff (deepslate ore variant). */
  private readonly rock = new Uint8Array(65536)
  private readonly replaceableByLeaves: Set<number>

  constructor(
    private readonly seed: number,
    private readonly pal: Palette,
    readonly _terrain: Terrain,
  ) {
    const S = pal.state
    for (const name of ORE_HOSTS.stone) this.rock[S[name]] = 1
    for (const name of ORE_HOSTS.deepslate) this.rock[S[name]] = 2
    this.replaceableByLeaves = new Set([S.air, S.grass, S.dandelion, S.poppy])
  }

  apply(ctx: ChunkContext): void {
    // As in vanilla, a vein started in a neighbouring chunk reaches into this one: every chunk replays the veins of
    // its 3×3 neighbourhood (rule by rule, chunks in world order) and writes only its own blocks.
    VEIN_RULES.forEach((rule, r) => {
      for (let ox = ctx.cx - 1; ox <= ctx.cx + 1; ox++)
        for (let oz = ctx.cz - 1; oz <= ctx.cz + 1; oz++) this.veins(ctx, rule, r, ox, oz)
    })
    this.lavaPool(ctx, mulberry32(hash(this.seed, ctx.cx, ctx.cz, 101)))
    this.plants(ctx)
    this.trees(ctx)
  }

  /** The veins of `rule` (index `r`) started in chunk (ox, oz), each from its own random stream. */
  private veins(ctx: ChunkContext, rule: VeinRule, r: number, ox: number, oz: number): void {
    const rng = mulberry32(hash(this.seed, ox, oz, 102, r))
    let count = rule.countMax !== undefined ? randInt(rng, rule.count, rule.countMax) : rule.count
    if (rule.rarity && rng() * rule.rarity >= 1) count = 0
    for (let i = 0; i < count; i++) {
      const x = (ox - ctx.cx) * 16 + randInt(rng, 0, 15)
      const z = (oz - ctx.cz) * 16 + randInt(rng, 0, 15)
      const y =
        rule.dist === 'uniform'
          ? randInt(rng, rule.min, rule.max)
          : rule.min + randInt(rng, 0, (rule.max - rule.min) >> 1) + randInt(rng, 0, (rule.max - rule.min + 1) >> 1)
      const seed = hash(this.seed, ox, oz, 103, r, i)
      // a vein reaches at most size/8 + its largest radius (≤ size/16 + 0.5) + 2 blocks from its start
      const reach = rule.size / 8 + rule.size / 16 + 3
      if (y < MIN_Y || y > ctx.top + reach || x < -reach || x > 15 + reach || z < -reach || z > 15 + reach) continue
      this.vein(ctx, rule, x, y, z, mulberry32(seed))
    }
  }

  /**
   * Vanilla OreFeature shape: spheres along a short random segment, radius ((sin(πt) + 1)·rand·size/16 + 1) / 2,
   * written where they cross this chunk (`x`, `z` local, possibly outside 0..15). The discard-when-exposed roll is a
   * hash of the block position, so neighbouring chunks replaying the same vein agree.
   */
  private vein(ctx: ChunkContext, rule: VeinRule, x: number, y: number, z: number, rng: Rng): void {
    const S = this.pal.state
    const size = rule.size
    const angle = rng() * Math.PI
    const spread = size / 8
    const x0 = x + 0.5 + Math.sin(angle) * spread,
      x1 = x + 0.5 - Math.sin(angle) * spread
    const z0 = z + 0.5 + Math.cos(angle) * spread,
      z1 = z + 0.5 - Math.cos(angle) * spread
    const y0 = y + randInt(rng, 0, 2) - 2 + 0.5,
      y1 = y + randInt(rng, 0, 2) - 2 + 0.5
    const isOre = rule.ore in this.pal.ore
    const [inStone, inDeep] = isOre ? this.pal.ore[rule.ore as Ore] : [S[rule.ore as 'dirt'], S[rule.ore as 'dirt']]
    // Rock blobs other than tuff and gravel stay out of deepslate, as in vanilla.
    const maxRock = isOre || rule.ore === 'tuff' || rule.ore === 'gravel' ? 2 : 1
    const buf = ctx.buf
    const rock = this.rock
    for (let i = 0; i < size; i++) {
      const t = i / size
      const px = x0 + (x1 - x0) * t,
        py = y0 + (y1 - y0) * t,
        pz = z0 + (z1 - z0) * t
      const r = ((Math.sin(Math.PI * t) + 1) * ((rng() * size) / 16) + 1) / 2
      const r2 = r * r
      const xa = Math.max(0, Math.floor(px - r)),
        xb = Math.min(15, Math.floor(px + r))
      const za = Math.max(0, Math.floor(pz - r)),
        zb = Math.min(15, Math.floor(pz + r))
      const ya = Math.max(MIN_Y + 1, Math.floor(py - r)),
        yb = Math.floor(py + r)
      for (let by = ya; by <= yb; by++) {
        const dy = by + 0.5 - py
        for (let bz = za; bz <= zb; bz++) {
          const dz = bz + 0.5 - pz
          for (let bx = xa; bx <= xb; bx++) {
            const dx = bx + 0.5 - px
            if (dx * dx + dy * dy + dz * dz >= r2) continue
            const i2 = ((by - MIN_Y) << 8) | (bz << 4) | bx
            const kind = rock[buf[i2]!]!
            if (kind === 0 || kind > maxRock) continue
            if (rule.discard && this.exposed(buf, bx, by, bz) && this.roll(ctx, bx, by, bz) < rule.discard) continue
            buf[i2] = kind === 2 ? inDeep : inStone
          }
        }
      }
    }
  }

  private roll(ctx: ChunkContext, x: number, y: number, z: number): number {
    return hash01(this.seed, ctx.cx * 16 + x, y, ctx.cz * 16 + z, 104)
  }

  private exposed(buf: Uint16Array, x: number, y: number, z: number): boolean {
    const air = this.pal.state.air
    return (
      (x > 0 && buf[idx(x - 1, y, z)] === air) ||
      (x < 15 && buf[idx(x + 1, y, z)] === air) ||
      (z > 0 && buf[idx(x, y, z - 1)] === air) ||
      (z < 15 && buf[idx(x, y, z + 1)] === air) ||
      buf[idx(x, y - 1, z)] === air ||
      (y < 319 && buf[idx(x, y + 1, z)] === air)
    )
  }

  /** One chunk in four gets a lava pool deep down: an ellipsoid, lava in its lower half, air above. */
  private lavaPool(ctx: ChunkContext, rng: Rng): void {
    if (rng() >= 0.25) return
    const S = this.pal.state
    const cx = randInt(rng, 4, 11),
      cz = randInt(rng, 4, 11),
      cy = randInt(rng, -55, -40)
    const rx = 2 + rng() * 2.5,
      rz = 2 + rng() * 2.5,
      ry = 2.2
    for (let x = Math.max(0, Math.floor(cx - rx)); x <= Math.min(15, Math.ceil(cx + rx)); x++) {
      for (let z = Math.max(0, Math.floor(cz - rz)); z <= Math.min(15, Math.ceil(cz + rz)); z++) {
        for (let y = Math.floor(cy - ry); y <= Math.ceil(cy + ry); y++) {
          const d = ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 + ((z - cz) / rz) ** 2
          if (d >= 1) continue
          const i = idx(x, y, z)
          if (ctx.buf[i] === S.bedrock) continue
          ctx.buf[i] = y <= cy ? S.lava : S.air
        }
      }
    }
  }

  /** Grass and flowers on grass, cactus and dead bushes in the desert, sugar cane at the water's edge. */
  private plants(ctx: ChunkContext): void {
    const S = this.pal.state
    for (let z = 0; z < 16; z++) {
      for (let x = 0; x < 16; x++) {
        const wx = ctx.cx * 16 + x,
          wz = ctx.cz * 16 + z
        const h = ctx.heightAt(wx, wz)
        const kind = ctx.kindAt(wx, wz)
        const r = hash01(this.seed, wx, wz, 201)
        const above = idx(x, h + 1, z)
        if (ctx.buf[above] !== S.air) continue
        if (kind === 'grass') {
          const biome = ctx.biomeAt(wx, wz)
          const grassChance = biome === 'plains' ? 0.12 : 0.04
          if (r < grassChance) ctx.buf[above] = S.grass
          else if (biome === 'plains' && r < grassChance + 0.008) ctx.buf[above] = S.dandelion
          else if (biome === 'plains' && r < grassChance + 0.014) ctx.buf[above] = S.poppy
        } else if (kind === 'desert') {
          if (r < 0.006) {
            const tall = 1 + (hash(this.seed, wx, wz, 202) % 3)
            for (let y = h + 1; y <= h + tall; y++) ctx.buf[idx(x, y, z)] = S.cactus
          } else if (r < 0.016) ctx.buf[above] = S.dead_bush
        } else if (kind === 'sand' && h === SEA_LEVEL && r < 0.12) {
          const wet = [
            [1, 0],
            [-1, 0],
            [0, 1],
            [0, -1],
          ].some(([dx, dz]) => ctx.heightAt(wx + dx!, wz + dz!) < SEA_LEVEL)
          if (wet)
            for (let y = h + 1; y <= h + 1 + (hash(this.seed, wx, wz, 203) % 3); y++)
              ctx.buf[idx(x, y, z)] = S.sugar_cane
        }
      }
    }
  }

  /** Trees whose origin lies within 3 blocks of the chunk; only the parts inside the chunk are written. */
  private trees(ctx: ChunkContext): void {
    const minX = ctx.cx * 16 - 3,
      maxX = ctx.cx * 16 + 18
    const minZ = ctx.cz * 16 - 3,
      maxZ = ctx.cz * 16 + 18
    for (let gx = Math.floor(minX / TREE_CELL); gx <= Math.floor(maxX / TREE_CELL); gx++) {
      for (let gz = Math.floor(minZ / TREE_CELL); gz <= Math.floor(maxZ / TREE_CELL); gz++) {
        const t = this.treeAt(ctx, gx, gz)
        if (t && t.x >= minX && t.x <= maxX && t.z >= minZ && t.z <= maxZ) this.placeTree(ctx, t)
      }
    }
  }

  /** The tree of grid cell (gx, gz), if any: origin, kind, trunk height and a seed for its leaf corners. */
  treeAt(ctx: Pick<ChunkContext, 'heightAt' | 'kindAt' | 'biomeAt'>, gx: number, gz: number): TreeSpec | null {
    const h0 = hash(this.seed, gx, gz, 301)
    const x = gx * TREE_CELL + (h0 & 3)
    const z = gz * TREE_CELL + ((h0 >>> 2) & 3)
    const biome = ctx.biomeAt(x, z)
    if (hash01(this.seed, gx, gz, 302) >= TREE_CHANCE[biome]) return null
    if (ctx.kindAt(x, z) !== 'grass') return null
    const ground = ctx.heightAt(x, z)
    if (ground <= SEA_LEVEL) return null
    const pick = hash01(this.seed, gx, gz, 303)
    const kind: TreeKind =
      biome === 'taiga' ? 'spruce' : biome === 'forest' ? (pick < 0.6 ? 'oak' : 'birch') : pick < 0.85 ? 'oak' : 'birch'
    const r = (h0 >>> 4) % 4
    const trunk = kind === 'spruce' ? 6 + r : kind === 'birch' ? 5 + (r % 3) : 4 + (r % 3)
    return { x, z, ground, kind, trunk, seed: h0 }
  }

  private placeTree(ctx: ChunkContext, t: TreeSpec): void {
    const S = this.pal.state
    const log = S[`${t.kind}_log`]
    const leaves = S[`${t.kind}_leaves`]
    const x0 = ctx.cx * 16,
      z0 = ctx.cz * 16
    const inChunk = (wx: number, wz: number): boolean => wx >= x0 && wx < x0 + 16 && wz >= z0 && wz < z0 + 16
    const leaf = (wx: number, y: number, wz: number): void => {
      if (!inChunk(wx, wz)) return
      const i = idx(wx - x0, y, wz - z0)
      if (this.replaceableByLeaves.has(ctx.buf[i]!)) ctx.buf[i] = leaves
    }
    const top = t.ground + t.trunk // y of the highest log
    const corner = mulberry32(t.seed)
    if (t.kind === 'spruce') {
      for (let y = top + 1; y >= t.ground + 3; y--) {
        const d = top + 1 - y
        const radius = d === 0 ? 0 : d % 2 === 1 ? 1 : Math.min(3, 1 + Math.floor(d / 3))
        for (let dx = -radius; dx <= radius; dx++) {
          for (let dz = -radius; dz <= radius; dz++) {
            if (Math.abs(dx) + Math.abs(dz) > radius + (radius >= 2 ? 1 : 0)) continue
            leaf(t.x + dx, y, t.z + dz)
          }
        }
      }
    } else {
      for (let y = top - 2; y <= top + 1; y++) {
        const layer = y - (top - 2)
        const radius = layer <= 1 ? 2 : 1
        for (let dx = -radius; dx <= radius; dx++) {
          for (let dz = -radius; dz <= radius; dz++) {
            const isCorner = Math.abs(dx) === radius && Math.abs(dz) === radius
            if (isCorner && (y === top + 1 || corner() < 0.5)) continue
            leaf(t.x + dx, y, t.z + dz)
          }
        }
      }
    }
    if (!inChunk(t.x, t.z)) return
    const lx = t.x - x0,
      lz = t.z - z0
    ctx.buf[idx(lx, t.ground, lz)] = S.dirt
    for (let y = t.ground + 1; y <= top; y++) ctx.buf[idx(lx, y, lz)] = log
  }
}

export type TreeKind = 'oak' | 'birch' | 'spruce'
export interface TreeSpec {
  x: number
  z: number
  ground: number
  kind: TreeKind
  trunk: number
  seed: number
}
