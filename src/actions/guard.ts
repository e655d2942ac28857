/**
 * `guard(player)` (issue 17): stay within a few blocks of the player and intercept hostile mobs: any that comes
 * within `DEFEND_RANGE` of the player (far beyond a melee mob's reach) or `CLOSE_RANGE` of the bot is met on its way
 * in — the bot runs at it and fights it, so it ends up between the mob and the player (a mob goes for the nearest
 * player) — until stopped or the player leaves the game (then it ends ok). The loop looks every `WATCH_EVERY_MS`,
 * also while walking back to the player (the walk is cut short when a threat shows up), and one rule says what is a
 * threat both when picking a mob and while fighting it (with `LEASH_SLACK` more room), so it never spins. Who may be
 * hit is the combat reflex's one rule (`mayFightBack`: hostile mobs and neutral attackers, never a player, a tameable
 * or tamed animal or a passive mob), so guarding never hits the player or the cow beside them; mineflayer-pvp does
 * the hitting and only ever swings at its one target. While guarding, every hostile that comes at the bot is the
 * guard's to answer (the fight-back reflex leaves them alone); each fight starts with the best weapon held. At low health it stops fighting and keeps the player
 * between itself and the mob (the eat reflex eats).
 */
import type { Bot } from 'mineflayer'
import type { Entity } from 'prismarine-entity'
import type { Action } from '../schemas/action.js'
import { sleep } from '../util/async.js'
import { pursueEntity } from './approach.js'
import { onlineName, playerEntity } from './come.js'
import { bestWeapon, endFight, mayFightBack, startFight } from './reflexes/combat.js'
import { DEFAULT_REFLEXES, reflexesOf } from './reflexes/index.js'
import { ActionFailure, type Run } from './types.js'
import { equipNamed, goals, goto } from './world.js'

/** Keep within this many blocks of the player when nothing threatens. */
export const GUARD_REACH = 3
/** Hostile mobs this close to the player are met and fought (a zombie hits from ~1.6 blocks). */
export const DEFEND_RANGE = 16
/** Hostile mobs this close to the bot are fought too: they are coming at it. */
export const CLOSE_RANGE = 4
/** A fight goes on while the mob stays within the ranges above plus this much (no flapping at the edge). */
export const LEASH_SLACK = 4
/** At or below this health the bot stops fighting and falls back behind the player. */
export const RETREAT_HEALTH = 8
/** How often the guard looks around (and checks a fight). */
const WATCH_EVERY_MS = 100
/** Whether the guard may hit this entity: never players, pets or passive animals (the reflex's rule). */
export function mayHit(bot: Bot, e: Entity): boolean {
  return (
    e.type !== 'player' &&
    e !== bot.entity &&
    mayFightBack(bot, e, { ...DEFAULT_REFLEXES, fightBack: true, fightPlayers: false }).ok
  )
}

/** The one threat rule: a hittable mob within `DEFEND_RANGE + slack` of the player or `CLOSE_RANGE + slack` of the bot. */
export function threatens(bot: Bot, player: Entity, e: Entity, slack = 0): boolean {
  return (
    mayHit(bot, e) &&
    (e.position.distanceTo(player.position) <= DEFEND_RANGE + slack ||
      e.position.distanceTo(bot.entity.position) <= CLOSE_RANGE + slack)
  )
}

/** The threat nearest the player (dead ones excluded: a body stays in view for its death animation). */
export function nearestThreat(bot: Bot, player: Entity, dead: ReadonlySet<number>): Entity | null {
  let best: Entity | null = null
  let bestD = Infinity
  for (const e of Object.values(bot.entities)) {
    if (dead.has(e.id) || !threatens(bot, player, e)) continue
    const d = e.position.distanceTo(player.position)
    if (d < bestD) {
      best = e
      bestD = d
    }
  }
  return best
}

