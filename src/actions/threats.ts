/**
 * Where hostile mobs make a place dangerous to go: the one definition the searches use to walk away from zombies
 * rather than into them. A place is threatened when a hostile mob (`isHostileMob`: the registry's category) that the
 * bot tracks within THREAT_SIGHT, at about its level, stands nearer to it than the bot does: the walk there would
 * meet the mob. A player at night does the same — keeps moving, away from what follows — and outpaces a zombie (4.3
 * blocks/s against about 2.2). bench:mp5 c10 2-4 seed 1 started at night unarmed: every search and every log it went
 * for lay back toward the zombie it had just run from, and it ran 25 times in 110 s until it died.
 */
import type { Bot } from 'mineflayer'
import type { Entity } from 'prismarine-entity'
import type { Vec3 } from 'vec3'

/** Hostile mobs farther than this from the bot are not counted: they are not coming yet. */
export const THREAT_SIGHT = 32
/** A block to mine with a hostile mob this near it is left for another while the bot has no weapon. */
const THREAT_RADIUS = 8

/** Whether the entity kind `name` is of the game data's "Hostile mobs" category (zombie, skeleton …). */
export function isHostileKind(entitiesByName: Record<string, unknown>, name: string | undefined): boolean {
  return name !== undefined && (entitiesByName[name] as { category?: string } | undefined)?.category === 'Hostile mobs'
}

/** A mob of the registry's "Hostile mobs" category: one that comes at a player on sight. */
export function isHostileMob(bot: Bot, e: Entity): boolean {
  return isHostileKind(bot.registry.entitiesByName, e.name)
}

/** Living hostile mobs within `radius` of `p`. */
export function hostilesNear(bot: Bot, p: Vec3, radius: number): Entity[] {
  return Object.values(bot.entities).filter(
    (e) =>
      e !== bot.entity &&
      e.isValid !== false &&
      (e.health === undefined || e.health > 0) &&
      isHostileMob(bot, e) &&
      e.position.distanceTo(p) <= radius,
  )
}

/** Hostile mobs within THREAT_RADIUS of a block: an unarmed bot digs one with none beside it first (mine, explore). */
export function hostilesBeside(bot: Bot, p: Vec3): number {
  return hostilesNear(bot, p, THREAT_RADIUS).length
}

/** Horizontal distance between two points (x/z). */
const flat = (a: { x: number; z: number }, b: { x: number; z: number }): number => Math.hypot(a.x - b.x, a.z - b.z)

/**
 * How threatened the place x/z is: the number of hostile mobs within THREAT_SIGHT of the bot that stand nearer to it
 * than the bot does (0: nothing is in the way). Judged on the flat, as a walk goes.
 */
export function threatAt(bot: Bot, x: number, z: number): number {
  const mine = flat(bot.entity.position, { x, z })
  return onTheWay(bot).filter((e) => flat(e.position, { x, z }) < mine).length
}

/** The distance from x/z to the nearest hostile mob within THREAT_SIGHT of the bot (Infinity with none). */
export function roomAt(bot: Bot, x: number, z: number): number {
  return Math.min(Number.POSITIVE_INFINITY, ...onTheWay(bot).map((e) => flat(e.position, { x, z })))
}

/** Hostile mobs within THREAT_SIGHT at about the bot's level (not one in a cave below a walk on the surface). */
function onTheWay(bot: Bot): Entity[] {
  const me = bot.entity.position
  return hostilesNear(bot, me, THREAT_SIGHT).filter((e) => Math.abs(e.position.y - me.y) <= THREAT_RADIUS)
}
