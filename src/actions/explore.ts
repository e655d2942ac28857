/**
 * `explore(object, strategy)`: move until the object is *seen* (line of sight from the eyes, no x-ray). Surface:
 * the world is a grid of 20×20-block cells visited breadth-first from the start cell, pathing to each cell's centre
 * while looking. Underground: branch mining at the block's best level from the knowledge (ore-search.ts), looking
 * for every variant of the block (deepslate or stone), never opening a block next to lava or water. Fails with
 * `not_found` when the step or time budget runs out.
 */
import type { Action } from '../schemas/action.js'
import { Vec3 } from 'vec3'
import { resolveTarget, type Target } from './names.js'
import { fail, type Run } from './types.js'
import { biomeAt, nearestVisibleBlock, visibleEntities } from '../perception/vision.js'
import { goals, goto } from './world.js'
import { branchMine, searchIds } from './ore-search.js'
import { standStill } from '../bot/body.js'

export const CELL = 20

function seenAt(run: Run, target: Target): Vec3 | null {
  if (target.kind === 'block') return nearestVisibleBlock(run.bot, target.block.blockIds)?.position ?? null
  if (target.kind === 'biome')
    return target.names.includes(biomeAt(run.bot, run.bot.entity.position)) ? run.bot.entity.position.clone() : null
  return visibleEntities(run.bot, target.names)[0]?.position ?? null
}

function found(run: Run, object: string, at: Vec3): string {
  const d = at.distanceTo(run.bot.entity.position)
  return `I can see ${object} ${d.toFixed(0)} blocks away at ${Math.floor(at.x)} ${Math.floor(at.y)} ${Math.floor(at.z)}.`
}

/** Path toward a goal while checking every 250 ms whether the target came into view. */
async function moveLooking(
  run: Run,
  goal: ConstructorParameters<typeof goals.GoalXZ> | Vec3,
  target: Target,
): Promise<Vec3 | null> {
  const g = goal instanceof Vec3 ? new goals.GoalBlock(goal.x, goal.y, goal.z) : new goals.GoalXZ(goal[0], goal[1])
  let seen: Vec3 | null = null
  const poll = setInterval(() => {
    if (seen) return
    try {
      seen = seenAt(run, target)
    } catch {
      /* chunk not loaded */
    }
    if (seen) standStill(run.bot)
  }, 250)
  try {
    // a cell it cannot reach, or a path something else stopped, is skipped; the budget and the stall check bound it
    await goto(run, g, 'the next place to look').catch(() => run.check())
  } finally {
    clearInterval(poll)
  }
  return seen ?? seenAt(run, target)
}

async function surface(run: Run, target: Target, object: string): Promise<string> {
  const p = run.bot.entity.position
  const start: [number, number] = [Math.floor(p.x / CELL), Math.floor(p.z / CELL)]
  const queue: Array<[number, number]> = [start]
  const queued = new Set([start.join(',')])
  while (queue.length) {
    const [cx, cz] = queue.shift()!
    run.step()
    const seen = await moveLooking(run, [cx * CELL + CELL / 2, cz * CELL + CELL / 2], target)
    if (seen) return found(run, object, seen)
    for (const [dx, dz] of [
      [1, 0],
      [0, 1],
      [-1, 0],
      [0, -1],
    ] as const) {
      const k = `${cx + dx},${cz + dz}`
      if (!queued.has(k)) {
        queued.add(k)
        queue.push([cx + dx, cz + dz])
      }
    }
  }
  return fail('not_found', `I explored every place I could reach and never saw ${object}.`)
}

async function underground(run: Run, target: Target, object: string): Promise<string> {
  // a block is looked for in all its variants (diamond_ore and deepslate_diamond_ore), at its best level
  const search = target.kind === 'block' ? searchIds(run.bot, target.block.blockNames) : null
  const wanted: Target =
    target.kind === 'block' && search
      ? { kind: 'block', block: { ...target.block, blockIds: new Set([...target.block.blockIds, ...search.ids]) } }
      : target
  const seen = await branchMine(run, search?.band ?? null, () => seenAt(run, wanted))
  if (seen) return found(run, object, seen)
  return fail('not_found', `I branch-mined as far as I safely could and never saw ${object}.`)
}

export async function explore(run: Run, action: Extract<Action, { type: 'explore' }>): Promise<string> {
  const target = resolveTarget(run.bot, action.object)
  const now = seenAt(run, target)
  if (now) return found(run, action.object, now)
  return action.strategy === 'surface' ? surface(run, target, action.object) : underground(run, target, action.object)
}
