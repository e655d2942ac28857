/**
 * The body's primitives below the action layer: `standStill` stops pathfinding and releases every control state,
 * never moving the body over a hole; `solidAt` (a full block to stand on) and `CENTRE_SLACK` (how far off a cell's
 * middle the body still drops into a one-wide hole), which the reflexes and dig_down share. The BodyPort the router
 * uses (status, inventory, come, follow) is built on the actions: src/actions/body.ts.
 */
import type { Vec3 } from 'vec3'
import type { Bot } from './create.js'

/** Half the width of a player's body (0.6 wide). */
const BODY_HALF_WIDTH = 0.3
/**
 * How far (each axis) the body's centre may be off a cell's middle and still drop into a one-wide hole dug under it:
 * further off, the body hangs on the edge of the block beside it. mineflayer-pathfinder's stop re-centres the body
 * past the same offset.
 */
export const CENTRE_SLACK = 0.5 - BODY_HALF_WIDTH

/** Whether the block at `p` is a full block (something to stand on). */
export function solidAt(bot: Pick<Bot, 'blockAt'>, p: Vec3): boolean {
  return bot.blockAt(p.floored())?.boundingBox === 'block'
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
  // it is more than CENTRE_SLACK off it (its fullStop). Stopped at an edge with its centre already over the hole, that is
  // mid-air over the hole (bench p10 compass seed 2: the guard stopped it at a cave's edge, the stop put it over the
  // cave, and it fell 6 blocks into lava): then it stays where it stopped, where the physics had found it room.
  const now = bot.entity?.position
  if (before && now && (now.x !== before.x || now.z !== before.z) && !solidAt(bot, now.offset(0, -1, 0))) {
    now.x = before.x
    now.z = before.z
  }
}
