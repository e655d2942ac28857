/**
 * The `follow` skill: keep within a few blocks of a named player until told to stop or the player leaves the game.
 * Each leg is approach's `pursueEntity`; between legs it waits until the player is a little farther away. It runs
 * through `runHandler` (budget, stop signal, reflexes, death) but is not progress-tracked: standing by a player who
 * stands still is not a stall. When a reflex takes over (lava ahead, a fight) the follow resumes once the reflex is
 * done, unless reflexes keep interrupting it. Fails with `not_found` when the player is out of sight and `no_path`
 * (with the distance left) when it cannot reach them.
 */
import type { Bot } from 'mineflayer'
import type { Entity } from 'prismarine-entity'
import type { ActionResult } from '../schemas/action.js'
import { waitFor } from '../util/async.js'
import { pursueEntity } from './approach.js'
import { onlineName, playerEntity, SKILL_BUDGETS } from './come.js'
import { reflexesOf } from './reflexes/index.js'
import { runHandler } from './run.js'
import { ActionFailure, type ActionContext, type Run } from './types.js'

/** Walk up to within this many blocks of the player … */
export const FOLLOW_REACH = 3
/** … and set off again when they are this much farther away (no jitter). */
const FOLLOW_SLACK = 2
/** How often the idle follower looks whether the player moved on. */
const WATCH_EVERY_MS = 250
/** More reflex interruptions than this within the window end the follow (e.g. the player walks along lava). */
const MAX_REFLEX_RESUMES = 3
const RESUME_WINDOW_MS = 60_000
const REFLEX_SETTLE_MS = 15_000
/** A player out of sight this long (online, not visible) ends the follow with `not_found`. */
const LOST_SIGHT_GRACE_MS = 5_000

/** The player's entity, waiting a moment when they are online but out of sight (a teleport respawns them). */
async function sighted(run: Run, player: string): Promise<Entity | null> {
  const { bot } = run
  const visible = (): boolean => {
    const n = onlineName(bot, player)
    return !n || !!bot.players[n]?.entity
  }
  if (!visible())
    await waitFor(visible, LOST_SIGHT_GRACE_MS, `${player} in sight`, WATCH_EVERY_MS, run.signal).catch(
      (err: Error) => {
        if (run.signal.aborted) throw err
      },
    )
  return onlineName(bot, player) ? playerEntity(bot, player) : null
}

async function followLegs(run: Run, player: string, deadline: number): Promise<string> {
  const { bot } = run
  for (;;) {
    const target = await sighted(run, player)
    if (!target) return `${onlineName(bot, player) ?? player} left the game, so I stopped following.`
    try {
      await pursueEntity(run, target, FOLLOW_REACH, player)
    } catch (err) {
      if (err instanceof ActionFailure && err.reason === 'not_found') continue // out of sight for a moment: look again
      throw err
    }
    const movedOn = (): boolean =>
      bot.entities[target.id] !== target ||
      target.position.distanceTo(bot.entity.position) > FOLLOW_REACH + FOLLOW_SLACK
    await waitFor(movedOn, Math.max(0, deadline - Date.now()), `${player} to move`, WATCH_EVERY_MS, run.signal)
  }
}

export async function follow(bot: Bot, player: string, ctx: ActionContext): Promise<ActionResult> {
  const budget = { ...SKILL_BUDGETS.follow, ...ctx.budget }
  const deadline = Date.now() + budget.timeMs
  const resumes: number[] = []
  for (;;) {
    const r = await runHandler(
      bot,
      ctx,
      {
        name: 'follow',
        doing: `following ${player}`,
        budget: { ...budget, timeMs: Math.max(1, deadline - Date.now()) },
        tracked: false,
      },
      (run) => followLegs(run, player, deadline),
    )
    if (r.reason !== 'unsafe' || ctx.signal.aborted) return r
    const now = Date.now()
    while (resumes.length > 0 && resumes[0]! < now - RESUME_WINDOW_MS) resumes.shift()
    if (resumes.length >= MAX_REFLEX_RESUMES)
      return { ...r, message: `${r.message} I stopped following ${player}: my reflexes keep taking over.` }
    resumes.push(now)
    const reflexes = reflexesOf(bot)
    try {
      await waitFor(() => !reflexes?.busy(), REFLEX_SETTLE_MS, 'reflexes to settle', WATCH_EVERY_MS, ctx.signal)
    } catch {
      return r
    }
  }
}
