/**
 * Finding rock to carve a scene in, for integration tests that build caves, cells and tunnels underground with
 * /setblock: `isRock` (solid, diggable, dry, not falling) and `solidPatch`, the nearest column around the bot under
 * which a box of such rock lies in the generated world.
 */
import type { Bot } from 'mineflayer'
import type { Vec3 } from 'vec3'
import { ringCells } from '../../src/util/vec.js'

/** Solid, diggable, dry rock that does not fall. */
export function isRock(bot: Bot, p: Vec3): boolean {
  const b = bot.blockAt(p)
  return b?.boundingBox === 'block' && b.diggable && b.name !== 'bedrock' && !/lava|water|gravel|sand/.test(b.name)
}

/**
 * A column near the bot (at its feet level; rings 3 to 16 blocks out, every column of each ring) under which the rock
 * is solid and dry: (2·half+1)² columns from `fromDy` to `toDy` blocks relative to the feet (negative: below), found
 * in the generated world; where a scene can be carved.
 */
export function solidPatch(bot: Bot, half: number, fromDy: number, toDy: number): Vec3 {
  const me = bot.entity.position.floored()
  for (let r = 3; r <= 16; r++)
    for (const [dx, dz] of ringCells(r)) {
      const c = me.offset(dx, 0, dz)
      let solid = true
      for (let x = -half; x <= half && solid; x++)
        for (let z = -half; z <= half && solid; z++)
          for (let y = fromDy; y <= toDy && solid; y++) solid = isRock(bot, c.offset(x, y, z))
      if (solid) return c
    }
  throw new Error('no patch of solid rock near the bot')
}
