/**
 * The fight-or-flee reflex: when the bot is hurt by a real attacker (the damage event's source entity), it flees at
 * low health, when it carries no weapon or when three or more hostile mobs are close (a mob, not a player it may
 * fight), or fights back with mineflayer-pvp — but only against a hostile mob or a neutral one that really attacks
 * (bee, golem …), never against a player (unless `fightPlayers` is on), a tameable or tamed animal or a passive
 * mob — the same rule and sentences as the safety policy (src/rules/policy.ts). A hostile mob (by the registry's
 * category) coming at the bot is met before it hits: struck first when the bot is armed, walked away from when not —
 * unless the bot is walled and roofed in (hiding), where no mob can reach it — and walked away from, armed or not, when
 * three or more are close (a flight runs from the middle of the group). On the move, an armed bot swats a mob
 * aside (a hit as the swing recharges) and walks on instead of stopping to fight; fights are for a bot that stands.
 * Damage with no source (fall, fire, lava, cactus, drowning) is never answered with a hit: there is no one to
 * fight, and the creature standing next to the bot did not do it. Every decision is recorded, including "not fighting".
 */
import type { Bot } from 'mineflayer'
import type { Entity } from 'prismarine-entity'
import { Vec3 } from 'vec3'
import pathfinderPkg from 'mineflayer-pathfinder'
import { getCooldown } from 'mineflayer-pvp/lib/Cooldown.js'
import { bestWeaponOf, NEVER_PLAYERS, neverPet, TAMEABLE } from '../../rules/policy.js'
import { sealedIn } from '../../perception/vision.js'
import { logger } from '../../util/log.js'
import { hostilesNear, isHostileMob } from '../threats.js'
import type { AttachedReflex, ReflexHost, ReflexOptions, ReflexPlugin } from './index.js'

const log = logger('combat')

const { goals } = pathfinderPkg

/** A fight the reflex starts ends by this time at the latest (it ends sooner when the attacker dies). */
export const FIGHT_MS = 10_000
const FLEE_MS = 4_000
const FLEE_DISTANCE = 12
/**
 * An unarmed flight runs farther and longer: what it gains is the time to gather before the mob is back (a log by
 * hand takes 3 s). Stopping 12 blocks off left about 3 s before the zombie was within STEP_AWAY_RANGE again, and
 * bench mp5 c15 3-4 seed 3 (a night start, one zombie at its heels) fled 40 times in 200 s without a log and died.
 */
const UNARMED_FLEE_MS = 6_000
const UNARMED_FLEE_DISTANCE = 24
/**
 * A hostile mob coming at the bot is met before it hits: armed, the bot strikes first once it is this close (a
 * player reaches 3 blocks, a zombie 1.6, and every hit knocks it back); unarmed, it walks away at this distance.
 */
const STRIKE_FIRST_RANGE = 3.5
const STEP_AWAY_RANGE = 5
/** A player's reach: a mob is swatted aside on the move within this. */
const SWAT_RANGE = 3
/** A mob being fought this close (a hit knocks it a block or two back) is fought on when another one hits the bot. */
const KEEP_TARGET_RANGE = 6
/** How often the reflex looks for a mob coming at the bot. */
const WATCH_MS = 250
/**
 * Hostile mobs within OUTNUMBERED_RANGE at which even an armed bot walks away from the group instead of standing to
 * fight: a wooden sword needs five hits per zombie, and three zombies hit for about 9 a second (bench mp5 c14 2-4 seed
 * 2: a night start among five to seven zombies, armed at 31 s, fought, dead at 49 s). Two are still fought.
 */
const OUTNUMBERED = 3
const OUTNUMBERED_RANGE = 8
/** Hostile mobs this close make up the group a flight runs from. */
const GROUP_RANGE = 16
/** Why an armed bot runs from an OUTNUMBERED group. */
const TOO_MANY = 'too many hostile mobs are at me to fight'

/** The best weapon in the inventory, or null (then the fist). */
export function bestWeapon(bot: Bot): string | null {
  return bestWeaponOf(bot.inventory.items().map((i) => i.name))
}

/** Mobs outside the "Hostile mobs" category that do attack and cannot be anyone's pet. */
const NEUTRAL_ATTACKERS = new Set(['bee', 'polar_bear', 'iron_golem', 'goat', 'panda', 'dolphin'])

