/**
 * Spawn point: flying-squid drops every player at a random x/z in 0..30, walking down from y=81 (inside our
 * terrain, or in a lake), at a block corner. We replace `serv.getSpawnPoint` with a deterministic search: a spiral
 * out from (8, 8) for the first column whose top block is solid ground (not water, lava, leaves, logs or cactus)
 * with two air blocks above, and return the centre of that block's top face. Works for any generator (superflat
 * included); the result is cached per world, so every player and respawn uses the same point, as in vanilla.
 */
import { Vec3 } from 'vec3'
import type { SquidPlugin, SquidServer, SquidWorld } from '../squid.js'
import { chunkOffset, ringCells } from '../../util/vec.js'

interface ChunkColumn {
  getBlockStateId(pos: Vec3): number
  minY?: number
  worldHeight?: number
}
interface BlockInfo {
  name: string
  boundingBox: string
}

/** Radius (blocks) of the spiral search before falling back to the origin column. */
const SEARCH_RADIUS = 96
const NOT_GROUND = /(_leaves|_log|_wood|cactus|water|lava|ice|magma_block)$/

interface Registryish {
  blocksByStateId: Record<number, BlockInfo | undefined>
}

const isAir = (b: BlockInfo | undefined): boolean => b !== undefined && /air$/.test(b.name)
const isFluid = (b: BlockInfo | undefined): boolean => b !== undefined && /^(water|lava|bubble_column)$/.test(b.name)

/** Feet position on the top block of column (x, z), or null when that column is not safe ground. */
export function standOn(reg: Registryish, col: ChunkColumn, x: number, z: number): Vec3 | null {
  const minY = col.minY ?? 0
  const top = minY + (col.worldHeight ?? 256) - 1
  const lx = chunkOffset(x)
  const lz = chunkOffset(z)
  const at = (y: number): BlockInfo | undefined => reg.blocksByStateId[col.getBlockStateId(new Vec3(lx, y, lz))]
  // plants and other blocks without a collision box are walked through: treat them as air
  const passable = (b: BlockInfo | undefined): boolean =>
    b === undefined || isAir(b) || (b.boundingBox === 'empty' && !isFluid(b))
  for (let y = top; y > minY; y--) {
    const b = at(y)
    if (passable(b)) continue
    if (isFluid(b) || b!.boundingBox !== 'block' || NOT_GROUND.test(b!.name)) return null
    return passable(at(y + 1)) && passable(at(y + 2)) ? new Vec3(x + 0.5, y + 1, z + 0.5) : null
  }
  return null
}

/** Spiral (square rings) around (cx, cz) over columns from `getColumn(chunkX, chunkZ)` for the first safe one. */
export async function findSpawnIn(
  reg: Registryish,
  getColumn: (chunkX: number, chunkZ: number) => ChunkColumn | Promise<ChunkColumn>,
  cx = 8,
  cz = 8,
): Promise<Vec3> {
  const cache = new Map<string, ChunkColumn>()
  const column = async (x: number, z: number): Promise<ChunkColumn> => {
    const key = `${Math.floor(x / 16)},${Math.floor(z / 16)}`
    let c = cache.get(key)
    if (!c) {
      c = await getColumn(Math.floor(x / 16), Math.floor(z / 16))
      cache.set(key, c)
    }
    return c
  }
  for (let r = 0; r <= SEARCH_RADIUS; r++) {
    for (const [dx, dz] of ringCells(r)) {
      const x = cx + dx
      const z = cz + dz
      const p = standOn(reg, await column(x, z), x, z)
      if (p) return p
    }
  }
  return new Vec3(cx + 0.5, 100, cz + 0.5)
}

/** The spawn point of a flying-squid world. */
export function findSpawn(serv: SquidServer, world: SquidWorld): Promise<Vec3> {
  const getColumn = world.getColumn as (x: number, z: number) => Promise<ChunkColumn>
  return findSpawnIn(serv.registry as unknown as Registryish, (x, z) => getColumn.call(world, x, z))
}

const plugin: SquidPlugin = {
  name: 'spawn-point',
  server(serv) {
    const cache = new WeakMap<object, Promise<Vec3>>()
    serv.getSpawnPoint = async (world: SquidWorld): Promise<Vec3> => {
      let p = cache.get(world)
      if (!p) {
        p = findSpawn(serv, world)
        cache.set(world, p)
      }
      return (await p).clone()
    }
  },
}
export default plugin
