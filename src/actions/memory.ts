/**
 * Per-bot memory the actions share: where `dig_down` left the surface, so `go_up` can return there, and the blocks
 * `mine` could not get to (ore seen high up a shaft wall or across a cave), so `explore` and `mine` look past them,
 * and the last thing `explore` saw, so `mine` goes for it even when a step later it is out of sight. Kept weakly per
 * bot object; a reconnect (new bot) forgets it, which `go_up` reports as `not_found`.
 */
import type { Bot } from 'mineflayer'
import type { Vec3 } from 'vec3'

const surface = new WeakMap<Bot, Vec3>()

export function rememberSurface(bot: Bot, pos: Vec3): void {
  surface.set(bot, pos.clone())
}
export function surfaceOf(bot: Bot): Vec3 | null {
  return surface.get(bot) ?? null
}
export function forgetSurface(bot: Bot): void {
  surface.delete(bot)
}

const unreachable = new WeakMap<Bot, Set<string>>()

/** Remember that the block at `pos` could not be reached; searches then look past it. */
export function markUnreachable(bot: Bot, pos: Vec3): void {
  let s = unreachable.get(bot)
  if (!s) {
    s = new Set()
    unreachable.set(bot, s)
  }
  s.add(pos.floored().toString())
}
export function isUnreachable(bot: Bot, pos: Vec3): boolean {
  return unreachable.get(bot)?.has(pos.floored().toString()) ?? false
}

const sightings = new WeakMap<Bot, { pos: Vec3; at: number }>()

/** Remember where `explore` just saw what it looked for. */
export function rememberSighting(bot: Bot, pos: Vec3): void {
  sightings.set(bot, { pos: pos.floored(), at: Date.now() })
}

/** Where `explore` last saw what it looked for, if that was at most `maxAgeMs` ago. */
export function recentSighting(bot: Bot, maxAgeMs: number): Vec3 | null {
  const s = sightings.get(bot)
  return s && Date.now() - s.at <= maxAgeMs ? s.pos : null
}
