/**
 * The options of the sim world (test/helpers/sim-world.ts) and the record of each call it served: what a test sets up
 * (inventory, sight, biome, time, faults, lies, long actions, `/clear`s) and what it reads back. Types only.
 */
import type { Action, ActionResult, ActionType, FailureReason } from '../../src/schemas/action.js'
import type { TimeOfDay, Weather } from '../../src/schemas/goal.js'
import type { Pos } from '../../src/schemas/region.js'

/** The Nth (1-based) call of `type` fails with `reason` and does nothing. */
export interface SimFault {
  type: ActionType
  nth: number
  reason: FailureReason
  message?: string
}
/** The Nth (1-based) call of `type` reports success without doing anything. */
export interface SimLie {
  type: ActionType
  nth: number
}
/**
 * The Nth (1-based) call of `type` takes `ms` of real time unless its signal aborts it first (then it ends
 * `interrupted`); as it starts, the food bar drops to `food`, health to `health`, `sees` comes into sight and `gains`
 * goes into the bag (a long walk that tires the bot, zombies that hit it at night, animals passed on the way, a shaft
 * dug through an ore), and as it ends `gone` leaves it (an animal that slipped out of view as the bot stopped).
 */
export interface SimLong {
  type: ActionType
  nth: number
  ms: number
  food?: number
  health?: number
  sees?: Record<string, number>
  gains?: Record<string, number>
  gone?: string[]
}
/** Before the Nth (1-based) execute call of any type runs, remove these items (or everything): a `/clear`. */
export interface SimClear {
  beforeCall: number
  items: Record<string, number> | 'all'
}

export interface SimWorldOptions {
  inventory?: Record<string, number>
  biome?: string
  time?: TimeOfDay
  weather?: Weather
  /** Surface height; the bot starts here (default 64). */
  surfaceY?: number
  faults?: SimFault[]
  lies?: SimLie[]
  clears?: SimClear[]
  longs?: SimLong[]
  /** Names explore never finds. */
  absent?: string[]
  /** Things in sight at the start, with their distance (each alone, in no pair). */
  visible?: Record<string, number>
  /** Blueprint name → blocks it consumes; default: data/blueprints/*.json. */
  blueprints?: Record<string, Record<string, number>>
  identity?: { bot: string; server: string }
  /** Players online and known to the bot (give needs one). */
  players?: string[]
  /** Where the bot stands (the safety policy's protected boxes); unknown when omitted. */
  position?: Pos
  /** Health and food at the start (default 20 each); a night hidden through heals, eating fills the food bar. */
  health?: number
  food?: number
}

export interface SimCall {
  n: number
  action: Action
  result: ActionResult
  lied: boolean
  fault: boolean
  /** Stations the agent asked this action to leave standing for the steps after it (ExecuteOptions.keep). */
  keep: readonly string[]
  /** Items the agent told this action to leave alone for the plan (ExecuteOptions.reserve). */
  reserve: Readonly<Record<string, number>>
}
