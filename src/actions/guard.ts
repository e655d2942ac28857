/**
 * `guard(player)` (issue 17): stay within a few blocks of the player and fight hostile mobs that come within
 * `DEFEND_RANGE` of them or of the bot, until stopped or the player leaves the game (then it ends ok). Who may be hit
 * is the combat reflex's one rule (`mayFightBack`: hostile mobs and neutral attackers, never a player, a tameable or
 * tamed animal or a passive mob), so guarding never hits the player or the cow beside them. At low health it stops
 * fighting and keeps the player between itself and the mob (the eat reflex eats); mineflayer-pvp does the hitting and
 * only ever swings at its one target. Also exports `fightMob`, the same careful fight for `attack`-a-mob requests.
 */
import type { Bot } from 'mineflayer'
import type { Entity } from 'prismarine-entity'
import type { Action } from '../schemas/action.js'
import { sleep } from '../util/async.js'
import { pursueEntity } from './approach.js'
import { onlineName, playerEntity } from './come.js'
import { mayFightBack } from './reflexes/combat.js'
import { DEFAULT_REFLEXES, reflexesOf } from './reflexes/index.js'
import { ActionFailure, type Run } from './types.js'
import { goals, goto } from './world.js'

/** Keep within this many blocks of the player when nothing threatens. */
export const GUARD_REACH = 3
/** Hostile mobs this close to the player (or the bot) are fought. */
export const DEFEND_RANGE = 10
/** At or below this health the bot stops fighting and falls back behind the player. */
export const RETREAT_HEALTH = 8
const WATCH_EVERY_MS = 200

/** Whether the guard may hit this entity: never players, pets or passive animals (the reflex's rule). */
export function mayHit(bot: Bot, e: Entity): boolean {
  return (
    e.type !== 'player' &&
    e !== bot.entity &&
    mayFightBack(bot, e, { ...DEFAULT_REFLEXES, fightBack: true, fightPlayers: false }).ok
  )
}

/** The nearest hittable mob within `range` of `centre` (the player). */
export function nearestThreat(bot: Bot, centre: Entity, range: number): Entity | null {
  let best: Entity | null = null
  let bestD = Infinity
  for (const e of Object.values(bot.entities)) {
    if (!mayHit(bot, e)) continue
    const d = Math.min(e.position.distanceTo(centre.position), e.position.distanceTo(bot.entity.position))
    if (d <= range && d < bestD) {
      best = e
      bestD = d
    }
  }
  return best
}

/** Fight `target` with mineflayer-pvp until it is gone, leaves `stillThreat`, or health drops to RETREAT_HEALTH. */
export async function fightMob(run: Run, target: Entity, stillThreat: () => boolean): Promise<'dead' | 'gone' | 'low'> {
  const { bot } = run
  if (!mayHit(bot, target)) return 'gone'
  const reflexes = reflexesOf(bot)
  reflexes?.setEngaged(target.id)
  let died = false
  const onDead = (e: Entity): void => {
    if (e.id === target.id) died = true
  }
  bot.on('entityDead', onDead)
  try {
    void bot.pvp.attack(target).catch(() => {})
    for (;;) {
      run.step()
      if (died || !bot.entities[target.id]) return 'dead'
      if (bot.health <= RETREAT_HEALTH) return 'low'
      if (!stillThreat()) return 'gone'
      await sleep(WATCH_EVERY_MS, run.signal).catch(() => run.check())
    }
  } finally {
    bot.removeListener('entityDead', onDead)
    reflexes?.setEngaged(null)
    await bot.pvp.stop().catch(() => {})
    try {
      bot.pvp.forceStop()
    } catch {
      /* idle */
    }
  }
}

/** Step onto the line from the player to the mob, `GUARD_REACH - 1` blocks out from the player (not when already nearer the mob). */
async function stepBetween(run: Run, player: Entity, mob: Entity): Promise<void> {
  const me = run.bot.entity.position
  if (me.distanceTo(mob.position) + 1 < player.position.distanceTo(mob.position)) return
  const toward = mob.position.minus(player.position)
  const len = Math.max(0.1, Math.hypot(toward.x, toward.z))
  const out = Math.min(GUARD_REACH - 1, len / 2)
  const spot = player.position.offset((toward.x / len) * out, 0, (toward.z / len) * out).floored()
  await goto(
    run,
    new goals.GoalNear(spot.x, spot.y, spot.z, 1),
    `between ${player.username ?? 'the player'} and the ${mob.name}`,
  ).catch((err) => {
    if (!(err instanceof ActionFailure)) throw err
  })
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

export async function guard(run: Run, action: Extract<Action, { type: 'guard' }>): Promise<string> {
  const { bot } = run
  let kills = 0
  for (;;) {
    run.check()
    const name = onlineName(bot, action.player)
    if (!name)
      return `${action.player} left the game, so I stopped guarding (${kills} mob${kills === 1 ? '' : 's'} fought off).`
    const player = playerEntity(bot, name)
    const threat = nearestThreat(bot, player, DEFEND_RANGE)
    if (threat && bot.health > RETREAT_HEALTH) {
      await stepBetween(run, player, threat) // a mob goes for the nearest player: make that the bot, not them
      const r = await fightMob(
        run,
        threat,
        () => !!bot.entities[threat.id] && threat.position.distanceTo(player.position) <= DEFEND_RANGE + 4,
      )
      if (r === 'dead') kills++
      continue
    }
    if (threat) {
      await fallBack(run, player, threat)
      continue
    }
    if (player.position.distanceTo(bot.entity.position) > GUARD_REACH + 2) {
      // a walk cut short because the player just left ends the guard normally (the check at the top of the loop)
      // a walk cut short (the player moved on, or just left: the check at the top of the loop) is tried again
      const walked = await pursueEntity(run, player, GUARD_REACH, name).then(
        () => true,
        (err: unknown) => {
          run.check()
          if (!(err instanceof ActionFailure) || err.reason === 'no_path') throw err
          return false
        },
      )
      if (!walked) await sleep(WATCH_EVERY_MS, run.signal).catch(() => run.check())
      continue
    }
    run.step()
    await sleep(WATCH_EVERY_MS, run.signal).catch(() => run.check())
  }
}
