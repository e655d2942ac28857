/**
 * The router's BodyPort over mineflayer: status, inventory, and the two player skills behind the `come` and `follow`
 * commands (src/actions/come.ts, follow.ts), which run through the action machinery — budgets, the stop signal,
 * reflexes, `no_path` with the distance left. A skill's ActionResult becomes the command's Outcome; a stop rejects
 * with AbortedError so the router answers "Stopped". Always reads the supervisor's *current* bot (it changes on
 * reconnect).
 */
import type { Bot } from 'mineflayer'
import type { BodyPort, BodyStatus } from '../router/services.js'
import type { ActionResult } from '../schemas/action.js'
import type { Outcome } from '../schemas/task.js'
import { biomeAt } from '../perception/vision.js'
import { AbortedError } from '../util/errors.js'
import { come } from './come.js'
import { follow } from './follow.js'

const NOT_CONNECTED: Outcome = { ok: false, text: 'I am not connected to the server right now.' }

function outcomeOf(r: ActionResult, what: string, signal: AbortSignal): Outcome {
  if (r.reason === 'interrupted' && signal.aborted) throw new AbortedError(what)
  return { ok: r.ok, text: r.message }
}

export function createBody(getBot: () => Bot | null): BodyPort {
  return {
    status(): BodyStatus {
      const bot = getBot()
      if (!bot?.entity) return { connected: false, health: null, food: null, position: null, dimension: null }
      const p = bot.entity.position
      return {
        connected: true,
        health: Math.round(bot.health * 10) / 10,
        food: bot.food,
        position: { x: Math.floor(p.x), y: Math.floor(p.y), z: Math.floor(p.z) },
        dimension: String(bot.game.dimension).replace('minecraft:', ''),
        biome: biomeAt(bot, p),
        timeOfDay: bot.time?.timeOfDay ?? null,
      }
    },
    inventory() {
      const bot = getBot()
      if (!bot) return []
      const totals = new Map<string, number>()
      for (const item of bot.inventory.items()) totals.set(item.name, (totals.get(item.name) ?? 0) + item.count)
      return [...totals]
        .map(([name, count]) => ({ name, count }))
        .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name))
    },
    async come(player, signal) {
      const bot = getBot()
      if (!bot?.entity) return NOT_CONNECTED
      return outcomeOf(await come(bot, player, { signal }), 'come', signal)
    },
    async follow(player, signal) {
      const bot = getBot()
      if (!bot?.entity) return NOT_CONNECTED
      return outcomeOf(await follow(bot, player, { signal }), 'follow', signal)
    },
  }
}
