/**
 * `give(object, count, to)`: hand exactly `count` of an item to an online player — walk within 2 blocks of them
 * (pathfinder, under the run's budget and AbortSignal), look at their feet, let the look reach the server (a toss
 * flies along the look the *server* last heard, so tossing in the same tick as the look throws it along the old
 * one, past the player), toss exactly that many of exactly that item (other items, tools included, never leave the
 * inventory), and verify from inventory events that they left the bot. Whether the player picked them up is read
 * from the server's collect packets (collector = the player, collected = an item entity of that item, counted); when
 * the bot takes its own toss back (it stood too near the landing spot), it waits for all of it, steps nearer and
 * tosses again (at most `TOSS_ATTEMPTS` times); when someone else takes it, the give fails `unverified` naming them.
 * The bot stands still before it tosses.
 * Fails with `not_found` (player offline or not in sight), `no_path` (cannot get near them) or `missing_materials`.
 */
import type { Bot } from 'mineflayer'
import type { Entity } from 'prismarine-entity'
import type { Vec3 } from 'vec3'
import type { Action } from '../schemas/action.js'
import { onceEvent } from '../util/async.js'
import { logger } from '../util/log.js'
import { playerEntity } from './come.js'
import { droppedStack } from './drops.js'
import { countOf, fail, type Run } from './types.js'
import { goals, goto } from './world.js'

const log = logger('actions.give')

/** How close (blocks, to the player's feet) the bot gets before tossing: a toss at the feet lands about there. */
export const GIVE_REACH = 2.5
/** Closer than this (horizontally) the bot steps back before tossing: both pickup boxes would cover the landing spot. */
const TOO_CLOSE = 1.5
/** How long to wait for the tossed items to leave the inventory, and (after that) for the player to pick them up. */
const LEAVE_TIMEOUT_MS = 5_000
const PICKUP_TIMEOUT_MS = 6_000
/** Tosses tried when the bot takes its own toss back; approaches tried when it cannot stand still within reach. */
const TOSS_ATTEMPTS = 3
const APPROACH_TRIES = 3
/** Ticks to wait for the bot to stop moving before it tosses. */
const SETTLE_TICKS = 10

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

/**
 * Who took a toss: the player (all of it), the bot itself (any of it: it stood too near its landing spot), someone
 * else (`by`: a name, or an entity id when the bot does not know whose), or nobody yet.
 */
type TossOutcome = { by: 'player' | 'self' | 'none' } | { by: 'other'; who: string }

/**
 * Resolves who picks up the toss of `count` items named `name`, from the server's collect packets: 'player' once
 * `collector` has taken `count` (summed over packets), 'self' as soon as the bot takes any back, 'other' as soon as
 * anyone else does, 'none' on timeout. Starts listening at once, so packets that arrive while the caller is still
 * tossing count.
 */
function watchToss(
  bot: Bot,
  collector: number,
  name: string,
  count: number,
  signal: AbortSignal,
): Promise<TossOutcome> {
  let taken = 0
  let outcome: TossOutcome = { by: 'none' }
  // an item entity without item metadata is not ours to count
  const itemName = (id: number): string | null => droppedStack(bot.entities[id])?.name ?? null
  return onceEvent<[{ collectorEntityId: number; collectedEntityId: number; pickupItemCount?: number }]>(
    bot._client,
    'collect',
    {
      timeoutMs: LEAVE_TIMEOUT_MS + PICKUP_TIMEOUT_MS,
      signal,
      // counts as it filters: resolves on the packet that completes `count`, or on the bot's own pickup
      filter: (p) => {
        if (itemName(p.collectedEntityId) !== name) return false
        if (p.collectorEntityId === bot.entity.id) outcome = { by: 'self' }
        else if (p.collectorEntityId === collector) {
          taken += p.pickupItemCount ?? 1
          if (taken >= count) outcome = { by: 'player' }
        } else {
          const who = bot.entities[p.collectorEntityId]?.username ?? `entity ${p.collectorEntityId}`
          outcome = { by: 'other', who }
        }
        return outcome.by !== 'none'
      },
    },
  ).then(
    () => outcome,
    () => ({ by: 'none' }) as const,
  )
}

