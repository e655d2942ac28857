/**
 * Per-bot memory the actions share: where `dig_down` left the surface, so `go_up` can return there. Kept weakly per
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
