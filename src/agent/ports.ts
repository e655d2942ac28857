/**
 * The agent's view of the world, as narrow ports: `Hands` runs one structured action and reports the bot's state;
 * `Senses` answers the patroller's perception questions (is X visible, how far is the nearest X, what is held).
 * The real implementations wrap the mineflayer bot (src/agent/bot-hands.ts); the agent core (planner, critic,
 * executor, patroller) depends only on these interfaces, so it can also run against other worlds.
 */
import type { Action, ActionResult, BotState } from '../schemas/action.js'
import type { Conditions } from '../schemas/goal.js'
import type { Pos } from '../schemas/region.js'

/** How one action runs within its plan. */
export interface ExecuteOptions {
  /** Stations (crafting_table, furnace) the next step uses where this one stands. */
  keep?: readonly string[]
  /** Items the steps after this one use, by name: not to be spent on anything the action makes on its own account. */
  reserve?: Readonly<Record<string, number>>
}

export interface Hands {
  /**
   * Run one action; in-world failures come back as results, never as exceptions. `opts.keep`: stations the next step
   * uses where this one stands, left standing if this action places them.
   */
  execute(action: Action, signal: AbortSignal, opts?: ExecuteOptions): Promise<ActionResult>
  state(): BotState
  /** Block names visible around the bot (for the failure analyser). */
  nearbyBlocks(): string[]
  /** The last progress-signal trace, summarised for the analyser. */
  lastTrace(): { dense: number; sparse: number; stalled: boolean } | null
  /** Who this bot is, and which server, for memory rows. */
  identity(): { bot: string; server: string }
  /** After a death: walk back for the drops when the spot is reachable and they may still lie there; optional. */
  recoverDrops?(signal: AbortSignal): Promise<ActionResult>
}

export interface Senses {
  /** Distance to the nearest *visible* block or entity of that name (with a visible `near` within NEAR_BLOCKS of it,
   * when given), or null when none is seen. */
  nearestVisible(name: string, near?: string | null): number | null
  /** Distance to the nearest station of that name the bot placed and left standing itself (seen or not), or null. */
  leftStation?(name: string): number | null
  /** Name of the item in the main hand, or null. */
  held(): string | null
  /** Whether a block of that name exists at all within `radius` (used to verify a block was really dug). */
  blockCountNear(name: string, radius: number): number
  /** Which of the conditions hold right now, and a line saying what was observed. */
  checkConditions(c: Conditions, target: string): { met: boolean; unmet: string[]; observed: string }
  /** Where the bot stands, and where the nearest visible X is (the safety policy's protected boxes); optional. */
  position?(): Pos | null
  locate?(name: string): Pos | null
  /** Whether a player of that name is online and in range (give); optional. */
  playerNear?(name: string): boolean
  /** How many hostile mobs (zombies, skeletons …) stand within `radius` blocks of the bot; optional (none known). */
  hostilesNear?(radius: number): number
}
