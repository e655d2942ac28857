/**
 * Block-grid vectors shared by the server plugins, the actions and perception: the six face neighbours of a block,
 * in the protocol's face order (0 down, 1 up, 2 north -z, 3 south +z, 4 west -x, 5 east +x), so a face index from a
 * packet indexes this list directly; and whether a player's box overlaps a block cell (the server refuses a block
 * there, the bot waits until its body is clear of one).
 */
import { Vec3 } from 'vec3'

export const FACES: readonly Vec3[] = Object.freeze([
  new Vec3(0, -1, 0),
  new Vec3(0, 1, 0),
  new Vec3(0, 0, -1),
  new Vec3(0, 0, 1),
  new Vec3(-1, 0, 0),
  new Vec3(1, 0, 0),
])

/** The four face neighbours beside a block (north, south, west, east). */
export const BESIDE: readonly Vec3[] = Object.freeze(FACES.filter((f) => f.y === 0))

/** Half the width and the height of a player's box. */
export const PLAYER_HALF_WIDTH = 0.3
export const PLAYER_HEIGHT = 1.8

/** Whether a player's box with its feet at `pos` overlaps the block cell at `cell` (its minimum corner). */
export function overlapsCell(pos: { x: number; y: number; z: number }, cell: Vec3): boolean {
  return overlapsColumn(pos, cell) && pos.y + PLAYER_HEIGHT > cell.y && pos.y < cell.y + 1
}

/** Whether a player's box at `pos` overlaps the cell's column (x and z only): the cell is under or over the body. */
export function overlapsColumn(pos: { x: number; z: number }, cell: Vec3): boolean {
  return (
    pos.x + PLAYER_HALF_WIDTH > cell.x &&
    pos.x - PLAYER_HALF_WIDTH < cell.x + 1 &&
    pos.z + PLAYER_HALF_WIDTH > cell.z &&
    pos.z - PLAYER_HALF_WIDTH < cell.z + 1
  )
}
