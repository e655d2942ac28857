/**
 * The one body primitive below the action layer: `standStill` stops pathfinding and releases every control state,
 * leaving the body where it stopped. The BodyPort the router uses (status, inventory, come, follow) is built on the
 * actions: src/actions/body.ts.
 */
import type { Bot } from './create.js'

export function standStill(bot: Bot): void {
  // mineflayer-pathfinder's stop zeroes the speed and moves the body to the middle of the cell its centre is in when
  // it is more than 0.2 off it (its fullStop): stopped at an edge with its centre already over the hole, that is in
  // mid-air over the hole (bench p10 compass seed 2: the guard stopped it at a cave's edge, and the stop put it over
  // the cave; it fell 6 blocks into lava). It stays where it stopped, which the physics had found room for.
  const { x, z } = bot.entity?.position ?? { x: Number.NaN, z: Number.NaN }
  try {
    bot.pathfinder.stop()
  } catch {
    /* not moving */
  }
  bot.pathfinder.setGoal(null)
  bot.clearControlStates()
  if (bot.entity && Number.isFinite(x) && Number.isFinite(z)) {
    bot.entity.position.x = x
    bot.entity.position.z = z
  }
}
