/**
 * Looking things up in the practice world without a server, straight from the generator: the spawn point a
 * server would choose for a seed (same search as the spawn-point plugin), and the nearest block of a kind (a log,
 * iron ore, diamond ore ...) to a position, scanning generated chunks in rings. Used by tests ("is there a tree
 * near spawn for seed 1?") and by `npm run bench:world`.
 */
import { Vec3 } from 'vec3'
import { findSpawnIn } from '../plugins/spawn-point.js'
import { chunkOffset, ringCells } from '../../util/vec.js'
import { PracticeWorld, type ChunkData } from './generator.js'
import { MIN_Y } from './palette.js'

export interface FoundBlock {
  name: string
  position: Vec3
  distance: number
}

/** A PracticeWorld with a cache of generated chunks (scans revisit the same chunks). */
export class WorldScanner {
  private readonly cache = new Map<string, ChunkData>()
  constructor(readonly world: PracticeWorld) {}

  static forSeed(seed: number, version = '1.20.2'): WorldScanner {
    return new WorldScanner(PracticeWorld.forVersion(seed, version))
  }

  chunk(cx: number, cz: number): ChunkData {
    const key = `${cx},${cz}`
    let d = this.cache.get(key)
    if (!d) {
      d = this.world.generate(cx, cz)
      this.cache.set(key, d)
    }
    return d
  }

  /** Name of the block at a world position (only the states the generator writes are named). */
  blockName(x: number, y: number, z: number): string {
    const d = this.chunk(Math.floor(x / 16), Math.floor(z / 16))
    const lx = chunkOffset(x),
      lz = chunkOffset(z)
    const s = d.blocks[((y - MIN_Y) << 8) | (lz << 4) | lx]!
    return this.world.palette.nameOf.get(s) ?? `state:${s}`
  }

  /** Where a flying-squid server running this generator spawns players (the spawn-point plugin's search). */
  spawnPoint(): Promise<Vec3> {
    return findSpawnIn(this.world.registry as never, (cx, cz) => this.world.toChunk(this.chunk(cx, cz)) as never)
  }

  /**
   * The nearest block (3D distance from `origin` to the block centre) whose name passes `match`, within
   * `maxRadiusChunks` chunk rings; null if none.
   */
  nearest(match: (name: string) => boolean, origin: Vec3, maxRadiusChunks = 8): FoundBlock | null {
    const wanted = new Set<number>()
    for (const [state, name] of this.world.palette.nameOf) if (match(name)) wanted.add(state)
    const ocx = Math.floor(origin.x / 16),
      ocz = Math.floor(origin.z / 16)
    let best: FoundBlock | null = null
    for (let r = 0; r <= maxRadiusChunks; r++) {
      // the closest any block of ring r can be (horizontally) — stop once that exceeds the best found
      if (best && (r - 1) * 16 > best.distance) break
      for (const [dx, dz] of ringCells(r)) {
        const d = this.chunk(ocx + dx, ocz + dz)
        const b = d.blocks
        for (let i = 0; i < b.length; i++) {
          if (!wanted.has(b[i]!)) continue
          const x = d.cx * 16 + (i & 15),
            z = d.cz * 16 + ((i >> 4) & 15),
            y = (i >> 8) + MIN_Y
          const dist = Math.hypot(x + 0.5 - origin.x, y + 0.5 - origin.y, z + 0.5 - origin.z)
          if (!best || dist < best.distance)
            best = { name: this.world.palette.nameOf.get(b[i]!)!, position: new Vec3(x, y, z), distance: dist }
        }
      }
    }
    return best
  }
}
