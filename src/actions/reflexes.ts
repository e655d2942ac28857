/**
 * Reflexes, attached once per bot and running every physics tick whatever action runs: never walk into lava or off a
 * deadly drop (stop all movement, step back to the last safe spot), eat when hungry (mineflayer-auto-eat), fight
 * back when attacked (mineflayer-pvp) or flee when health is low. A reflex that takes over the body notifies its
 * listeners; the action registry turns that into an `unsafe` result for the running action.
 */
import type { Bot } from 'mineflayer'
import type { Entity } from 'prismarine-entity'
import pathfinderPkg from 'mineflayer-pathfinder'
import { Vec3 } from 'vec3'
import { logger } from '../util/log.js'

const { goals } = pathfinderPkg
const log = logger('reflex')

export interface ReflexOptions {
  /** Flee instead of fighting back at or below this health. */
  fleeHealth: number
  /** Eat when food is at or below this. */
  minHunger: number
  /** A fall of more than this many blocks counts as deadly. */
  maxSafeDrop: number
  fightBack: boolean
}

export const DEFAULT_REFLEXES: ReflexOptions = { fleeHealth: 6, minHunger: 14, maxSafeDrop: 4, fightBack: true }

export type ReflexKind = 'lava' | 'drop' | 'fight' | 'flee'
export interface ReflexEvent { kind: ReflexKind; message: string; at: number }

export interface Reflexes {
  readonly options: ReflexOptions
  /** Listen for reflexes that took over the body; returns the unsubscribe function. */
  onInterrupt(listener: (e: ReflexEvent) => void): () => void
  /** The entity the current action fights on purpose (no fight-back reflex against it). */
  setEngaged(entityId: number | null): void
  /** True while a reflex is moving the body (stepping back, fighting, fleeing). */
  busy(): boolean
  readonly history: ReflexEvent[]
  detach(): void
}

const attached = new WeakMap<Bot, Reflexes>()
export function reflexesOf(bot: Bot): Reflexes | null { return attached.get(bot) ?? null }

function isSolid(bot: Bot, p: Vec3): boolean { const b = bot.blockAt(p); return !!b && b.boundingBox === 'block' }
function isLiquid(bot: Bot, p: Vec3, name: string): boolean { return bot.blockAt(p)?.name === name }

