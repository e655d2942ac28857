/**
 * Block-grid vectors shared by the server plugins, the actions and perception: the six face neighbours of a block,
 * in the protocol's face order (0 down, 1 up, 2 north -z, 3 south +z, 4 west -x, 5 east +x), so a face index from a
 * packet indexes this list directly; a cell's map key; whether a player's box overlaps a block cell (the server refuses a block
 * there, the bot waits until its body is clear of one); vanilla's item pickup box (the server hands items over
 * by it, the bot walks until a drop lies in it); the square rings a nearest-first scan walks out through; and the
 * grid of square cells a surface search walks (gridCell, gridCentre); and a block coordinate's offset within its
 * 16-block chunk (chunkOffset).
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

/** A block cell as a map key ("x,y,z"). */
export function cellKey(p: { x: number; y: number; z: number }): string {
  return `${p.x},${p.y},${p.z}`
}

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

/**
 * Vanilla pickup box: the player's 0.6×1.8 box grown by 1 horizontally and 0.5 vertically, against the item's box
 * (0.25 high). The server hands an item over by it; the bot walks until an item lies in it.
 */
export function inPickupRange(player: Vec3, item: Vec3): boolean {
  const reach = PLAYER_HALF_WIDTH + 1 + 0.125
  return (
    Math.abs(item.x - player.x) <= reach &&
    Math.abs(item.z - player.z) <= reach &&
    item.y + 0.25 >= player.y - 0.5 &&
    item.y <= player.y + PLAYER_HEIGHT + 0.5
  )
}

/**
 * The horizontal offsets on the square ring at Chebyshev distance `r` (r = 0: the centre alone), row by row: a scan
 * that walks `for r of 0..max` through them meets every cell of a ring before any cell further out.
 */
export function* ringCells(r: number): Generator<readonly [dx: number, dz: number]> {
  // 0 - r, not -r: ring 0's centre is (0, 0), not (-0, -0)
  for (let dx = 0 - r; dx <= r; dx++)
    for (let dz = 0 - r; dz <= r; dz++) if (Math.max(Math.abs(dx), Math.abs(dz)) === r) yield [dx, dz]
}

/** The square grid of `size`-block columns a surface search walks: the cell (x, z) a point lies in. */
export function gridCell(p: { x: number; z: number }, size: number): [cx: number, cz: number] {
  return [Math.floor(p.x / size), Math.floor(p.z / size)]
}

/** The centre (x, z) of grid cell cx/cz of `size` blocks (gridCell). */
export function gridCentre(cx: number, cz: number, size: number): [x: number, z: number] {
  return [cx * size + size / 2, cz * size + size / 2]
}

/** A world block coordinate's offset within its 16-block chunk section (0..15, also for negative coordinates). */
export function chunkOffset(v: number): number {
  return ((v % 16) + 16) % 16
}
