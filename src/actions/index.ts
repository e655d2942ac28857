/**
 * The action registry: one handler per action type, one uniform entry point. `execute(bot, action, ctx)` validates
 * the action with the Action zod schema, runs its handler under a budget (defaults per type, overridable), the
 * caller's AbortSignal, the reflexes and — for long actions — the progress signal, and always resolves to an
 * ActionResult `{ ok, reason, message, inventoryDelta, durationMs }`. `feedback()` adds the bot's state for the planner.
 */
import type { Bot } from 'mineflayer'
import { Action, type ActionResult, type BotState, type Feedback } from '../schemas/action.js'
import { lastTrace as recordedTrace, type RecordedTrace } from '../progress/recorder.js'
import { approach } from './approach.js'
import { apply } from './apply.js'
import { attack } from './attack.js'
import { build } from './build.js'
import { deposit, withdraw } from './chest.js'
import { craft } from './craft.js'
import { digDown } from './dig_down.js'
import { equip } from './equip.js'
import { explore } from './explore.js'
import { give } from './give.js'
import { goUp } from './go_up.js'
import { hide } from './hide.js'
import { gotoXyz } from './goto.js'
import { guard } from './guard.js'
import { mine } from './mine.js'
import { place } from './place.js'
import { runHandler } from './run.js'
import { RULES } from '../rules/index.js'
import { smelt } from './smelt.js'
import { pickUpLeft } from './stations.js'
import {
  DEFAULT_BUDGETS,
  STAYS_AT_STATIONS,
  TRACKED,
  inventoryCounts,
  result,
  type ActionContext,
  type Handler,
  type Handlers,
} from './types.js'
import { biomeAt, isUnderground } from '../perception/vision.js'
import { describeAction } from '../rules/index.js'

export const handlers: Handlers = {
  equip,
  explore,
  approach,
  mine,
  attack,
  dig_down: digDown,
  go_up: goUp,
  hide,
  craft,
  smelt,
  apply,
  place,
  build,
  give,
  goto: gotoXyz,
  deposit,
  withdraw,
  guard,
}

/** A short phrase for messages: "mining 3 iron_ore" (each action's rules file says it). */
export function describe(a: Action): string {
  return describeAction(a)
}

export async function execute(bot: Bot, raw: unknown, ctx: ActionContext): Promise<ActionResult> {
  const parsed = Action.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    return result(
      false,
      'invalid',
      `That action is malformed: ${issue ? `${issue.path.join('.') || 'action'} ${issue.message}` : 'unknown problem'}.`,
      {},
      0,
    )
  }
  const action = parsed.data
  if (!bot.entity) return result(false, 'error', 'I am not in the world right now.', {}, 0)
  const budget = { ...DEFAULT_BUDGETS[action.type], ...ctx.budget }
  const handler = handlers[action.type] as Handler
  const isExplore = action.type === 'explore'
  return runHandler(
    bot,
    ctx,
    {
      name: action.type,
      doing: describe(action),
      budget,
      tracked: TRACKED.has(action.type),
      detours: RULES[action.type].detours ?? 0,
      ...(isExplore
        ? {
            budgetReason: 'not_found' as const,
            budgetMessage: `I explored until my budget ran out and never saw ${action.object}.`,
          }
        : {}),
    },
    async (run) => {
      // a station left standing for a next step that did not come is picked up before the bot moves on
      if (!STAYS_AT_STATIONS.has(action.type)) await pickUpLeft(run)
      return handler(run, action)
    },
  )
}

/** The bot's own state as the planner sees it. */
export function botState(bot: Bot): BotState {
  const pos = bot.entity.position
  const biome = biomeAt(bot, pos)
  return {
    inventory: inventoryCounts(bot),
    biome,
    y: Math.floor(pos.y),
    underground: isUnderground(bot),
    health: Math.round(bot.health * 10) / 10,
    food: bot.food,
  }
}

export function feedback(bot: Bot, action: Action, res: ActionResult): Feedback {
  return { action, result: res, state: botState(bot) }
}

/** The progress trace of the last tracked action this bot ran (for the failure analyser). */
export function lastTrace(bot: Bot): RecordedTrace | null {
  return recordedTrace(bot)
}

export { attachReflexes, reflexesOf } from './reflexes/index.js'
/** The player skills behind the `come` and `follow` commands (not planner actions). */
export { come, SKILL_BUDGETS } from './come.js'
export { follow } from './follow.js'
export type { ActionContext, Budget } from './types.js'
export { DEFAULT_BUDGETS } from './types.js'