export function attachReflexes(bot: Bot, opts: Partial<ReflexOptions> = {}): Reflexes {
  const existing = attached.get(bot)
  if (existing) return existing
  const options = { ...DEFAULT_REFLEXES, ...opts }
  const listeners = new Set<(e: ReflexEvent) => void>()
  const history: ReflexEvent[] = []
  let engaged: number | null = null
  /** Recent positions on solid ground (last ~3 s), newest last: where a step back goes. */
  const safeTrail: Vec3[] = []
  let stepBack: { target: Vec3; ticks: number } | null = null
  let busyUntil = 0

  const fire = (kind: ReflexKind, message: string): void => {
    const e = { kind, message, at: Date.now() }
    history.push(e)
    if (history.length > 50) history.shift()
    log.info('reflex', { kind, message })
    for (const l of [...listeners]) l(e)
  }

  const stopMoving = (): void => {
    try { bot.pathfinder.stop() } catch { /* not pathing */ }
    bot.pathfinder.setGoal(null)
    bot.clearControlStates()
  }

  /** What is ahead in the direction of travel: 'lava', 'drop' or null. */
  const dangerAhead = (): { kind: 'lava' | 'drop'; at: Vec3 } | null => {
    const e = bot.entity
    let dx = e.velocity.x
    let dz = e.velocity.z
    const speed = Math.hypot(dx, dz)
    if (speed < 0.03) {
      if (!bot.getControlState('forward')) return null
      dx = -Math.sin(e.yaw); dz = -Math.cos(e.yaw)
    } else { dx /= speed; dz /= speed }
    for (const reach of [0.45, 0.9]) {
      const p = e.position.offset(dx * reach, 0, dz * reach).floored()
      if (p.equals(e.position.floored())) continue
      if (isLiquid(bot, p, 'lava') || isLiquid(bot, p.offset(0, -1, 0), 'lava') || isLiquid(bot, p.offset(0, 1, 0), 'lava')) return { kind: 'lava', at: p }
      if (!e.onGround) continue
      if (isSolid(bot, p) || isSolid(bot, p.offset(0, -1, 0))) continue
      let support = false
      for (let d = 1; d <= options.maxSafeDrop + 1; d++) {
        const q = p.offset(0, -d, 0)
        if (isSolid(bot, q) || isLiquid(bot, q, 'water')) { support = true; break }
        if (!bot.blockAt(q)) { support = true; break } // unloaded: do not guess
      }
      if (!support) return { kind: 'drop', at: p }
    }
    return null
  }

  const onTick = (): void => {
    if (!bot.entity) return
    if (stepBack) {
      const s = stepBack
      s.ticks--
      const here = bot.entity.position
      if (s.ticks <= 0 || Math.hypot(here.x - s.target.x, here.z - s.target.z) < 0.3) { bot.clearControlStates(); stepBack = null; return }
      void bot.lookAt(s.target.offset(0, 1.62, 0), true).catch(() => {})
      bot.setControlState('forward', true)
      return
    }
    const danger = dangerAhead()
    if (danger) {
      stopMoving()
      const pos = bot.entity.position
      const centre = danger.at.offset(0.5, 0, 0.5)
      const far = (v: Vec3): number => Math.hypot(v.x - centre.x, v.z - centre.z)
      const trail = [...safeTrail].reverse().find((v) => far(v) >= 1.8 && v.distanceTo(pos) < 4)
      const away = pos.minus(centre)
      const norm = Math.hypot(away.x, away.z) || 1
      const back = trail ?? pos.offset((away.x / norm) * 1.2, 0, (away.z / norm) * 1.2)
      stepBack = { target: new Vec3(back.x, pos.y, back.z), ticks: 16 }
      busyUntil = Date.now() + 900
      fire(danger.kind, danger.kind === 'lava' ? `I stopped because there is lava ahead at ${danger.at.x} ${danger.at.y} ${danger.at.z}.` : `I stopped at the edge of a deadly drop at ${danger.at.x} ${danger.at.y} ${danger.at.z}.`)
      return
    }
    const feet = bot.entity.position.floored()
    if (bot.entity.onGround && isSolid(bot, feet.offset(0, -1, 0)) && !isLiquid(bot, feet, 'lava')) {
      const last = safeTrail[safeTrail.length - 1]
      if (!last || last.distanceTo(bot.entity.position) > 0.2) safeTrail.push(bot.entity.position.clone())
      if (safeTrail.length > 60) safeTrail.shift()
    }
  }

  const onHurt = (entity: Entity, source?: Entity): void => {
    if (entity !== bot.entity || !options.fightBack) return
    const attacker = source && source !== bot.entity ? source : nearestThreat()
    if (!attacker || attacker.id === engaged) return
    if (bot.health <= options.fleeHealth) {
      stopMoving()
      const fleeGoal = new goals.GoalInvert(new goals.GoalFollow(attacker, 12))
      bot.pathfinder.setGoal(fleeGoal, true)
      busyUntil = Date.now() + 4000
      // stop fleeing after 4 s, unless something else has taken the pathfinder since
      setTimeout(() => { if (bot.pathfinder.goal === fleeGoal) stopMoving() }, 4000)
      fire('flee', `I ran from ${attacker.name ?? 'an attacker'} because my health is low.`)
    } else {
      stopMoving()
      busyUntil = Date.now() + 10_000
      void bot.pvp.attack(attacker).catch(() => {})
      // give up the fight after 10 s, unless it already ended or another fight started
      setTimeout(() => { if (bot.pvp.target === attacker) void bot.pvp.stop().catch(() => {}) }, 10_000)
      fire('fight', `I fought back against ${attacker.name ?? 'an attacker'}.`)
    }
  }

  const nearestThreat = (): Entity | null => {
    let best: Entity | null = null
    for (const e of Object.values(bot.entities)) {
      if (e === bot.entity || !(e.type === 'mob' || e.type === 'hostile' || e.type === 'player')) continue
      const d = e.position.distanceTo(bot.entity.position)
      if (d < 5 && (!best || d < best.position.distanceTo(bot.entity.position))) best = e
    }
    return best
  }
  const onStoppedAttacking = (): void => { busyUntil = 0 }

  // mineflayer-pvp's 'stoppedAttacking' is not in mineflayer's typed events
  const pvpEvents = bot as unknown as NodeJS.EventEmitter
  bot.on('physicsTick', onTick)
  bot.on('entityHurt', onHurt)
  pvpEvents.on('stoppedAttacking', onStoppedAttacking)
  try {
    bot.autoEat.setOpts({ minHunger: options.minHunger })
    bot.autoEat.enableAuto()
  } catch (err) { log.warn('auto-eat unavailable', { err: (err as Error).message }) }

  const reflexes: Reflexes = {
    options,
    history,
    onInterrupt(l) { listeners.add(l); return () => { listeners.delete(l) } },
    setEngaged(id) { engaged = id },
    busy: () => stepBack !== null || Date.now() < busyUntil,
    detach() {
      bot.removeListener('physicsTick', onTick)
      bot.removeListener('entityHurt', onHurt)
      pvpEvents.removeListener('stoppedAttacking', onStoppedAttacking)
      try { bot.autoEat.disableAuto() } catch { /* not loaded */ }
      listeners.clear()
      attached.delete(bot)
    },
  }
  attached.set(bot, reflexes)
  return reflexes
}
