/**
 * Reflexes, attached once per bot and running whatever action runs, as small plugins with one contract (after
 * mineflayer's one-capability-per-plugin style): `guard` (never walk into lava or off a deadly drop), `combat`
 * (fight back against the real attacker, or flee when health is low) and `eat` (eat the best food carried when hungry).
 * Each plugin gets a `ReflexHost` and returns an `AttachedReflex` whose `detach()` removes every listener and timer
 * it added. A reflex that takes over the body notifies the interrupt listeners — the action registry turns that into
 * an `unsafe` result — and every decision, taken over or not, is an event (`onEvent`) and a line in `history`.
 */
import type { Bot } from 'mineflayer'
import type { Entity } from 'prismarine-entity'
import { logger } from '../../util/log.js'
import combat from './combat.js'
import eat from './eat.js'
import guard from './guard.js'
import { MAX_SAFE_DROP } from '../../bot/lava-margin.js'
import { standStill } from '../../bot/body.js'

const log = logger('reflex')

export interface ReflexOptions {
  /** Flee instead of fighting back at or below this health. */
  fleeHealth: number
  /** Eat when food is at or below this. */
  minHunger: number
  /** A fall of more than this many blocks counts as deadly. */
  maxSafeDrop: number
  fightBack: boolean
  /** Fight back against players too (off unless an owner turns it on). */
  fightPlayers: boolean
}

export const DEFAULT_REFLEXES: ReflexOptions = {
  fleeHealth: 6,
  minHunger: 14,
  maxSafeDrop: MAX_SAFE_DROP,
  fightBack: true,
  fightPlayers: false,
}

/** `hurt` is a decision not to act on damage (no attacker, or one the bot must not hit); it never takes over. */
export type ReflexKind = 'lava' | 'drop' | 'fight' | 'flee' | 'hurt'
export interface ReflexEvent {
  kind: ReflexKind
  message: string
  at: number
  tookOver: boolean
}

/** What a reflex plugin may use. */
export interface ReflexHost {
  readonly bot: Bot
  readonly options: ReflexOptions
  /** The reflex takes over the body: recorded, logged and sent to the interrupt listeners. */
  takeOver(kind: ReflexKind, message: string): void
  /** A decision that leaves the body alone (recorded and logged, no interrupt). */
  note(kind: ReflexKind, message: string): void
  /** Whether the running action fights this attacker on purpose (then no fight-back reflex against it). */
  engaged(attacker: Entity): boolean
  /** Stop pathfinding and every control state, leaving the body where it is (standStill). */
  stopMoving(): void
  /** A timer the host clears on detach. */
  later(fn: () => void, ms: number): void
}

/** One reflex, attached: whether it is moving the body now, and how to remove it completely. */
export interface AttachedReflex {
  busy(): boolean
  detach(): void
}

/** The one contract every reflex plugin implements. */
export interface ReflexPlugin {
  readonly name: string
  attach(host: ReflexHost): AttachedReflex
}

export const PLUGINS: readonly ReflexPlugin[] = [guard, combat, eat]

export interface Reflexes {
  readonly options: ReflexOptions
  /** Listen for reflexes that took over the body; returns the unsubscribe function. */
  onInterrupt(listener: (e: ReflexEvent) => void): () => void
  /** Listen for every reflex decision (taken over or not); returns the unsubscribe function. */
  onEvent(listener: (e: ReflexEvent) => void): () => void
  /**
   * What the current action fights on purpose (no fight-back reflex against it): one entity id, a rule for many
   * (the guard answers every hostile that comes at it itself), or null.
   */
  setEngaged(engaged: number | ((attacker: Entity) => boolean) | null): void
  /** True while a reflex is moving the body (stepping back, fighting, fleeing). */
  busy(): boolean
  readonly history: ReflexEvent[]
  detach(): void
}

const attached = new WeakMap<Bot, Reflexes>()
export function reflexesOf(bot: Bot): Reflexes | null {
  return attached.get(bot) ?? null
}

export function attachReflexes(
  bot: Bot,
  opts: Partial<ReflexOptions> = {},
  plugins: readonly ReflexPlugin[] = PLUGINS,
): Reflexes {
  const existing = attached.get(bot)
  if (existing) return existing
  const options = { ...DEFAULT_REFLEXES, ...opts }
  const interruptListeners = new Set<(e: ReflexEvent) => void>()
  const eventListeners = new Set<(e: ReflexEvent) => void>()
  const history: ReflexEvent[] = []
  const timers = new Set<NodeJS.Timeout>()
  let engaged: number | ((attacker: Entity) => boolean) | null = null

  const record = (kind: ReflexKind, message: string, tookOver: boolean): void => {
    const e: ReflexEvent = { kind, message, at: Date.now(), tookOver }
    history.push(e)
    if (history.length > 50) history.shift()
    log.info('reflex', { kind, message, tookOver })
    if (tookOver) for (const l of [...interruptListeners]) l(e)
    for (const l of [...eventListeners]) l(e)
  }
  const host: ReflexHost = {
    bot,
    options,
    takeOver: (kind, message) => record(kind, message, true),
    note: (kind, message) => record(kind, message, false),
    engaged: (attacker) => (typeof engaged === 'function' ? engaged(attacker) : attacker.id === engaged),
    stopMoving: () => standStill(bot),
    later(fn, ms) {
      const t = setTimeout(() => {
        timers.delete(t)
        fn()
      }, ms)
      timers.add(t)
    },
  }
  const parts = plugins.map((p) => ({ name: p.name, reflex: p.attach(host) }))

  const reflexes: Reflexes = {
    options,
    history,
    onInterrupt(l) {
      interruptListeners.add(l)
      return () => {
        interruptListeners.delete(l)
      }
    },
    onEvent(l) {
      eventListeners.add(l)
      return () => {
        eventListeners.delete(l)
      }
    },
    setEngaged(e) {
      engaged = e
    },
    busy: () => parts.some((p) => p.reflex.busy()),
    detach() {
      for (const p of parts) {
        try {
          p.reflex.detach()
        } catch (err) {
          log.warn('reflex detach failed', { reflex: p.name, err: (err as Error).message })
        }
      }
      for (const t of timers) clearTimeout(t)
      timers.clear()
      interruptListeners.clear()
      eventListeners.clear()
      attached.delete(bot)
    },
  }
  attached.set(bot, reflexes)
  return reflexes
}
