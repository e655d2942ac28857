/**
 * A staircase down through rock, for `dig_down` when a cave opens under its shaft: pick the side along which the next
 * steps stay in dry, solid rock (each step's three cells diggable or open, no fluid beside them, solid floor under
 * them, nothing above that falls), dig each step's three cells and step down into it, until the rock under the bot is
 * safe to dig straight down again. Three blocks a level, about 3 s with an iron pickaxe — the pathfinder's way down
 * beside a cave took 10–20 s for one or two levels (bench p1: five of fifteen diamond-level runs lost 40–120 s so).
 */
import type { Vec3 } from 'vec3'
import type { Run } from './types.js'
import { falls, fluidNear, goals, gotoWithin } from './world.js'
import { digWith } from './retool.js'
import { logger } from '../util/log.js'
import { BESIDE } from '../util/vec.js'

const log = logger('stairs')

/** Steps looked ahead when a side is chosen (and taken at most per staircase). */
const STAIR_STEPS = 8
/** Fewer safe steps than this along every side: no staircase. */
const MIN_STEPS = 2
/** Longest walk into one dug step. */
const STEP_MS = 5000

/** The three cells of step `i` along `dir` from `feet` (top first) and the floor under them. */
function stepCells(feet: Vec3, dir: Vec3, i: number): { cells: Vec3[]; floor: Vec3 } {
  const col = feet.plus(dir.scaled(i))
  return { cells: [2, 1, 0].map((dy) => col.offset(0, dy - i, 0)), floor: col.offset(0, -i - 1, 0) }
}

/** Whether step `i` can be dug and stood on: every cell open or diggable and dry, a solid floor, no falling roof. */
function safeStep(run: Run, feet: Vec3, dir: Vec3, i: number): boolean {
  const { bot } = run
  const { cells, floor } = stepCells(feet, dir, i)
  const roof = bot.blockAt(cells[0]!.offset(0, 1, 0))
  if (!roof || falls(roof.name)) return false
  for (const c of cells) {
    const b = bot.blockAt(c)
    if (!b || fluidNear(bot, c)) return false
    if (b.boundingBox === 'block' && (b.diggable === false || b.hardness === null || b.name === 'bedrock')) return false
  }
  const under = bot.blockAt(floor)
  return !!under && under.boundingBox === 'block' && !fluidNear(bot, floor)
}

/** How many steps in a row along `dir` are safe, up to `max`. */
function safeSteps(run: Run, feet: Vec3, dir: Vec3, max: number): number {
  let n = 0
  while (n < max && safeStep(run, feet, dir, n + 1)) n++
  return n
}

/**
 * Dig a staircase down toward `ylevel` along the side with the most safe steps, until `shaftSafe` says the rock under
 * the bot can be dug straight down again or the steps run out; true when the bot got at least a level lower. `tool`
 * is held for every dig (null: the best tool for each block).
 */
export async function stairsDown(
  run: Run,
  ylevel: number,
  tool: string | null,
  shaftSafe: (feet: Vec3) => boolean,
): Promise<boolean> {
  const { bot } = run
  const feet = bot.entity.position.floored()
  const max = Math.min(STAIR_STEPS, feet.y - ylevel)
  if (max < 1) return false
  const sides = BESIDE.map((dir) => ({ dir, n: safeSteps(run, feet, dir, max) })).sort((a, b) => b.n - a.n)
  const best = sides[0]
  if (!best || best.n < Math.min(MIN_STEPS, max)) return false
  let at = feet
  for (let i = 1; i <= best.n; i++) {
    // the world may have changed since it was looked at (a block fell, a fluid flowed)
    if (!safeStep(run, feet, best.dir, i)) break
    const { cells } = stepCells(feet, best.dir, i)
    for (const c of cells) {
      const b = bot.blockAt(c)
      if (b?.boundingBox !== 'block') continue
      await digWith(run, b, tool)
    }
    const next = cells[2]!
    await gotoWithin(run, new goals.GoalBlock(next.x, next.y, next.z), 'the next stair', STEP_MS)
    const here = bot.entity.position.floored()
    if (!here.equals(next)) break
    at = here
    if (shaftSafe(at)) break
  }
  log.debug('stairs', { from: feet.toString(), to: at.toString(), dir: best.dir.toString(), safe: best.n })
  return at.y < feet.y
}
