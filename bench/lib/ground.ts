/**
 * Where a benchmark may put something on the ground near the bot: `groundNear`, a dry ground-level spot (air over a
 * solid block, no water or lava above it) at an offset from the bot, or the nearest such column around it. Used by
 * bench:actions for its goto target, chest, guarded player, summoned zombie and shelter site.
 */
import type { Bot } from 'mineflayer'
import { Vec3 } from 'vec3'
import { ringCells } from '../../src/util/vec.js'

/** Water, lava: a column with these above its ground is no dry ground. */
const LIQUIDS = new Set(['water', 'lava', 'bubble_column'])

/** Dry ground in one column near the bot's height (the first air over a solid block, scanning down), else null. */
function dryGround(bot: Bot, x: number, z: number): Vec3 | null {
  const y0 = Math.floor(bot.entity.position.y)
  for (let y = y0 + 6; y > y0 - 12; y--) {
    const p = new Vec3(x, y, z)
    const here = bot.blockAt(p)
    if (!here || LIQUIDS.has(here.name)) return null
    if (here.name === 'air' && bot.blockAt(p.offset(0, -1, 0))?.boundingBox === 'block') return p
  }
  return null
}

/**
 * A ground-level spot (air over a solid block, no water above it) at a horizontal offset from the bot, or the nearest
 * such column around it: over a lake the scan used to run down to y -60 and summon the guard's zombie in the rock.
 */
export function groundNear(bot: Bot, dx: number, dz: number): { x: number; y: number; z: number } {
  const me = bot.entity.position.floored()
  for (let r = 0; r <= 6; r++)
    for (const [ox, oz] of ringCells(r)) {
      const g = dryGround(bot, me.x + dx + ox, me.z + dz + oz)
      if (g) return { x: g.x, y: g.y, z: g.z }
    }
  return { x: me.x + dx, y: me.y, z: me.z + dz }
}