function nameOf(e: Entity): string {
  return e.type === 'player' ? (e.username ?? 'a player') : `the ${e.name ?? 'creature'}`
}

/** True for an animal with an owner (tamed wolf, cat, parrot, horse …), read from its metadata. */
export function isTamed(bot: Bot, e: Entity): boolean {
  const keys = e.name
    ? (bot.registry.entitiesByName[e.name] as { metadataKeys?: string[] } | undefined)?.metadataKeys
    : undefined
  const i = keys ? keys.findIndex((k) => k === 'owneruuid' || k === 'owner_uuid') : -1
  if (i < 0) return false
  const owner: unknown = e.metadata[i]
  return owner !== undefined && owner !== null && owner !== ''
}

/** Whether the bot may hit back at this attacker, and why not. */
export function mayFightBack(
  bot: Bot,
  attacker: Entity,
  options: ReflexOptions,
): { ok: true } | { ok: false; why: string } {
  if (!options.fightBack) return { ok: false, why: 'fighting back is turned off.' }
  if (attacker.type === 'player') return options.fightPlayers ? { ok: true } : { ok: false, why: NEVER_PLAYERS }
  if (isTamed(bot, attacker) || (attacker.name !== undefined && TAMEABLE.has(attacker.name)))
    return { ok: false, why: neverPet(attacker.name ?? 'creature') }
  if (isHostileMob(bot, attacker) || (attacker.name !== undefined && NEUTRAL_ATTACKERS.has(attacker.name)))
    return { ok: true }
  return { ok: false, why: `${nameOf(attacker)} is not hostile.` }
}

/**
 * Hold the best weapon the bot carries. mineflayer-pvp swings whatever is in hand, and a crafted sword lands in a
 * free slot while the hand keeps the logs or planks it held: a fist's 1 damage against a zombie's 20 health (bench
 * mp5 2-3, 2026-11-26: six deaths in one night). Resolves when the weapon is in hand, or at once without one.
 */
export async function holdWeapon(bot: Bot): Promise<void> {
  const name = bestWeapon(bot)
  if (name === null || bot.heldItem?.name === name) return
  const item = bot.inventory.items().find((i) => i.name === name)
  if (item) await bot.equip(item, 'hand')
}

/**
 * Start mineflayer-pvp on `target` with the bot's own pathfinder movements (pvp would otherwise swap in its own,
 * which dig and scaffold with anything, and keep them after the fight). The caller puts the weapon in hand.
 */
export function startFight(bot: Bot, target: Entity): void {
  bot.pvp.movements = bot.pathfinder.movements
  void bot.pvp.attack(target).catch(() => {})
}

/**
 * End any pvp fight at once. mineflayer-pvp's own `stop()` waits up to 5 s for a `path_stop` the pathfinder never
 * sends while the bot stands within follow range (then drops every `path_stop` listener); `forceStop` plus clearing
 * the goal ends it now and also releases a stop request that `stop()` left pending.
 */
export function endFight(bot: Bot): void {
  try {
    bot.pvp.forceStop()
  } catch {
    /* not fighting */
  }
  bot.pathfinder.setGoal(null)
}