/**
 * Fight `target` with mineflayer-pvp until it dies, stops being `stillThreat`, or health drops to RETREAT_HEALTH.
 * Looks every WATCH_EVERY_MS (at least once, so a caller's loop always yields); the pvp fight is ended on the way out.
 */
export async function fightMob(run: Run, target: Entity, stillThreat: () => boolean): Promise<'dead' | 'gone' | 'low'> {
  const { bot } = run
  if (!mayHit(bot, target)) return 'gone'
  let died = false
  const onDead = (e: Entity): void => {
    if (e.id === target.id) died = true
  }
  bot.on('entityDead', onDead)
  try {
    const weapon = bestWeapon(bot)
    if (weapon && bot.heldItem?.name !== weapon) await equipNamed(run, weapon)
    startFight(bot, target)
    for (;;) {
      await sleep(WATCH_EVERY_MS, run.signal).catch(() => run.check())
      run.step()
      if (died || !bot.entities[target.id]) return 'dead'
      if (bot.health <= RETREAT_HEALTH) return 'low'
      if (!stillThreat()) return 'gone'
    }
  } finally {
    bot.removeListener('entityDead', onDead)
    endFight(bot)
  }
}

/** Step to the far side of the player from the mob. */
async function fallBack(run: Run, player: Entity, mob: Entity): Promise<void> {
  const away = player.position.minus(mob.position)
  const len = Math.max(0.1, Math.hypot(away.x, away.z))
  const spot = player.position.offset((away.x / len) * 2, 0, (away.z / len) * 2).floored()
  await goto(run, new goals.GoalNear(spot.x, spot.y, spot.z, 1), `behind ${player.username ?? 'the player'}`).catch(
    (err) => {
      run.check() // stopped while walking: end as interrupted, not as the walk's own failure
      if (!(err instanceof ActionFailure)) throw err
    },
  )
}

/** Walk back to the player; the walk is cut short (its goal cleared) as soon as `threat()` sees something. */
async function rejoin(run: Run, player: Entity, name: string, threat: () => boolean): Promise<void> {
  const { bot } = run
  const watch = setInterval(() => {
    if (threat()) bot.pathfinder.setGoal(null)
  }, WATCH_EVERY_MS)
  try {
    await pursueEntity(run, player, GUARD_REACH, name)
  } catch (err) {
    run.check()
    // a walk cut short (a threat, the player moved on or just left) is looked at again by the guard loop
    if (!(err instanceof ActionFailure) || err.reason === 'no_path') throw err
  } finally {
    clearInterval(watch)
  }
}

export async function guard(run: Run, action: Extract<Action, { type: 'guard' }>): Promise<string> {
  const { bot } = run
  let kills = 0
  const dead = new Set<number>()
  const onDead = (e: Entity): void => {
    dead.add(e.id)
  }
  bot.on('entityDead', onDead)
  // every hostile that comes at the bot is the guard's to answer: the fight-back reflex does not take the body
  const reflexes = reflexesOf(bot)
  reflexes?.setEngaged((e) => mayHit(bot, e))
  try {
    for (;;) {
      run.check()
      const name = onlineName(bot, action.player)
      if (!name)
        return `${action.player} left the game, so I stopped guarding (${kills} mob${kills === 1 ? '' : 's'} fought off).`
      const player = playerEntity(bot, name)
      const threat = nearestThreat(bot, player, dead)
      if (threat && bot.health > RETREAT_HEALTH) {
        const r = await fightMob(run, threat, () => threatens(bot, player, threat, LEASH_SLACK))
        if (r === 'dead') kills++
        continue // fightMob waited at least one look
      }
      if (threat) await fallBack(run, player, threat)
      else if (player.position.distanceTo(bot.entity.position) > GUARD_REACH + 2)
        await rejoin(run, player, name, () => nearestThreat(bot, player, dead) !== null)
      run.step()
      await sleep(WATCH_EVERY_MS, run.signal).catch(() => run.check())
    }
  } finally {
    bot.removeListener('entityDead', onDead)
    reflexes?.setEngaged(null)
  }
}
