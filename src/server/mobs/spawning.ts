/**
 * Where natural spawning may put a creature: a random spot 24..64 blocks (horizontally) from a player, on the
 * highest solid block near the player's height with two air blocks above it — vanilla's spawn distances, without
 * its light engine (flying-squid has none worth trusting). Shared by the animal and hostile-mob plugins.
 */
import { Vec3 } from 'vec3'
import { chunkOffset } from '../../util/vec.js'
import type { SquidPlayer, SquidServer } from '../squid.js'
import { creatures, type Creature } from './creature.js'

export interface SpawnSpot {
  pos: Vec3
  ground: string
}

async function blockName(serv: SquidServer, world: unknown, p: Vec3): Promise<{ name: string; solid: boolean }> {
  const type = await (world as { getBlockType(p: Vec3): Promise<number> }).getBlockType(p)
  const b = serv.registry.blocks[type] as { name: string; boundingBox: string } | undefined
  return { name: b?.name ?? 'air', solid: b?.boundingBox === 'block' }
}

const PASSABLE = new Set([
  'air',
  'cave_air',
  'short_grass',
  'grass',
  'tall_grass',
  'fern',
  'dandelion',
  'poppy',
  'snow',
])

/** The top of the column at x/z within ±`span` blocks of `nearY`: the block stood on and the feet position. */
export async function findSurface(
  serv: SquidServer,
  world: unknown,
  x: number,
  z: number,
  nearY: number,
  span = 24,
): Promise<SpawnSpot | undefined> {
  let free = 0 // passable blocks directly above the one examined
  for (let y = Math.floor(nearY) + span; y > Math.floor(nearY) - span; y--) {
    const b = await blockName(serv, world, new Vec3(x, y, z))
    if (b.solid) {
      if (free >= 2) return { pos: new Vec3(x + 0.5, y + 1, z + 0.5), ground: b.name }
      free = 0
    } else free = PASSABLE.has(b.name) ? free + 1 : -1000 // fluids: nothing spawns below them
  }
  return undefined
}

/** A loaded chunk column, read synchronously (prismarine-chunk: x/z within the chunk, y absolute). */
export interface SpawnColumn {
  getBlockType(p: Vec3): number
  minY?: number
  worldHeight?: number
}

/**
 * The top of column x/z in loaded chunk data: the highest solid block under open sky with two passable blocks
 * above it, leaves looked through (vanilla's heightmap without leaves), or undefined under a fluid.
 */
export function surfaceInColumn(serv: SquidServer, column: SpawnColumn, x: number, z: number): SpawnSpot | undefined {
  const minY = column.minY ?? -64
  const top = minY + (column.worldHeight ?? 384) - 1
  const lx = chunkOffset(x)
  const lz = chunkOffset(z)
  const local = (y: number): Vec3 => new Vec3(lx, y, lz)
  let free = 0
  for (let y = top; y >= minY; y--) {
    const b = serv.registry.blocks[column.getBlockType(local(y))] as { name: string; boundingBox: string } | undefined
    const name = b?.name ?? 'air'
    if (name.endsWith('_leaves')) {
      free = 0
      continue
    }
    if (b?.boundingBox === 'block')
      return free >= 2 ? { pos: new Vec3(x + 0.5, y + 1, z + 0.5), ground: name } : undefined
    if (!PASSABLE.has(name)) return undefined // fluids and other non-solid blocks: nothing spawns below them
    free++
  }
  return undefined
}

/** A random column 24..64 blocks from the player. */
export function randomColumnAround(player: SquidPlayer, minDist = 24, maxDist = 64): { x: number; z: number } {
  const angle = Math.random() * Math.PI * 2
  const d = minDist + Math.random() * (maxDist - minDist)
  return {
    x: Math.floor(player.position.x + Math.cos(angle) * d),
    z: Math.floor(player.position.z + Math.sin(angle) * d),
  }
}

/** Creatures matching `filter` within `radius` blocks of `pos`. */
export function creaturesNear(
  serv: SquidServer,
  pos: Vec3,
  radius: number,
  filter: (e: Creature) => boolean,
): Creature[] {
  return creatures(serv).filter((e) => !e.creature.dead && filter(e) && e.position.distanceTo(pos) <= radius)
}
