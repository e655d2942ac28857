/**
 * The one body primitive below the action layer: `standStill` stops pathfinding and releases every control state,
 * never moving the body over a hole. The BodyPort the router uses (status, inventory, come, follow) is built on the
 * actions: src/actions/body.ts.
 */
import type { Vec3 } from 'vec3'
import type { Bot } from './create.js'

/** Whether the cell under `p` is a full block to stand on. */
function floorUnder(bot: Bot, p: Vec3): boolean {
  return bot.blockAt(p.floored().offset(0, -1, 0))?.boundingBox === 'block'
}

export function standStill(bot: Bot): void {
  const before = bot.entity?.position.clone()
  try {
    bot.pathfinder.stop()
  } catch {
    /* not moving */
  }
  bot.pathfinder.setGoal(null)
  bot.clearControlStates()
  // mineflayer-pathfinder's stop zeroes the speed and moves the body to the middle of the cell its centre is in when
  // it is more than 0.2 off it (its fullStop). Stopped at an edge with its centre already over the hole, that is
  // mid-air over the hole (bench p10 compass seed 2: the guard stopped it at a cave's edge, the stop put it over the
  // cave, and it fell 6 blocks into lava): then it stays where it stopped, where the physics had found it room.
  const now = bot.entity?.position
  if (before && now && (now.x !== before.x || now.z !== before.z) && !floorUnder(bot, now)) {
    now.x = before.x
    now.z = before.z
  }
}
