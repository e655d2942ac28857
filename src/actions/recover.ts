/**
 * Going back for the drops after a death: `trackDeaths` remembers, per bot, where it last died (position, dimension,
 * time — read on mineflayer's `death` event, before the respawn moves the body), and `recoverDrops` walks back there
 * with the shared pathfinder helpers and collects the item entities around the spot, under a small time budget. It
 * only goes when the spot is worth it: same dimension, within RECOVER_MAX_DISTANCE, before vanilla's 5-minute item
 * despawn, and not a lava or void spot (the drops burn or fall out of the world). The executor calls it after a death
 * (src/agent/executor.ts) and then re-plans from what is held, as before.
 */
import type { Bot } from 'mineflayer'
import type { Vec3 } from 'vec3'
import type { ActionResult } from '../schemas/action.js'
import { onceEvent } from '../util/async.js'
import { runHandler } from './run.js'
import { fail } from './types.js'
import { goals, goto } from './world.js'
import { collectDrops } from './drops.js'

/** How far back the bot walks for its drops; farther spots are left and the goal re-planned at once. */
export const RECOVER_MAX_DISTANCE = 64
/** Vanilla item entities despawn after 5 minutes (6000 ticks). */
const ITEM_DESPAWN_MS = 5 * 60_000
/** Time for the whole walk back and the pick-up. */
const RECOVER_TIME_MS = 60_000
/** Time for picking up the scattered drops once there. */
const COLLECT_TIME_MS = 20_000
/** How long to wait for the respawn when the bot is still dead. */
const RESPAWN_WAIT_MS = 15_000
/** Radius around the death spot where the scattered drops are looked for. */
const DROP_RADIUS = 6

interface DeathSpot {
  pos: Vec3
  dimension: string
  at: number
}

const deaths = new WeakMap<Bot, DeathSpot | null>()
const dimensionOf = (bot: Bot): string => String(bot.game?.dimension ?? 'overworld').replace('minecraft:', '')

/** Start remembering this bot's death spots (idempotent). */
export function trackDeaths(bot: Bot): void {
  if (deaths.has(bot)) return
  deaths.set(bot, null)
  bot.on('death', () => {
    if (!bot.entity) return
    deaths.set(bot, { pos: bot.entity.position.clone(), dimension: dimensionOf(bot), at: Date.now() })
  })
}

/** Why the last death spot is not worth going back to, or null when it is. */
function notWorthIt(bot: Bot, spot: DeathSpot): string | null {
  if (spot.dimension !== dimensionOf(bot)) return `I died in the ${spot.dimension}`
  if (Date.now() - spot.at > ITEM_DESPAWN_MS) return 'my things have despawned by now'
  const far = spot.pos.distanceTo(bot.entity.position)
  if (far > RECOVER_MAX_DISTANCE) return `I died ${Math.round(far)} blocks away`
  const minY = (bot.game as { minY?: number }).minY ?? -64
  if (spot.pos.y < minY) return 'I fell out of the world'
  const here = bot.blockAt(spot.pos.floored())
  if (here && (here.name === 'lava' || here.name === 'fire')) return 'my things fell into lava'
  return null
}

/**
 * Walk back to the last death spot and pick up what lies there; ok with the items regained, a failure (reason
 * `not_found`) saying why it did not go or found nothing. Each death spot is tried once.
 */
export async function recoverDrops(bot: Bot, signal: AbortSignal): Promise<ActionResult> {
  const spot = deaths.get(bot) ?? null
  deaths.set(bot, null)
  const opts = {
    name: 'recover',
    doing: 'going back for my things',
    budget: { steps: 200, timeMs: RECOVER_TIME_MS },
    tracked: false,
    budgetReason: 'not_found' as const,
  }
  // the death ends the action at once; the respawn (and the position packet before it) may still be on its way
  const alive = (): boolean => (bot as Bot & { isAlive?: boolean }).isAlive !== false && bot.health > 0
  if (!alive()) await onceEvent(bot, 'spawn', { timeoutMs: RESPAWN_WAIT_MS, signal }).catch(() => {})
  return runHandler(bot, { signal }, opts, async (run) => {
    if (!alive()) fail('died', 'I have not respawned yet.')
    if (!spot) fail('not_found', 'I do not know where I died.')
    const why = notWorthIt(bot, spot)
    if (why) fail('not_found', `I am not going back for my things: ${why}.`)
    const before = bot.inventory.items().reduce((n, i) => n + i.count, 0)
    const { x, y, z } = spot.pos
    await goto(run, new goals.GoalNear(x, y, z, 2), 'where I died')
    await collectDrops(run, spot.pos, DROP_RADIUS, COLLECT_TIME_MS)
    const got = bot.inventory.items().reduce((n, i) => n + i.count, 0) - before
    if (got <= 0) fail('not_found', 'I went back to where I died but found none of my things.')
    return `I went back to where I died and picked up ${got} items.`
  })
}
