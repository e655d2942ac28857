/**
 * `approach(object)`: path (mineflayer-pathfinder) to the nearest *visible* instance of a block or entity and succeed
 * within 2 blocks of it. Fails with `not_found` when none is in view and `no_path` when it cannot be reached.
 * `pursueEntity` — walking after a (possibly moving) entity until within reach — is shared with the `come` and
 * `follow` skills.
 */
import type { Action } from '../schemas/action.js'
import type { Entity } from 'prismarine-entity'
import type { Vec3 } from 'vec3'
import { resolveTarget } from './names.js'
import { ActionFailure, fail, type Run } from './types.js'
import { nearestVisibleBlock, visibleEntities } from '../perception/vision.js'
import { goals, goto } from './world.js'

export const REACH = 2

function blockDistance(feet: Vec3, block: Vec3): number {
  return feet.floored().distanceTo(block)
}

export async function approach(run: Run, action: Extract<Action, { type: 'approach' }>): Promise<string> {
  const { bot } = run
  const target = resolveTarget(bot, action.object)
  if (target.kind === 'biome')
    fail('invalid', `${action.object} is a biome: explore finds biomes; approach needs a block or a creature.`)
  if (target.kind === 'block') {
    const block = nearestVisibleBlock(bot, target.block.blockIds)
    if (!block) fail('not_found', `I cannot see any ${action.object} from here.`)
    const p = block.position
    run.progress.setTarget(() => blockDistance(bot.entity.position, p))
    if (blockDistance(bot.entity.position, p) > REACH) {
      run.step()
      await goto(run, new goals.GoalNear(p.x, p.y, p.z, REACH), action.object)
    }
    const d = blockDistance(bot.entity.position, p)
    if (d > REACH + 0.5) fail('no_path', `I got only within ${d.toFixed(1)} blocks of ${action.object}.`)
    return `I am next to ${block.name} at ${p.x} ${p.y} ${p.z}.`
  }
  const entity: Entity | undefined = visibleEntities(bot, target.names)[0]
  if (!entity) fail('not_found', `I cannot see any ${action.object} from here.`)
  await pursueEntity(run, entity, REACH, `the ${action.object}`)
  return `I am next to the ${action.object}.`
}

/**
 * How far inside reach a cell's centre must be: the pathfinder counts a node reached within 0.35 of its centre on each
 * axis (at most 0.5 away).
 */
const CENTRE_SLACK = 0.5

/** A pathfinder node: the cell the feet stand in. */
type Cell = { x: number; y: number; z: number }

/**
 * A cell from which the body is within `reach` of `p` (the entity's position when the leg began), measured from the
 * entity itself, not its block: a player up on a 2-high pillar is reached from the cells beside its foot. A cell
 * counts when its centre is within reach − CENTRE_SLACK (so arriving anywhere the pathfinder calls its centre is within
 * reach), and the cell the body stands in when the body itself is within reach — the pathfinder asks about that cell
 * when it starts and when it arrives, so a walk never "arrives" out of reach, nor walks on once within it.
 */
export class GoalWithinReach extends goals.Goal {
  constructor(
    private readonly bot: Pick<Run['bot'], 'entity'>,
    private readonly p: Vec3,
    private readonly reach: number,
  ) {
    super()
  }

  /** From the centre of `node`'s floor to the entity. */
  private toEntity(node: Cell): Vec3 {
    return this.p.offset(-(node.x + 0.5), -node.y, -(node.z + 0.5))
  }

  heuristic(node: Cell): number {
    const d = this.toEntity(node)
    return Math.sqrt(d.x * d.x + d.z * d.z) + Math.abs(d.y)
  }

  isEnd(node: Cell): boolean {
    const body = this.bot.entity.position
    const cell = body.floored()
    if (cell.x === node.x && cell.y === node.y && cell.z === node.z) return body.distanceTo(this.p) <= this.reach
    return this.toEntity(node).norm() <= this.reach - CENTRE_SLACK
  }
}

/** A leg that failed but brought the bot at least this many blocks closer is followed by another. */
const LEG_GAIN = 1
/**
 * Legs in a row that may fail without that gain before the pursuit gives up: under load the pathfinder's think time
 * runs out before it finds a way that exists (reflexes-skills' low pillar, "could not work out a path in time; 7.0
 * blocks left" in the CI run of 2026-11-28 and in a suite of 2026-11-29), so one such failure is tried again from
 * where the bot stands; an unreachable player costs one more think time.
 */
const LEG_RETRIES = 1

/**
 * Walk after `entity` (re-aiming at where it is now after every leg) until within `reach` blocks. One step per leg.
 * Fails with `not_found` when it disappears and `no_path` — saying how far is left — when it cannot be reached: when
 * legs fail without gaining LEG_GAIN more than LEG_RETRIES times in a row. A leg that fails on its way (the
 * pathfinder's think time ran out while it walked a partial path on a 2-core machine under load) is re-planned from
 * where the bot now stands; the step budget bounds the legs.
 */
export async function pursueEntity(run: Run, entity: Entity, reach: number, what: string): Promise<void> {
  const { bot } = run
  const distance = (): number => entity.position.distanceTo(bot.entity.position)
  run.progress.setTarget(distance)
  let misses = 0
  while (distance() > reach) {
    if (!bot.entities[entity.id]) fail('not_found', `I lost sight of ${what}.`)
    run.step()
    // every leg aims at the same reach (a leg aiming closer than the first made a player on a 2-high pillar a goal
    // under their feet: the pathfinder searched for a way up until its time ran out, suite36 and suite45); every leg
    // stops as soon as the bot is within reach
    const goal = new GoalWithinReach(bot, entity.position.clone(), reach)
    const before = distance()
    try {
      await goto(run, goal, what, () => distance() <= reach)
      misses = 0
    } catch (err) {
      if (!(err instanceof ActionFailure) || err.reason !== 'no_path') throw err
      if (before - distance() >= LEG_GAIN || ++misses <= LEG_RETRIES) continue
      fail('no_path', `${err.message.replace(/\.$/, '')}; ${distance().toFixed(1)} blocks left.`)
    }
  }
}