export async function give(run: Run, action: Extract<Action, { type: 'give' }>): Promise<string> {
  const { bot } = run
  const have = countOf(bot, [action.object])
  if (have < action.count)
    fail('missing_materials', `I have only ${have} ${action.object}, not the ${action.count} to give ${action.to}.`)
  const target = playerEntity(bot, action.to)
  const name = target.username ?? action.to
  run.progress.setTarget(() => target.position.distanceTo(bot.entity.position))
  for (let attempt = 1; ; attempt++) {
    await approach(run, target, name)
    const outcome = await tossAt(run, target, action.object, action.count)
    if (outcome.by === 'player') return `I gave ${action.count} ${action.object} to ${name}.`
    if (outcome.by === 'other')
      fail('unverified', `${outcome.who} picked up the ${action.object} I tossed to ${name} before ${name} did.`)
    if (outcome.by === 'none' || attempt === TOSS_ATTEMPTS) break
    // the bot took (some of) its own toss back: once all of it is back in hand, go nearer and toss again
    log.info('took own toss back; tossing again', { attempt })
    if (!(await waitForCount(bot, action.object, have, run.signal))) break
  }
  const items = Object.values(bot.entities).filter(
    (e) => e.name === 'item' && e.position.distanceTo(target.position) < 6,
  )
  log.warn('toss not picked up', {
    bot: bot.entity.position.toString(),
    player: target.position.toString(),
    items: items.map((e) => e.position.toString()).join(' '),
  })
  if (countOf(bot, [action.object]) >= have)
    fail('unverified', `${name} did not pick up the ${action.object} I tossed, and I have them again.`)
  return `I dropped ${action.count} ${action.object} at ${name}'s feet; they have not picked them up yet.`
}

/**
 * Get within reach of the player, not on their spot, and stand still (a toss while the pathfinder's last step still
 * carries the bot leaves from further away than planned and can land by the bot, which then takes it back).
 */
async function approach(run: Run, target: Entity, name: string): Promise<void> {
  const { bot } = run
  for (let i = 0; i < APPROACH_TRIES; i++) {
    while (target.position.distanceTo(bot.entity.position) > GIVE_REACH) {
      if (!bot.players[name]?.entity) fail('not_found', `I lost sight of ${name}.`)
      run.step()
      const p = target.position
      await goto(run, new goals.GoalNear(p.x, p.y, p.z, 1), name)
    }
    await stepOffPlayer(run, target.position, name)
    await settle(bot)
    if (target.position.distanceTo(bot.entity.position) <= GIVE_REACH) return
  }
  fail('no_path', `I could not stand still within reach of ${name}.`)
}

/** Aim at the player's feet, toss exactly `count`, verify they left the inventory, and say who picked them up. */
async function tossAt(run: Run, target: Entity, object: string, count: number): Promise<TossOutcome> {
  const { bot } = run
  await aimAt(bot, target.position)
  run.check()
  const have = countOf(bot, [object])
  const taken = watchToss(bot, target.id, object, count, run.signal)
  const goal = have - count
  const left = waitForCount(bot, object, goal, run.signal)
  await tossExactly(run, object, count)
  if (!(await left)) {
    fail(
      'unverified',
      `I tossed ${count} ${object} but my inventory shows ${countOf(bot, [object])} left instead of ${goal}.`,
    )
  }
  return taken
}

/** Wait (a few ticks at most) until the bot stands on the ground with no horizontal motion left. */
async function settle(bot: Bot): Promise<void> {
  for (let i = 0; i < SETTLE_TICKS; i++) {
    const v = bot.entity.velocity
    if (bot.entity.onGround && Math.hypot(v.x, v.z) < 0.01) return
    await bot.waitForTicks(1)
  }
}

/**
 * Standing on (or nearly on) the player's spot, a toss lands between both pickup boxes and either may take it (at a
 * shared spawn point the bot took its own toss back): step out to more than one block away first, staying in reach.
 */
async function stepOffPlayer(run: Run, feet: Vec3, name: string): Promise<void> {
  const d = feet.minus(run.bot.entity.position)
  if (Math.hypot(d.x, d.z) >= TOO_CLOSE) return
  run.step()
  await goto(run, new goals.GoalInvert(new goals.GoalNear(feet.x, feet.y, feet.z, TOO_CLOSE)), name)
}

/**
 * Look at a player's feet and wait until that look has gone to the server (the physics tick sends it): from within
 * 2.5 blocks the throw (6 blocks/s from the eyes) then lands at about their feet. Re-aims when something else
 * (the pathfinder's last step) turned the head in that tick; at most a few ticks.
 */
async function aimAt(bot: Bot, feet: Vec3): Promise<void> {
  for (let i = 0; i < 5; i++) {
    const d = feet.minus(bot.entity.position)
    // standing on the player's spot: straight down (lookAt's yaw would be atan2(0, 0))
    if (Math.hypot(d.x, d.z) < 0.3) await bot.look(bot.entity.yaw, -Math.PI / 2, true)
    else await bot.lookAt(feet.offset(0, 0.1, 0), true)
    const { yaw, pitch } = bot.entity
    await bot.waitForTicks(1)
    if (Math.abs(bot.entity.yaw - yaw) < 0.01 && Math.abs(bot.entity.pitch - pitch) < 0.01) return
  }
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
