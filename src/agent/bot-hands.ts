/**
 * The real `Hands`: runs structured actions on the supervisor's current mineflayer bot through the action registry
 * (src/actions), reports its state, what it can see (for the failure analyser) and the last progress-signal trace.
 * A missing bot (reconnecting) is an action failure, not an exception.
 */
import type { Bot } from '../bot/create.js'
import { botState, execute, lastTrace } from '../actions/index.js'
import type { Action, ActionResult, BotState } from '../schemas/action.js'
import type { Box } from '../schemas/region.js'
import { perceive } from '../perception/percipient.js'
import { recoverDrops, trackDeaths } from '../actions/recover.js'
import type { ExecuteOptions, Hands } from './ports.js'

const EMPTY: BotState = { inventory: {}, biome: 'unknown', y: 0, underground: false, health: 0, food: 0 }

/** `protectedBoxes`: GHOST_PROTECTED, enforced by the handlers that dig and place (reason `unsafe`). */
export function createBotHands(getBot: () => Bot | null, server: string, protectedBoxes: readonly Box[] = []): Hands {
  return {
    async execute(action: Action, signal: AbortSignal, opts?: ExecuteOptions): Promise<ActionResult> {
      const bot = getBot()
      if (!bot?.entity)
        return {
          ok: false,
          reason: 'error',
          message: 'I am not connected to the server right now.',
          inventoryDelta: {},
          durationMs: 0,
        }
      trackDeaths(bot) // so a death during this action leaves its spot for recoverDrops
      return execute(bot, action, {
        signal,
        protected: protectedBoxes,
        ...(opts?.keep ? { keep: opts.keep } : {}),
        ...(opts?.reserve ? { reserve: opts.reserve } : {}),
      })
    },
    async recoverDrops(signal: AbortSignal): Promise<ActionResult> {
      const bot = getBot()
      if (!bot?.entity)
        return { ok: false, reason: 'error', message: 'I am not connected.', inventoryDelta: {}, durationMs: 0 }
      return recoverDrops(bot, signal)
    },
    state() {
      const bot = getBot()
      return bot?.entity ? botState(bot) : EMPTY
    },
    nearbyBlocks() {
      const bot = getBot()
      return bot?.entity ? perceive(bot, 16).blocks.map((b) => b.name) : []
    },
    lastTrace() {
      const bot = getBot()
      const t = bot ? lastTrace(bot) : null
      if (!t || t.entries.length === 0) return null
      const dense = t.entries.reduce((s, e) => s + e.dense, 0)
      const sparse = t.entries.reduce((s, e) => s + e.sparse, 0)
      return { dense: Math.round(dense * 100) / 100, sparse, stalled: t.reason === 'stalled' }
    },
    identity() {
      return { bot: getBot()?.username ?? 'unknown', server }
    },
  }
}
