/**
 * What the bot can *see* — no x-ray: a block counts only when a ray from the bot's eyes reaches it (its centre or the
 * centre of one of its faces) through nothing solid and no lava (opaque in vanilla), an entity only within view
 * distance with a clear line from the eyes to its body. Used by explore (succeeds when seen), approach and mine (only
 * visible instances are targets) and the progress sampler (lava in view, distance to the nearest target).
 */
import type { Bot } from 'mineflayer'
import type { Block } from 'prismarine-block'
import type { Entity } from 'prismarine-entity'
import { Vec3 } from 'vec3'
import { findBlocksFast } from './find.js'
import { BESIDE, FACES as NEIGHBOURS } from '../util/vec.js'

export const VIEW_DISTANCE = 32
const FACES = [
  new Vec3(0.5, 0.5, 0.5),
  new Vec3(0.5, 1.01, 0.5),
  new Vec3(0.5, -0.01, 0.5),
  new Vec3(1.01, 0.5, 0.5),
  new Vec3(-0.01, 0.5, 0.5),
  new Vec3(0.5, 0.5, 1.01),
  new Vec3(0.5, 0.5, -0.01),
]

/** Eye height of a standing player (prismarine-entity does not type it). */
export const EYE_HEIGHT = 1.62

/** How far a player reaches from the eyes to a block's centre to dig it or click it (vanilla survival: 4.5). */
export const REACH = 4.5

export function eyes(bot: Bot): Vec3 {
  return bot.entity.position.offset(0, EYE_HEIGHT, 0)
}

/** How far the block cell at `p` is from the eyes (to its centre): what REACH bounds. */
export function reachTo(bot: Bot, p: Vec3): number {
  return eyes(bot).distanceTo(p.offset(0.5, 0.5, 0.5))
}

/** What stops a ray: a solid shape it crosses, or lava (opaque in vanilla: nothing is seen through a lava lake). */
type RayIter = { intersect(shapes: unknown, at: Vec3): unknown }
const stopsRay = (b: Block & { shapes?: unknown }, iter: RayIter): boolean =>
  b.name === 'lava' || iter.intersect(b.shapes, b.position) !== null

/** True when a ray from the eyes to the point hits nothing solid nor lava before it (the target block excluded). */
function clearLine(bot: Bot, from: Vec3, to: Vec3, target: Vec3 | null): boolean {
  const dir = to.minus(from)
  const range = dir.norm()
  if (range < 0.01) return true
  const raycast = bot.world.raycast as unknown as (
    from: Vec3,
    dir: Vec3,
    range: number,
    matcher: (b: Block, iter: RayIter) => boolean,
  ) => (Block & { position: Vec3 }) | null
  const hit = raycast.call(bot.world, from, dir.normalize(), range, stopsRay)
  if (!hit) return true
  return target !== null && hit.position.equals(target)
}

export function canSee(bot: Bot, block: Block): boolean {
  const from = eyes(bot)
  for (const f of FACES) if (clearLine(bot, from, block.position.plus(f), block.position)) return true
  return false
}

/** Candidates looked at per visible block wanted, and at least this many (most ore lies buried in the rock). */
const CANDIDATES_PER_HIT = 8
const CANDIDATES_MIN = 512
/** Exposed candidates ray-cast at least (trees hide each other's logs; walls hide the ore of other tunnels). */
const RAYS_MIN = 32

/** A block with an open face (a neighbour that is not a full opaque block); a buried block cannot be seen. */
function exposed(bot: Bot, p: Vec3): boolean {
  return NEIGHBOURS.some((d) => {
    const n = bot.blockAt(p.plus(d))
    return n !== null && (n.boundingBox !== 'block' || n.transparent)
  })
}

/**
 * Visible blocks of the given types within `maxDistance` of `around` (the bot by default), nearest `around` first.
 * Only exposed blocks are ray-cast, so ore buried in the rock near the bot does not use up the rays before the ore on a
 * tunnel wall or a cave wall further away.
 */
export function visibleBlocks(
  bot: Bot,
  ids: Set<number>,
  maxDistance = VIEW_DISTANCE,
  count = 64,
  around: Vec3 = bot.entity.position,
): Block[] {
  const positions = findBlocksFast(bot, ids, maxDistance, Math.max(count * CANDIDATES_PER_HIT, CANDIDATES_MIN), around)
  return seenOf(bot, positions, count)
}

/**
 * Visible blocks of the given types farther than `minDistance` from the bot and within `maxDistance`, nearest first:
 * a look past the ones a nearer look has ray-cast already (the surface search's far look across open land).
 */
