/**
 * How an ore search (ore-search.ts) gets down to its level: dig the shaft (`dig_down`), and when the shaft must stop
 * (a cave's deep drop, fluid beside it) let the pathfinder find another way for a while (`descend`, `travelTo`); and
 * what the search does after each try (`afterDescent`: try again, move the shaft a few cells, or search where it
 * stands).
 */
import type { Vec3 } from 'vec3'
import { digDown } from './dig_down.js'
import { ActionFailure, type Run } from './types.js'
import { clearAfterTurnBack, goals, gotoWithin } from './world.js'
import type { Look } from './tunnel.js'

/** A level this close counts as reached (the corridor and its walls span y-1 … y+2). */
export const LEVEL_SLACK = 2
/**
 * How long the pathfinder may take the bot toward the search's level when digging cannot: a way down when the
 * straight shaft had to stop, a way back up out of the lava-filled caves below it.
 */
export const TO_LEVEL_MS = 20_000
/** Times a search moves its shaft SHAFT_STEP cells along the heading when nothing lower is reachable from the column. */
const SHAFT_MOVES = 3
export const SHAFT_STEP = 4
/** Tries in a row to get on down after one that got some of the way (each may take TO_LEVEL_MS). */
const DESCENTS = 4

/**
 * Dig down toward `level`, looking at the shaft walls. When the shaft must stop (a cave's deep drop, fluid beside
 * it), the pathfinder looks for another way down (a staircase, safe drops) for TO_LEVEL_MS; else the bot stays.
 */
export async function descend(run: Run, level: number, look: Look): Promise<Vec3 | null> {
  try {
    await digDown(run, { type: 'dig_down', ylevel: level, tool: null })
  } catch (err) {
    if (!(err instanceof ActionFailure)) throw err
    const seen = look()
    if (seen) return seen
    if (run.bot.entity.position.y > level + LEVEL_SLACK) return travelTo(run, level, look, TO_LEVEL_MS)
  } finally {
    run.progress.setTarget(() => null)
  }
  return look()
}

/**
 * Let the pathfinder take the bot to level `y` (digging a staircase, pillaring, safe drops) in `ms` at most; once the
 * guard has turned a walk of the run back, by no step it would turn back (`clearAfterTurnBack`).
 */
export async function travelTo(run: Run, y: number, look: Look, ms: number): Promise<Vec3 | null> {
  await clearAfterTurnBack(run, () => gotoWithin(run, new goals.GoalY(y), `y ${y}`, ms))
  return look()
}

/**
 * What a search does after a try to get down to its level that left the bot at `now`, from `before`:
 * - on the level (within LEVEL_SLACK): search;
 * - some way down but not there (a cave's drop stopped the shaft again): try again before any row, since rows up
 *   there look at the wrong rock (bench d41 seed 5: a row of 12 cells for diamonds at y -10, two minutes), up to
 *   DESCENTS tries in a row (a way down that gains a block per try would take them all), then a row and again;
 * - no lower at all: move the shaft a few cells (blocked below this column, a shaft beside it often is not), up to
 *   SHAFT_MOVES times, then search where it stands (nothing lower is reachable from anywhere near: bedrock, fluids).
 */
export function afterDescent(
  before: number,
  now: number,
  level: number,
  tries: { shaftMoves: number; descents: number },
): 'on level' | 'descend' | 'row first' | 'move shaft' | 'search here' {
  if (now <= level + LEVEL_SLACK) return 'on level'
  if (now < before) return tries.descents < DESCENTS ? 'descend' : 'row first'
  return tries.shaftMoves < SHAFT_MOVES ? 'move shaft' : 'search here'
}
