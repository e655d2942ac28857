/**
 * Stations (a crafting table, a furnace) the bot placed itself and left standing for a later craft or smelt
 * (src/actions/stations.ts, `run.keep`). The bot knows where it left them whether or not they are in sight — a
 * furnace placed next to the table can hide it from the corridor — so the agent's "station within reach" and the
 * station a craft walks to count them, from memory of its own placements, not by looking through rock. Kept per bot;
 * an entry whose block is no longer the station it left is dropped when read.
 */
import type { Bot } from 'mineflayer'
import type { Block } from 'prismarine-block'
import type { Vec3 } from 'vec3'

interface Left {
  at: Vec3
  name: string
}
const left = new WeakMap<Bot, Map<string, Left>>()

/** The entries of `bot` whose block still is the station it left, the others forgotten. */
function standing(bot: Bot): Block[] {
  const mine = left.get(bot)
  if (!mine) return []
  const out: Block[] = []
  for (const [key, l] of mine) {
    const b = bot.blockAt(l.at)
    if (b?.name === l.name) out.push(b)
    else if (b) mine.delete(key) // dug or replaced (an unloaded chunk keeps its entry)
  }
  return out
}

/** Note the station `block` the bot left standing. */
export function rememberLeftStation(bot: Bot, block: Block): void {
  const mine = left.get(bot) ?? new Map<string, Left>()
  mine.set(block.position.toString(), { at: block.position.clone(), name: block.name })
  left.set(bot, mine)
}

/** Every station the bot left standing that still stands (still remembered: a later step uses it). */
export function leftStations(bot: Bot): Block[] {
  return standing(bot)
}

/** Take the station at `p` back (a step uses it and picks it up): true when the bot had left it there. */
export function takeLeftStation(bot: Bot, p: Vec3): boolean {
  return left.get(bot)?.delete(p.toString()) ?? false
}

/** Every station the bot left standing that still stands, forgotten from now on (they are being picked up). */
export function takeAllLeftStations(bot: Bot): Block[] {
  const blocks = standing(bot)
  left.delete(bot)
  return blocks
}

/** The nearest station named `name` the bot left standing within `reach` blocks of its feet (block centre). */
export function leftStationNear(bot: Bot, name: string, reach: number): Block | null {
  const me = bot.entity?.position
  if (!me) return null
  const far = (b: Block): number => b.position.offset(0.5, 0.5, 0.5).distanceTo(me)
  const near = standing(bot).filter((b) => b.name === name && far(b) <= reach)
  return near.sort((a, b) => far(a) - far(b))[0] ?? null
}
