/**
 * The patroller (after MP5): the bot does not take its own word for anything. Before each action it asks the rule
 * book (src/rules/) about the live bot — the requirements (tool, materials, fuel and station in inventory or in
 * sight, the target seen) and the safety policy with real positions (protected boxes) — so a doomed or unsafe action
 * goes back to the planner as feedback instead of running; after each action that claims success it verifies the
 * effect in the world (inventory really changed by the expected amount, the bot really near the target, the tool
 * really in hand, the y-level really reached). A claimed success whose effect is missing becomes reason `unverified`.
 */
import type { Knowledge } from '../knowledge/index.js'
import {
  check,
  LEFT_STATION_REACH,
  requires,
  stationNames,
  policy,
  ruleContext,
  type PlacedView,
  type PolicyView,
  type RuleContext,
  type RuleWorld,
} from '../rules/index.js'
import { minedItems, sourceBlocks } from '../rules/mine.js'
import { type Action, type ActionResult, type BotState, describeSearch, type FailureReason } from '../schemas/action.js'
import { Conditions } from '../schemas/goal.js'
import type { Box } from '../schemas/region.js'
import type { ExecuteOptions, Hands, Senses } from './ports.js'

/** A pre-check: the rule book's fixed reason (`unsafe` for the policy) and the sentence a player reads. */
export type Check = { ok: true } | { ok: false; reason: FailureReason; message: string }

const OK: Check = { ok: true }
/** Actions that work at the bot's feet (no separate target to locate). */
const AT_FEET = new Set<Action['type']>(['dig_down', 'hide', 'place', 'build'])

export interface PatrollerOptions {
  /** GHOST_PROTECTED boxes: the safety policy refuses digging, placing and opening containers inside them. */
  protected?: readonly Box[]
  /** Blocks the bot saw players place (issue 20): the safety policy refuses digging them. */
  playerPlaced?: PlacedView | null
  blueprints?: string[]
}

/**
 * The rule book's world over the live bot: counts from `inventory`, what is in sight, the stations the bot left
 * standing itself within LEFT_STATION_REACH, and the players it knows.
 */
export function liveWorld(senses: Senses, inventory: Readonly<Record<string, number>>): RuleWorld {
  return {
    count: (i) => inventory[i] ?? 0,
    nearest: (n) => senses.nearestVisible(n),
    placed: (n) => {
      const d = senses.leftStation?.(n) ?? null
      return d !== null && d <= LEFT_STATION_REACH
    },
    ...(senses.playerNear ? { playerKnown: (n: string) => senses.playerNear!(n) } : {}),
  }
}

export class Patroller {
  private readonly rules: RuleContext
  constructor(
    private readonly kb: Knowledge,
    private readonly senses: Senses,
    private readonly opts: PatrollerOptions = {},
  ) {
    this.rules = ruleContext(kb, opts.blueprints)
  }

  /** Items a mine action is after: the block's drops, or the named item itself. */
  wanted(object: string): string[] {
    return minedItems(this.kb, object)
  }

  /** Blocks a mine action may dig for `object`: the blocks it drops from (cobblestone → stone) and their variants. */
  sourceBlocks(object: string): string[] {
    return sourceBlocks(this.kb, object)
  }

  /** The rule book's requirements and safety policy, judged against the live bot. */
  before(a: Action, s: BotState): Check {
    const senses = this.senses
    const world = liveWorld(senses, s.inventory)
    const position = senses.position?.() ?? null
    const object = 'object' in a ? a.object : null
    const target = AT_FEET.has(a.type) ? position : object && senses.locate ? senses.locate(object) : null
    const view: PolicyView = {
      protected: this.opts.protected ?? [],
      players: [],
      position,
      target,
      placedByPlan: () => false,
      playerPlaced: this.opts.playerPlaced ?? null,
    }
    const unsafe = policy(a, view, this.rules)
    if (unsafe) return { ok: false, reason: 'unsafe', message: unsafe }
    const v = check(a, this.rules, world)
    if (v.ok) return OK
    return { ok: false, reason: v.reason, message: v.message }
  }

