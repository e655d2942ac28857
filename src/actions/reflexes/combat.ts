/**
 * The fight-or-flee reflex: when the bot is hurt by a real attacker (the damage event's source entity), it flees at
 * low health or when it carries no weapon (a mob, not a player it may fight), or fights back with mineflayer-pvp — but only against a hostile mob or a neutral one that really
 * attacks (bee, golem …), never against a player (unless `fightPlayers` is on), a tameable or tamed animal or a
 * passive mob — the same rule and sentences as the safety policy (src/rules/policy.ts). Damage with no source (fall, fire, lava, cactus, drowning) is never answered with a hit: there is no one to
 * fight, and the creature standing next to the bot did not do it. Every decision is recorded, including "not fighting".
 */
import type { Bot } from 'mineflayer'
import type { Entity } from 'prismarine-entity'
import pathfinderPkg from 'mineflayer-pathfinder'
import { NEVER_PLAYERS, neverPet, TAMEABLE } from '../../rules/policy.js'
import type { AttachedReflex, ReflexHost, ReflexOptions, ReflexPlugin } from './index.js'

const { goals } = pathfinderPkg

const FIGHT_MS = 10_000
const FLEE_MS = 4_000
const FLEE_DISTANCE = 12
/** Weapons the guard, attack-a-mob requests and this reflex count on, best first. */
export const WEAPONS = [
  'netherite_sword',
  'diamond_sword',
  'iron_sword',
  'stone_sword',
  'golden_sword',
  'wooden_sword',
  'netherite_axe',
  'diamond_axe',
  'iron_axe',
  'stone_axe',
]

/** The best weapon in the inventory, or null (then the fist). */
export function bestWeapon(bot: Bot): string | null {
  return WEAPONS.find((w) => bot.inventory.items().some((i) => i.name === w)) ?? null
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
  const category = attacker.name
    ? (bot.registry.entitiesByName[attacker.name] as { category?: string } | undefined)?.category
    : undefined
  if (category === 'Hostile mobs' || (attacker.name !== undefined && NEUTRAL_ATTACKERS.has(attacker.name)))
    return { ok: true }
  return { ok: false, why: `${nameOf(attacker)} is not hostile.` }
}

/**
 * Start mineflayer-pvp on `target` with the bot's own pathfinder movements (pvp would otherwise swap in its own,
 * which dig and scaffold with anything, and keep them after the fight).
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

  const flee = (attacker: Entity, why: string): void => {
    host.stopMoving()
    const goal = new goals.GoalInvert(new goals.GoalFollow(attacker, FLEE_DISTANCE))
    fleeGoal = goal
    bot.pathfinder.setGoal(goal, true)
    busyUntil = Date.now() + FLEE_MS
    // stop fleeing after a while, unless something else has taken the pathfinder since
    host.later(() => {
      if (bot.pathfinder.goal === goal) host.stopMoving()
      if (fleeGoal === goal) fleeGoal = null
    }, FLEE_MS)
    host.takeOver('flee', `I ran from ${nameOf(attacker)} because ${why}.`)
  }

  const fight = (attacker: Entity): void => {
    host.stopMoving()
    busyUntil = Date.now() + FIGHT_MS
    fighting = attacker
    startFight(bot, attacker)
    // give up the fight after a while, unless it already ended or another fight started
    host.later(() => {
      if (bot.pvp.target === attacker) endFight(bot)
    }, FIGHT_MS)
    host.takeOver(
      'fight',
      `I fought back against ${attacker.type === 'player' ? nameOf(attacker) : (attacker.name ?? 'an attacker')}.`,
    )
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
    // bare hands against a mob that hits back (a zombie has 20 health, a fist does 1): walking away is safer, and a
    // zombie walks at half a player's speed
    if (verdict.ok && attacker.type !== 'player' && bestWeapon(bot) === null) flee(attacker, 'I have no weapon')
    else if (verdict.ok) fight(attacker)
    else host.note('hurt', `${nameOf(attacker)} hurt me; I am not fighting back: ${verdict.why}`)
  }
  const onStoppedAttacking = (): void => {
    busyUntil = 0
    fighting = null
  }

  // mineflayer-pvp's 'stoppedAttacking' is not in mineflayer's typed events
  const pvpEvents = bot as unknown as NodeJS.EventEmitter
  bot.on('entityHurt', onHurt)
  pvpEvents.on('stoppedAttacking', onStoppedAttacking)
  return {
    busy: () => Date.now() < busyUntil,
    detach() {
      bot.removeListener('entityHurt', onHurt)
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
