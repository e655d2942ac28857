/**
 * Players coming near the bot, from the bot's own view: `watchNear` calls `near(name)` when another player's entity
 * comes within `radius` blocks — from farther away or from out of sight (joined, teleported, walked up, or the bot
 * walked up to them) — and `leave(name)` once they are `LEAVE_MARGIN` blocks past it, out of sight or off the
 * server; `playersNear` lists who is within `radius` now. An entity in sight is in the bot's world, so another
 * dimension counts as away. Used by the courier (src/agent/courier.ts) to hand over what the bot set aside for a
 * player when they are next near.
 */
import type { Bot, Player } from 'mineflayer'
import type { Entity } from 'prismarine-entity'

/** Near enough to go over and hand things to a player without being asked (blocks). */
export const NEAR_RADIUS = 16
/** A player counts as having left only this much farther out, so walking along the edge does not flicker. */
const LEAVE_MARGIN = 4

/** Online players (server spelling) whose entity is within `radius` blocks of the bot now. */
export function playersNear(bot: Bot, radius = NEAR_RADIUS): string[] {
  const me = bot.entity?.position
  if (!me) return []
  return Object.values(bot.players)
    .filter((p) => p.username !== bot.username && p.entity && p.entity.position.distanceTo(me) <= radius)
    .map((p) => p.username)
}

export interface NearListener {
  near(player: string): void
  leave(player: string): void
}

/** Watch players come within `radius` and leave again; returns the function that stops watching. */
export function watchNear(bot: Bot, radius: number, on: NearListener): () => void {
  const inside = new Set<string>()
  const check = (e: Entity): void => {
    const name = e.type === 'player' ? e.username : undefined
    if (!name || name === bot.username || !bot.entity) return
    const d = e.position.distanceTo(bot.entity.position)
    if (d <= radius && !inside.has(name)) {
      inside.add(name)
      on.near(name)
    } else if (d > radius + LEAVE_MARGIN && inside.delete(name)) on.leave(name)
  }
  const gone = (e: Entity): void => {
    if (e.type === 'player' && e.username && inside.delete(e.username)) on.leave(e.username)
  }
  const left = (p: Player): void => {
    if (inside.delete(p.username)) on.leave(p.username)
  }
  // the bot walking up to a player who stands still: look at everyone in sight when the bot moves
  const moved = (): void => {
    for (const p of Object.values(bot.players)) if (p.entity) check(p.entity)
  }
  bot.on('entityMoved', check)
  bot.on('entitySpawn', check)
  bot.on('entityGone', gone)
  bot.on('playerLeft', left)
  bot.on('move', moved)
  return () => {
    bot.off('entityMoved', check)
    bot.off('entitySpawn', check)
    bot.off('entityGone', gone)
    bot.off('playerLeft', left)
    bot.off('move', moved)
  }
}
