/**
 * The `come` skill: walk to a named player and stop within 3 blocks. Built on approach's `pursueEntity` and run
 * through the registry's machinery (`runHandler`): a step and time budget, the caller's stop signal, the reflexes (a
 * reflex taking over ends it as `unsafe`), death and the progress signal (`stalled`). It fails with `not_found` when
 * the player is not in view and `no_path` — saying how many blocks are left — when the bot cannot get there. Not a
 * planner action: players ask for it directly (the `come` command). Also holds the player lookup `follow` shares.
 */
import type { Bot } from 'mineflayer'
import type { Entity } from 'prismarine-entity'
import type { ActionResult } from '../schemas/action.js'
import { pursueEntity } from './approach.js'
import { runHandler } from './run.js'
import { fail, type ActionContext, type Budget } from './types.js'

/** Budgets of the two player skills; `follow` is meant to run until stopped or the player leaves. */
export const SKILL_BUDGETS = {
  come: { steps: 40, timeMs: 120_000 },
  follow: { steps: 50_000, timeMs: 8 * 60 * 60_000 },
} satisfies Record<string, Budget>

/** Stop this close to the player (not on top of them). */
export const COME_REACH = 3

/** The player's name as the server spells it, or null when they are not on the server. */
export function onlineName(bot: Bot, name: string): string | null {
  return Object.keys(bot.players).find((n) => n.toLowerCase() === name.toLowerCase()) ?? null
}

/** The player's entity when the bot can see them; fails with `not_found` otherwise. */
export function playerEntity(bot: Bot, name: string): Entity {
  const online = onlineName(bot, name)
  const entity = online ? bot.players[online]?.entity : undefined
  if (!online) fail('not_found', `${name} is not on the server.`)
  if (!entity) fail('not_found', `I can't see ${online} — are you nearby and in the same world?`)
  return entity
}

export function come(bot: Bot, player: string, ctx: ActionContext): Promise<ActionResult> {
  let left = (): string => 'some'
  return runHandler(
    bot,
    ctx,
    {
      name: 'come',
      doing: `coming to ${player}`,
      budget: { ...SKILL_BUDGETS.come, ...ctx.budget },
      tracked: true,
      budgetMessage: () => `I ran out of time coming to ${player}; ${left()} blocks left.`,
    },
    async (run) => {
      const target = playerEntity(bot, player)
      const distance = (): number => target.position.distanceTo(bot.entity.position)
      left = () => distance().toFixed(1)
      await pursueEntity(run, target, COME_REACH, player)
      return `I'm here (${distance().toFixed(1)} blocks from you).`
    },
  )
}
