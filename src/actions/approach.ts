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
 * Walk after `entity` (re-aiming at where it is now after every leg) until within `reach` blocks. One step per leg.
 * Fails with `not_found` when it disappears and `no_path` — saying how far is left — when it cannot be reached.
 */
export async function pursueEntity(run: Run, entity: Entity, reach: number, what: string): Promise<void> {
  const { bot } = run
  const distance = (): number => entity.position.distanceTo(bot.entity.position)
  run.progress.setTarget(distance)
  for (let leg = 0; distance() > reach; leg++) {
    if (!bot.entities[entity.id]) fail('not_found', `I lost sight of ${what}.`)
    run.step()
    const p = entity.position
    // the first leg aims just inside reach, so a spot beside a player up on a pillar or a tree is a goal the
    // pathfinder can find (aiming a block closer, it searched until its time ran out: 'no path in time'); a later leg
    // aims a block inside (the entity moves on). Every leg stops as soon as the bot is within reach.
    const range = Math.max(1, leg === 0 ? reach - 0.5 : reach - 1)
    try {
      await goto(run, new goals.GoalNear(p.x, p.y, p.z, range), what, () => distance() <= reach)
    } catch (err) {
      if (err instanceof ActionFailure && err.reason === 'no_path')
        fail('no_path', `${err.message.replace(/\.$/, '')}; ${distance().toFixed(1)} blocks left.`)
      throw err
    }
  }
}
