/**
 * The one contract every action handler implements (after mineflayer's one-capability-per-plugin pattern): a handler
 * receives the bot, its validated action and a `Run` — the combined AbortSignal (stop, reflex, death, stall, time
 * budget), the step budget, the progress tracker and the name resolver — and returns a result or throws an
 * `ActionFailure` with a fixed FailureReason. Also holds the default budgets per action type and the small result
 * helpers, so handlers stay short and uniform.
 */
import type { Bot } from 'mineflayer'
import { RULES } from '../rules/index.js'
import type { Budget } from '../rules/types.js'
import { ACTION_TYPES, type Action, type ActionResult, type ActionType, type FailureReason } from '../schemas/action.js'
import type { Box } from '../schemas/region.js'
import type { ProgressEntry, ProgressTracker } from '../progress/signal.js'
import type { ProgressRules } from '../progress/rules.js'

export type { Budget } from '../rules/types.js'

/** What a caller passes to `execute` besides the bot and the action. */
export interface ActionContext {
  signal: AbortSignal
  budget?: Partial<Budget>
  /** Receives every progress-signal entry while a long action runs. */
  onSignal?: (entry: ProgressEntry) => void
  /** Override the shipped data/progress-rules.json (tests, tuning). */
  rules?: ProgressRules
  /** GHOST_PROTECTED: boxes where the bot never digs or places (digBlock/placeNear refuse with `unsafe`). */
  protected?: readonly Box[]
  /**
   * Stations (crafting_table, furnace) the next step uses where this one stands: a station this action places is left
   * standing for it instead of being picked back up (the next step finds it in sight and picks it up when done).
   */
  keep?: readonly string[]
  /**
   * Items the steps after this one use, by name: what the bag holds beyond them is spare, and only spare items go
   * into anything this action makes on its own account (a tool re-made in a tunnel, src/actions/retool.ts).
   */
  reserve?: Readonly<Record<string, number>>
}

/** Why the run's own AbortSignal fired; mapped to a FailureReason by the registry. */
export type StopCause = 'interrupted' | 'unsafe' | 'died' | 'stalled' | 'timeout' | 'budget'

export class StopSignal extends Error {
  constructor(
    override readonly cause: StopCause,
    readonly detail: string,
  ) {
    super(detail)
    this.name = 'StopSignal'
  }
}

/** A failure with a fixed reason; thrown by handlers and turned into an ActionResult by the registry. */
export class ActionFailure extends Error {
  constructor(
    readonly reason: FailureReason,
    message: string,
  ) {
    super(message)
    this.name = 'ActionFailure'
  }
}

export interface Run {
  readonly bot: Bot
  readonly signal: AbortSignal
  readonly budget: Budget
  readonly startedAt: number
  readonly progress: ProgressTracker
  /** Boxes where this run must not dig or place (from ActionContext.protected). */
  readonly protected: readonly Box[]
  /** Stations the next step uses here (ActionContext.keep): left standing when this run placed them. */
  readonly keep: readonly string[]
  /** Items the steps after this one use (ActionContext.reserve). */
  readonly reserve: Readonly<Record<string, number>>
  /** Count one unit of work; aborts the run with cause 'budget' once the step budget is spent. */
  step(n?: number): void
  stepsUsed(): number
  /** Throws the run's StopSignal if it was aborted. */
  check(): void
  /** Guard-reflex stops this run absorbed so far (rules' `detours`): the walk stopped, the run goes on. */
  detours(): number
  /**
   * Run `fn` with the combat reflex's flights not ending the run: the handler is itself running from the mob (hide's
   * outrun), so a flight is the same move, not a take-over. Fights, deaths and stops still end it.
   */
  fleeing<T>(fn: () => Promise<T>): Promise<T>
}

/** A handler returns a success message (inventory delta and duration are filled in by the registry). */
export type Handler<T extends Action = Action> = (run: Run, action: T) => Promise<string>

export type Handlers = { [K in ActionType]: Handler<Extract<Action, { type: K }>> }

/**
 * Actions that work where the bot stands, at a station or in the hand's grid: a station a step leaves standing for a
 * later craft or smelt waits through them, and any other action picks it up first.
 */
export const STAYS_AT_STATIONS: ReadonlySet<ActionType> = new Set<ActionType>(['craft', 'smelt'])

/** Default budgets per action type, from each action's rules file. */
export const DEFAULT_BUDGETS = Object.fromEntries(ACTION_TYPES.map((t) => [t, RULES[t].budget])) as Record<
  ActionType,
  Budget
>

/** Actions that run the progress tracker and can be stopped as `stalled`. */
export const TRACKED: ReadonlySet<ActionType> = new Set(ACTION_TYPES.filter((t) => RULES[t].tracked === true))

export function fail(reason: FailureReason, message: string): never {
  throw new ActionFailure(reason, message)
}

export function inventoryCounts(bot: Bot): Record<string, number> {
  const out: Record<string, number> = {}
  for (const item of bot.inventory.items()) out[item.name] = (out[item.name] ?? 0) + item.count
  return out
}

export function countOf(bot: Bot, names: Iterable<string>): number {
  const set = new Set(names)
  let n = 0
  for (const item of bot.inventory.items()) if (set.has(item.name)) n += item.count
  return n
}

export function delta(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {}
  for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const d = (after[k] ?? 0) - (before[k] ?? 0)
    if (d !== 0) out[k] = d
  }
  return out
}

export function result(
  ok: boolean,
  reason: FailureReason | null,
  message: string,
  inventoryDelta: Record<string, number>,
  durationMs: number,
): ActionResult {
  return { ok, reason, message, inventoryDelta, durationMs: Math.max(0, Math.round(durationMs)) }
}
