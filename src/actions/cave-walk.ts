/**
 * Cave walks for the underground search (ore-search.ts): from where it stands on its level, the farthest open cave
 * floor in sight within CAVE_REACH blocks and CAVE_RISE levels, walked to in CAVE_WALK_MS at most, shows whole cave
 * walls without digging a block. The 4×4×4 cells of cave already walked to are remembered per bot, so each walk (and
 * the next search's) moves on.
 */
import type { Bot } from 'mineflayer'
import { Vec3 } from 'vec3'
import { canSee } from '../perception/vision.js'
import { logger } from '../util/log.js'
import type { Run } from './types.js'
import { fluidNear, goals, gotoWithin } from './world.js'

const log = logger('cave-walk')

/** How far (horizontally) a cave floor in sight is walked to: on the level, one block up or down, in 8 s at most. */
const CAVE_REACH = 10
const CAVE_RISE = 1
export const CAVE_WALK_MS = 8000

/** Cells (4×4×4) of cave already walked to, per bot, so a cave walk moves on. */
const caveCells = new WeakMap<Bot, Set<string>>()
const cellOf = (p: Vec3): string => `${p.x >> 2},${p.y >> 2},${p.z >> 2}`

/**
 * The farthest open cave floor in sight within CAVE_REACH blocks and CAVE_RISE of the level (a cave never leads the
 * search away from its level, nor along its drops): air to stand in with
 * air above and a solid floor, not one of our own tunnels nor a cave cell already visited. Walking there shows
 * whole cave walls without digging a block.
 */
export function caveSpot(bot: Bot, level: number, dug: ReadonlySet<string>): Vec3 | null {
  const me = bot.entity.position.floored()
  const visited = caveCells.get(bot) ?? new Set<string>()
  const free = (p: Vec3): boolean => {
    const n = bot.blockAt(p)?.name
    return n === 'air' || n === 'cave_air'
  }
  const spots: Vec3[] = []
  for (let dy = -CAVE_RISE; dy <= CAVE_RISE; dy++) {
    const y = level + dy
    for (let dx = -CAVE_REACH; dx <= CAVE_REACH; dx++) {
      for (let dz = -CAVE_REACH; dz <= CAVE_REACH; dz++) {
        if (dx * dx + dz * dz < 16) continue
        const p = new Vec3(me.x + dx, y, me.z + dz)
        if (dug.has(p.toString()) || visited.has(cellOf(p))) continue
        if (!free(p) || !free(p.offset(0, 1, 0)) || bot.blockAt(p.offset(0, -1, 0))?.boundingBox !== 'block') continue
        if (fluidNear(bot, p) || !roofed(bot, p)) continue
        spots.push(p)
      }
    }
  }
  spots.sort((a, b) => b.distanceTo(me) - a.distanceTo(me))
  for (const p of spots.slice(0, 60)) {
    const b = bot.blockAt(p)
    if (b && canSee(bot, b)) return p
  }
  return null
}

/** Rock somewhere overhead: a cave, not a hillside under the open sky. */
function roofed(bot: Bot, p: Vec3): boolean {
  for (let dy = 2; dy <= 24; dy++) if (bot.blockAt(p.offset(0, dy, 0))?.boundingBox === 'block') return true
  return false
}

/** What a cave walk saw (the target, or null) and whether it got within reach of the spot. */
export interface CaveWalk {
  seen: Vec3 | null
  reached: boolean
}

/** Within this many blocks of the spot, a walk counts as reached (the cave's walls around it were in sight). */
const REACHED_WITHIN = 3

/** Walk to a cave spot in sight, looking on the way (a sighting ends the walk); marks its cell visited anyway. */
export async function caveWalk(run: Run, spot: Vec3, look: () => Vec3 | null): Promise<CaveWalk> {
  const { bot } = run
  let visited = caveCells.get(bot)
  if (!visited) {
    visited = new Set()
    caveCells.set(bot, visited)
  }
  visited.add(cellOf(spot))
  run.step()
  const t0 = Date.now()
  const from = bot.entity.position.distanceTo(spot)
  // looking all the way (every poll of the walk), not only at its end: a wall passed on the way — round a bend, behind
  // a pillar — is out of sight from the spot (bench d40–d42: 2 of 21 sightings came from a cave walk, against a quarter
  // in bench:search's count of cave walls), and a sighting ends the walk there
  let seen: Vec3 | null = null
  // a cave floor the pathfinder cannot settle on in a few seconds is left alone
  await gotoWithin(run, new goals.GoalBlock(spot.x, spot.y, spot.z), 'the cave', CAVE_WALK_MS, () => {
    seen = look()
    return seen !== null
  })
  visited.add(cellOf(bot.entity.position.floored()))
  const left = bot.entity.position.distanceTo(spot)
  seen ??= look()
  log.debug('cave walk', { spot: spot.toString(), from, left, ms: Date.now() - t0, seen: seen !== null })
  return { seen, reached: left <= REACHED_WITHIN || seen !== null }
}
