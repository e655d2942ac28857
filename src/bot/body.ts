/**
 * The one body primitive below the action layer: `standStill` stops pathfinding and releases every control state.
 * The BodyPort the router uses (status, inventory, come, follow) is built on the actions: src/actions/body.ts.
 */
import type { Bot } from './create.js'

export function standStill(bot: Bot): void {
  try {
    bot.pathfinder.stop()
  } catch {
    /* not moving */
  }
  bot.pathfinder.setGoal(null)
  bot.clearControlStates()
}