function attach(host: ReflexHost): AttachedReflex {
  const { bot, options } = host
  let busyUntil = 0
  let fighting: Entity | null = null
  let fleeGoal: InstanceType<typeof goals.GoalInvert> | null = null

  /** How many hostile mobs stand within `range` blocks (`outnumbered`, and the debug log's view of a fight). */
  const hostilesWithin = (range: number): number => hostilesNear(bot, bot.entity.position, range).length

  /** Too many hostile mobs close by to stand and fight (OUTNUMBERED). */
  const outnumbered = (): boolean => hostilesWithin(OUTNUMBERED_RANGE) >= OUTNUMBERED

  /** Away from the attacker, or from the middle of the group when more than one hostile mob is near. */
  const fleeGoalFrom = (attacker: Entity, distance: number): InstanceType<typeof goals.GoalInvert> => {
    const group = hostilesNear(bot, bot.entity.position, GROUP_RANGE)
    if (group.length < 2) return new goals.GoalInvert(new goals.GoalFollow(attacker, distance))
    const c = group.reduce((sum, e) => sum.plus(e.position), new Vec3(0, 0, 0)).scaled(1 / group.length)
    return new goals.GoalInvert(new goals.GoalNear(c.x, c.y, c.z, distance))
  }

  const flee = (attacker: Entity, why: string): void => {
    log.debug('flee', { health: bot.health, food: bot.food, hostilesWithin8: hostilesWithin(8) })
    // a pvp fight under way (an attack action's, a hunt's) would steer the body back at once: ended first, so its
    // 'stoppedAttacking' comes before the flight's busy time is set
    endFight(bot)
    fighting = null
    host.stopMoving()
    const armed = bestWeapon(bot) !== null
    const fleeMs = armed ? FLEE_MS : UNARMED_FLEE_MS
    const goal = fleeGoalFrom(attacker, armed ? FLEE_DISTANCE : UNARMED_FLEE_DISTANCE)
    fleeGoal = goal
    bot.pathfinder.setGoal(goal, true)
    busyUntil = Date.now() + fleeMs
    // stop fleeing after a while, unless something else has taken the pathfinder since
    host.later(() => {
      if (bot.pathfinder.goal === goal) host.stopMoving()
      if (fleeGoal === goal) fleeGoal = null
    }, fleeMs)
    host.takeOver('flee', `I ran from ${nameOf(attacker)} because ${why}.`)
  }

  const fight = (attacker: Entity, how = ''): void => {
    log.debug('fight', {
      health: bot.health,
      food: bot.food,
      hostilesWithin8: hostilesWithin(8),
      held: bot.heldItem?.name,
    })
    host.stopMoving()
    busyUntil = Date.now() + FIGHT_MS
    fighting = attacker
    // the first swing waits for the swap (a slot change restarts the swing); a failed equip fights with the hand
    void holdWeapon(bot)
      .catch(() => {})
      .then(() => {
        if (fighting === attacker && Date.now() < busyUntil) startFight(bot, attacker)
      })
    // give up the fight after a while, unless it already ended or another fight started
    host.later(() => {
      if (bot.pvp.target === attacker) endFight(bot)
    }, FIGHT_MS)
    host.takeOver(
      'fight',
      `I fought back against ${attacker.type === 'player' ? nameOf(attacker) : (attacker.name ?? 'an attacker')}${how ? ` ${how}` : ''}.`,
    )
  }

  /**
   * On the move, an armed bot swats a hostile mob aside instead of stopping to fight it: one hit when the swing has
   * recharged (it knocks the mob back) and the walk goes on. Walking away, the bot outpaces a zombie (4.3 blocks/s
   * against 2.2); standing to fight one lets the others close in (bench mp5 2-3 at night: up to 9 hits taken in one
   * 8 s fight). A bot that stands (mining, crafting) or digs its way still fights. True when it swatted or waits to.
   */
  let swungAt = 0
  const swat = (mob: Entity): boolean => {
    if (!bot.pathfinder.isMoving() || fleeGoal || bot.targetDigBlock) return false
    const weapon = bestWeapon(bot)
    if (weapon === null) return false
    if (bot.heldItem?.name !== weapon) {
      // the swap restarts the swing
      swungAt = Date.now()
      void holdWeapon(bot).catch(() => {})
      return true
    }
    if (Date.now() - swungAt < getCooldown(weapon) * 50 || mob.position.distanceTo(bot.entity.position) > SWAT_RANGE)
      return true
    swungAt = Date.now()
    bot.attack(mob)
    log.debug('swat', { mob: mob.name, health: bot.health, hostilesWithin8: hostilesWithin(8) })
    return true
  }

  const onHurt = (entity: Entity, source?: Entity): void => {
    if (!bot.entity || entity !== bot.entity) return
    const attacker = source && source !== bot.entity ? source : null
    if (!attacker) {
      host.note('hurt', 'I was hurt with no attacker (a fall, fire, lava, a cactus …), so there is no one to fight.')
      return
    }
    if (host.engaged(attacker)) return
    if (bot.health <= options.fleeHealth) {
      flee(attacker, 'my health is low')
      return
    }
    const verdict = mayFightBack(bot, attacker, options)
    const mob = verdict.ok && attacker.type !== 'player'
    const armed = bestWeapon(bot) !== null
    if (mob && armed && outnumbered()) {
      flee(attacker, TOO_MANY)
      return
    }
    // one fight at a time while its mob is near: turning to each new attacker restarts the swing (a hit before the
    // cooldown does a fraction of the damage) and spreads it so that none dies
    const current =
      fighting && bot.pvp.target === fighting && !dying.has(fighting.id) ? bot.entities[fighting.id] : null
    if (current && current.position.distanceTo(bot.entity.position) <= KEEP_TARGET_RANGE) {
      host.note('hurt', `${nameOf(attacker)} hurt me; I keep fighting ${nameOf(current)} first.`)
      return
    }
    // bare hands against a mob that hits back (a zombie has 20 health, a fist does 1): walking away is safer, and a
    // zombie walks at half a player's speed
    if (mob && !armed) flee(attacker, 'I have no weapon')
    else if (mob && swat(attacker)) return
    else if (verdict.ok) fight(attacker)
    else host.note('hurt', `${nameOf(attacker)} hurt me; I am not fighting back: ${verdict.why}`)
  }
  // a hostile mob (the registry's category, never a neutral or passive one) closing in, or already at arm's length;
  // never one already dying (its body lies there until the server removes it)
  const lastDistance = new Map<number, number>()
  const dying = new Set<number>()
  const onDead = (e: Entity): void => {
    dying.add(e.id)
    if (e.id === fighting?.id) log.debug('killed', { name: e.name, health: bot.health })
  }
  const onGone = (e: Entity): void => {
    dying.delete(e.id)
  }
  const comingAt = (range: number): Entity | null => {
    const me = bot.entity.position
    let best: Entity | null = null
    const seen = new Map<number, number>()
    for (const e of Object.values(bot.entities)) {
      if (e === bot.entity || !e.name || e.type === 'player' || dying.has(e.id)) continue
      const d = e.position.distanceTo(me)
      if (d > range + 2) continue
      seen.set(e.id, d)
      if (!isHostileMob(bot, e) || d > range || host.engaged(e)) continue
      const closing = d < (lastDistance.get(e.id) ?? Number.POSITIVE_INFINITY) - 0.05 || d < 2
      if (closing && (!best || d < best.position.distanceTo(me))) best = e
    }
    lastDistance.clear()
    for (const [id, d] of seen) lastDistance.set(id, d)
    return best
  }
  const watch = setInterval(() => {
    if (!bot.entity || !options.fightBack || Date.now() < busyUntil || bot.health <= 0) return
    // walled and roofed in (hiding for the night): a mob outside cannot reach in, and a fight would dig the bot out
    if (sealedIn(bot)) return
    const armed = bestWeapon(bot) !== null
    const threat = comingAt(armed ? STRIKE_FIRST_RANGE : STEP_AWAY_RANGE)
    if (!threat) return
    if (!armed) flee(threat, 'I have no weapon')
    else if (bot.health <= options.fleeHealth) flee(threat, 'my health is low')
    else if (outnumbered()) flee(threat, TOO_MANY)
    else if (!swat(threat)) fight(threat, 'as it came at me')
  }, WATCH_MS)

  const onStoppedAttacking = (): void => {
    busyUntil = 0
    fighting = null
  }

  // mineflayer-pvp's 'stoppedAttacking' is not in mineflayer's typed events
  const pvpEvents = bot as unknown as NodeJS.EventEmitter
  bot.on('entityHurt', onHurt)
  bot.on('entityDead', onDead)
  bot.on('entityGone', onGone)
  pvpEvents.on('stoppedAttacking', onStoppedAttacking)
  return {
    busy: () => Date.now() < busyUntil,
    detach() {
      clearInterval(watch)
      bot.removeListener('entityHurt', onHurt)
      bot.removeListener('entityDead', onDead)
      bot.removeListener('entityGone', onGone)
      pvpEvents.removeListener('stoppedAttacking', onStoppedAttacking)
      if (fighting && bot.pvp.target === fighting) endFight(bot)
      if (fleeGoal && bot.pathfinder.goal === fleeGoal) host.stopMoving()
      fighting = null
      fleeGoal = null
      busyUntil = 0
    },
  }
}

const plugin: ReflexPlugin = { name: 'combat', attach }
export default plugin