  /**
   * Run one action the checked way: the pre-check (a failure comes back as a result and the action never runs), the
   * action, then the post-check. The one entry point for the agent layer (sub-goal runner; delivery: `give`).
   */
  async guarded(a: Action, hands: Hands, signal: AbortSignal, opts?: ExecuteOptions): Promise<ActionResult> {
    const before = hands.state()
    const pre = this.before(a, before)
    if (!pre.ok)
      return {
        ok: false,
        reason: pre.reason,
        message: `precondition failed: ${pre.message}`,
        inventoryDelta: {},
        durationMs: 0,
      }
    return this.after(a, await hands.execute(a, signal, opts), before, hands.state())
  }

  /** The stations (crafting_table, furnace) an action uses where it stands, from its rule book. */
  stationsFor(a: Action): string[] {
    return stationNames(requires(a, this.rules))
  }

  /** Verify a claimed success against the world; returns the result unchanged or turned into `unverified`. */
  after(a: Action, r: ActionResult, before: BotState, after: BotState): ActionResult {
    if (!r.ok) return r
    const gained = (n: string): number => (after.inventory[n] ?? 0) - (before.inventory[n] ?? 0)
    const held = (n: string): number => after.inventory[n] ?? 0
    const fail = (message: string): ActionResult => ({ ...r, ok: false, reason: 'unverified', message })
    switch (a.type) {
      case 'mine': {
        const w = this.wanted(a.object)
        const total = Math.max(...w.map(held))
        return total >= a.count
          ? r
          : fail(`I reported mining ${a.object}, but I hold only ${total} of the ${a.count} ${w[0]} I wanted.`)
      }
      case 'craft':
      case 'smelt':
        return gained(a.object) >= a.count
          ? r
          : fail(`I reported ${a.type}ing ${a.count} ${a.object}, but my inventory changed by ${gained(a.object)}.`)
      case 'equip': {
        const h = this.senses.held()
        return h === a.object ? r : fail(`I meant to hold ${a.object} but I am holding ${h ?? 'nothing'}.`)
      }
      case 'place':
        return gained(a.object) <= -1 ? r : fail(`I reported placing ${a.object} but still hold as many as before.`)
      case 'approach': {
        const d = this.senses.nearestVisible(a.object)
        return d !== null && d <= 3
          ? r
          : fail(
              `I reported reaching ${a.object} but ${d === null ? 'cannot see one' : `the nearest is ${d.toFixed(1)} blocks away`}.`,
            )
      }
      case 'explore':
        return this.senses.nearestVisible(a.object, a.near) !== null &&
          (!a.biome || this.senses.checkConditions(Conditions.parse({ biome: a.biome }), a.object).met)
          ? r
          : fail(`I reported seeing ${describeSearch(a)} but none is in sight now.`)
      case 'dig_down':
        // a dig that watched for a block may stop above the level with one in sight
        return after.y <= a.ylevel + 1 || (a.watch && this.senses.nearestVisible(a.watch) !== null)
          ? r
          : fail(`I reported digging down to y=${a.ylevel} but I am at y=${after.y}.`)
      case 'go_up':
        return !after.underground ? r : fail('I reported returning to the surface but I am still underground.')
      case 'give':
        return gained(a.object) <= -a.count
          ? r
          : fail(`I reported giving ${a.count} ${a.object} but my inventory changed by ${gained(a.object)}.`)
      default:
        return r
    }
  }

  /** The line a reply uses to say how completion was checked. */
  verificationLine(object: string, count: number, s: BotState): { ok: boolean; line: string } {
    const have = s.inventory[object] ?? 0
    return { ok: have >= count, line: `${have} ${object} now in inventory (needed ${count})` }
  }
}
