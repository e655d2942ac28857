/**
 * `goto(x, y, z)`: walk to coordinates and stop within `GOTO_REACH` blocks (issue 17). The pathfinder plans leg by
 * leg (it walks partial paths into chunks it has not loaded yet); each leg is one step of the budget and the
 * distance left is the progress signal's target, so a long trip reports progress and a walk that gets no closer
 * ends as `stalled`. An unreachable spot fails with `no_path` saying how many blocks are left — never an endless walk.
 * Named places and players are resolved by the caller (src/actions/skills.ts) before this runs.
 */
import { Vec3 } from 'vec3'
import type { Action } from '../schemas/action.js'
import { ActionFailure, fail, type Run } from './types.js'
import { goals, goto } from './world.js'

/** Close enough to the asked spot. */
export const GOTO_REACH = 2
/** A leg that ends less than this much closer counts as no progress; this many such legs in a row → `no_path`. */
const MIN_GAIN = 1
const MAX_IDLE_LEGS = 2

export async function gotoXyz(run: Run, action: Extract<Action, { type: 'goto' }>): Promise<string> {
  const { bot } = run
  const dest = new Vec3(action.x + 0.5, action.y, action.z + 0.5)
  const left = (): number => bot.entity.position.distanceTo(dest)
  run.progress.setTarget(left)
  const where = `${action.x} ${action.y} ${action.z}`
  let idle = 0
  while (left() > GOTO_REACH + 0.5) {
    run.step()
    const before = left()
    try {
      await goto(run, new goals.GoalNear(action.x, action.y, action.z, GOTO_REACH), where)
    } catch (err) {
      if (err instanceof ActionFailure && err.reason === 'no_path')
        fail('no_path', `I found no way to ${where}; ${left().toFixed(0)} blocks left.`)
      throw err
    }
    idle = before - left() < MIN_GAIN ? idle + 1 : 0
    if (idle >= MAX_IDLE_LEGS && left() > GOTO_REACH + 0.5)
      fail('no_path', `I can't get any closer to ${where}; ${left().toFixed(0)} blocks left.`)
  }
  return `I'm at ${where} (${left().toFixed(1)} blocks off).`
}
