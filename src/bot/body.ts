/**
 * The BodyPort over mineflayer: status, inventory, and the two movement capabilities the foundation commands need
 * (`come` to a player, `follow` a player until stopped), built on mineflayer-pathfinder. Every movement honours its
 * AbortSignal and leaves the bot standing still. Always reads the supervisor's *current* bot (it changes on reconnect).
 */
import pathfinderPkg from 'mineflayer-pathfinder'
import type { BodyPort, BodyStatus } from '../router/services.js'
import { AbortedError, GhostError } from '../util/errors.js'
import { sleep } from '../util/async.js'
import type { Bot } from './create.js'

const { goals } = pathfinderPkg

export function standStill(bot: Bot): void {
  try { bot.pathfinder.stop() } catch { /* not moving */ }
  bot.pathfinder.setGoal(null)
  bot.clearControlStates()
}

function need(getBot: () => Bot | null): Bot {
  const bot = getBot()
  if (!bot) throw new GhostError('world', 'bot is not connected', 'I am not connected to the server right now.')
  return bot
}

function playerEntity(bot: Bot, name: string) {
  const p = Object.values(bot.players).find((x) => x.username.toLowerCase() === name.toLowerCase())
  if (!p?.entity) throw new GhostError('not_found', `cannot see ${name}`, `I can't see ${name} — are you nearby and in the same world?`)
  return p.entity
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
      }
    },
    inventory() {
      const bot = getBot()
      if (!bot) return []
      const totals = new Map<string, number>()
      for (const item of bot.inventory.items()) totals.set(item.name, (totals.get(item.name) ?? 0) + item.count)
      return [...totals].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count || a.name.localeCompare(b.name))
    },
    async come(name, signal) {
      const bot = need(getBot)
      const target = playerEntity(bot, name)
      const onAbort = (): void => standStill(bot)
      signal.addEventListener('abort', onAbort, { once: true })
      try {
        const { x, y, z } = target.position
        await bot.pathfinder.goto(new goals.GoalNear(x, y, z, 2))
        if (signal.aborted) throw new AbortedError('come')
        const d = bot.entity.position.distanceTo(target.position)
        return `I'm here (${d.toFixed(1)} blocks from you).`
      } catch (err) {
        if (signal.aborted) throw new AbortedError('come')
        throw new GhostError('world', `come failed: ${(err as Error).message}`, `I couldn't reach you: ${(err as Error).message}`)
      } finally {
        signal.removeEventListener('abort', onAbort)
        standStill(bot)
      }
    },
    async follow(name, signal) {
      const bot = need(getBot)
      const target = playerEntity(bot, name)
      bot.pathfinder.setGoal(new goals.GoalFollow(target, 2), true)
      try {
        while (!signal.aborted) {
          await sleep(500, signal).catch(() => {})
          if (!bot.entities[target.id]) throw new GhostError('not_found', `lost ${name}`, `I lost sight of ${name}.`)
        }
        throw new AbortedError('follow')
      } finally {
        standStill(bot)
      }
    },
  }
}
