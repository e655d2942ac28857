/**
 * Block-grid vectors shared by the server plugins, the actions and perception: the six face neighbours of a block,
 * in the protocol's face order (0 down, 1 up, 2 north -z, 3 south +z, 4 west -x, 5 east +x), so a face index from a
 * packet indexes this list directly.
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
