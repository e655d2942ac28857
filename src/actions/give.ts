/**
 * `give(object, count, to)`: hand exactly `count` of an item to an online player — walk within 3 blocks of them
 * (pathfinder, under the run's budget and AbortSignal), look at them, toss exactly that many of exactly that item
 * (other items, tools included, never leave the inventory), and verify from inventory events that they left the bot.
 * Whether the player picked them up is reported from the server's collect event. Fails with `not_found` (player
 * offline or not in range), `no_path` (cannot get near them) or `missing_materials` (not enough of the item).
 */
import type { Bot } from 'mineflayer'
import type { Entity } from 'prismarine-entity'
import type { Action } from '../schemas/action.js'
import { onceEvent } from '../util/async.js'
import { countOf, fail, type Run } from './types.js'
import { goals, goto } from './world.js'

/** How close (blocks) the bot gets to the player before tossing. */
export const GIVE_REACH = 3
/** How long to wait for the tossed items to leave the inventory, and for the player to pick them up. */
const LEAVE_TIMEOUT_MS = 5_000
const PICKUP_TIMEOUT_MS = 4_000

function playerEntity(bot: Bot, name: string): Entity {
  const p = bot.players[name]
  if (!p || name === bot.username) fail('not_found', `${name} is not online.`)
  if (!p.entity) fail('not_found', `I can't see ${name}; they are too far away for me to find.`)
  return p.entity
}

/** Toss exactly `count` of items named `name`, stack by stack, never any other item. */
async function tossExactly(run: Run, name: string, count: number): Promise<void> {
  const { bot } = run
  let left = count
  while (left > 0) {
    run.check()
    const stack = bot.inventory.items().find((i) => i.name === name)
    if (!stack) fail('missing_materials', `I ran out of ${name} with ${left} still to give.`)
    const n = Math.min(left, stack.count)
    await bot.toss(stack.type, null, n)
    left -= n
  }
}

export async function give(run: Run, action: Extract<Action, { type: 'give' }>): Promise<string> {
  const { bot } = run
  const have = countOf(bot, [action.object])
  if (have < action.count)
    fail('missing_materials', `I have only ${have} ${action.object}, not the ${action.count} to give ${action.to}.`)
  const target = playerEntity(bot, action.to)
  run.progress.setTarget(() => target.position.distanceTo(bot.entity.position))
  while (target.position.distanceTo(bot.entity.position) > GIVE_REACH) {
    if (!bot.players[action.to]?.entity) fail('not_found', `I lost sight of ${action.to}.`)
    run.step()
    const p = target.position
    await goto(run, new goals.GoalNear(p.x, p.y, p.z, GIVE_REACH - 1), action.to)
  }
  // aim at their feet: the throw (6 blocks/s) then lands about 1.5 blocks ahead, inside their pickup box
  await bot.lookAt(target.position.offset(0, 0.2, 0), true)
  run.check()
  const pickedUp = onceEvent<[Entity, Entity]>(bot, 'playerCollect', {
    timeoutMs: PICKUP_TIMEOUT_MS + LEAVE_TIMEOUT_MS,
    signal: run.signal,
    filter: (collector) => collector.id === target.id,
  }).then(
    () => true,
    () => false,
  )
  const goal = have - action.count
  const left = waitForCount(bot, action.object, goal, run.signal)
  await tossExactly(run, action.object, action.count)
  if (!(await left)) {
    fail(
      'unverified',
      `I tossed ${action.count} ${action.object} but my inventory shows ${countOf(bot, [action.object])} left instead of ${goal}.`,
    )
  }
  const taken = await pickedUp
  return taken
    ? `I gave ${action.count} ${action.object} to ${action.to}.`
    : `I dropped ${action.count} ${action.object} at ${action.to}'s feet; they have not picked them up yet.`
}

/** Resolves true once the bot holds exactly `goal` of `name` (checked on every inventory slot update), false on timeout. */
async function waitForCount(bot: Bot, name: string, goal: number, signal: AbortSignal): Promise<boolean> {
  if (countOf(bot, [name]) === goal) return true
  return onceEvent(bot.inventory, 'updateSlot', {
    timeoutMs: LEAVE_TIMEOUT_MS,
    signal,
    filter: () => countOf(bot, [name]) === goal,
  }).then(
    () => true,
    () => countOf(bot, [name]) === goal,
  )
}