export function visibleBlocksBeyond(
  bot: Bot,
  ids: Set<number>,
  minDistance: number,
  maxDistance: number,
  count: number,
): Block[] {
  const me = bot.entity.position
  const all = findBlocksFast(bot, ids, maxDistance, Number.POSITIVE_INFINITY)
  return seenOf(
    bot,
    all.filter((p) => p.distanceTo(me) > minDistance),
    count,
  )
}

/** The candidates (nearest first) that are exposed and in sight, up to `count`; the rays cast are bounded. */
function seenOf(bot: Bot, positions: Vec3[], count: number): Block[] {
  const out: Block[] = []
  let cast = 0
  for (const p of positions) {
    if (!exposed(bot, p)) continue
    const b = bot.blockAt(p)
    if (b && canSee(bot, b)) out.push(b)
    if (out.length >= count || ++cast >= Math.max(count * CANDIDATES_PER_HIT, RAYS_MIN)) break
  }
  return out
}

export function nearestVisibleBlock(bot: Bot, ids: Set<number>, maxDistance = VIEW_DISTANCE): Block | null {
  return visibleBlocks(bot, ids, maxDistance, 1)[0] ?? null
}

export function canSeeEntity(bot: Bot, e: Entity, maxDistance = VIEW_DISTANCE): boolean {
  const from = eyes(bot)
  if (e.position.distanceTo(bot.entity.position) > maxDistance) return false
  const h = e.height ?? 1
  return [h * 0.9, h * 0.5, 0.1].some((dy) => clearLine(bot, from, e.position.offset(0, dy, 0), null))
}

/** Visible living entities whose type name is in `names`, nearest first. */
export function visibleEntities(bot: Bot, names: string[], maxDistance = VIEW_DISTANCE): Entity[] {
  const set = new Set(names)
  return Object.values(bot.entities)
    .filter(
      (e) => e !== bot.entity && e.isValid !== false && set.has(e.name ?? '') && canSeeEntity(bot, e, maxDistance),
    )
    .sort((a, b) => a.position.distanceTo(bot.entity.position) - b.position.distanceTo(bot.entity.position))
}

/** Biome name at a position, or 'unknown'. mineflayer 4.39 leaves `block.biome.name` empty; the id is right. */
export function biomeAt(bot: Bot, pos: Vec3): string {
  const b = bot.blockAt(pos.floored()) as { biome?: { name?: string; id?: number } } | null
  return b?.biome?.name || (b?.biome?.id !== undefined ? bot.registry.biomes[b.biome.id]?.name : undefined) || 'unknown'
}

/** Leaves and logs: a forest's trees neither roof the bot in nor wall it in. */
const treePart = (name: string): boolean => name.endsWith('leaves') || name.endsWith('_log')

/** Is the sky visible straight above the bot's head (nothing but glass and tree parts — logs, leaves — above)? */
export function skyAbove(bot: Bot): boolean {
  const game = bot.game as typeof bot.game & { minY?: number; height?: number }
  const top = (game.minY ?? -64) + (game.height ?? 384)
  const p = bot.entity.position.floored()
  for (let y = p.y + 2; y < top; y++) {
    const b = bot.blockAt(new Vec3(p.x, y, p.z))
    if (b && b.boundingBox === 'block' && b.name !== 'glass' && !treePart(b.name)) return false
  }
  return true
}

export function lavaInView(bot: Bot, distance: number): boolean {
  const lava = bot.registry.blocksByName.lava?.id
  if (lava === undefined) return false
  return nearestVisibleBlock(bot, new Set([lava]), distance) !== null
}

/** Below the surface: no sky straight above, or walled in at head height (a hole or a tunnel; trees are no walls). */
export function isUnderground(bot: Bot): boolean {
  if (!skyAbove(bot)) return true
  const head = bot.entity.position.floored().offset(0, 1, 0)
  let walls = 0
  for (const side of BESIDE) {
    const b = bot.blockAt(head.plus(side))
    if (b?.boundingBox === 'block' && !treePart(b.name)) walls++
  }
  return walls >= 3
}

/** Walled in at feet and head height on all four sides and roofed right above the head: no mob can reach the bot. */
export function sealedIn(bot: Bot): boolean {
  const feet = bot.entity.position.floored()
  const solid = (p: Vec3): boolean => bot.blockAt(p)?.boundingBox === 'block'
  if (!solid(feet.offset(0, 2, 0))) return false
  return NEIGHBOURS.filter((f) => f.y === 0).every((f) => solid(feet.plus(f)) && solid(feet.plus(f).offset(0, 1, 0)))
}
