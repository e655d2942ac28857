/**
 * The rule book's vocabulary: what an action *needs* (`Need`: a valid argument, items, a tool, a station within
 * reach, a harvesting tool, a target in sight, a known player), what it *changes* (`Change`: inventory delta, items
 * whose amount only the world decides, placed blocks), the small world-state shape every checker answers
 * (`RuleWorld`: counts, and — where the checker can see — distances and players), and the one evaluator that turns an
 * unmet need into a fixed FailureReason with the sentence a player reads. The critic, the patroller, the dry run, the
 * simulated test world and the sub-goal runner all judge needs here, so a rule or sentence exists once.
 */
import type { Knowledge } from '../knowledge/index.js'
import type { Action, ActionType, FailureReason } from '../schemas/action.js'
import type { Box, Pos } from '../schemas/region.js'

/** How far (blocks) a crafting table or furnace may be and still count as "at hand". */
export const STATION_REACH = 6
/**
 * How far (blocks) a station the bot placed and left standing for a later step still counts as at hand: it knows where
 * it stands, seen or not, and the craft or smelt walks back to it (src/actions/stations.ts). Picking up a smelt's
 * furnaces can take the bot past STATION_REACH from the table it left (bench p14 compass seeds 1 and 3: the plan
 * after the smelt had no table, and with its planks burnt the bot climbed to the surface for a log, 70 and 160 s).
 */
export const LEFT_STATION_REACH = 16

export type Need =
  /** An argument that makes sense for the game data (a recipe exists, a fuel burns); reason `invalid`. */
  | { kind: 'valid'; ok: boolean; message: string }
  /** Items consumed or handed over, all at once; reason `missing_materials`. */
  | { kind: 'items'; items: Record<string, number>; doing: string }
  /** One of these items must be held (a tool, or the thing to hold or place); reason `missing_tool` or `missing_materials`. */
  | { kind: 'hold'; anyOf: string[]; doing: string; as: 'tool' | 'item' }
  /**
   * A work station in the inventory, placed earlier (by a step of the plan; at run time, left standing by the bot within
   * LEFT_STATION_REACH), or within STATION_REACH; reason `missing_tool`.
   */
  | { kind: 'station'; name: string; doing: string }
  /** The tool (null: the hand) must harvest the block; reason `missing_tool`. */
  | { kind: 'harvest'; block: string; tool: string | null }
  /** One of these blocks/entities must be in sight (run time only); reason `not_found`. */
  | { kind: 'sight'; object: string; anyOf: string[] }
  /** The player must be online and known (run time only); reason `not_found`. */
  | { kind: 'player'; name: string }

/** What a checker knows of the world. Optional parts are unknown at plan time: needs on them wait for run time. */
export interface RuleWorld {
  count(item: string): number
  /** Distance to the nearest visible block or entity of that name, or null when none is seen. */
  nearest?(name: string): number | null
  /** Plan time: the amount of this item is decided by the world (mob drops), so shortfalls are not flagged. */
  uncertain?(item: string): boolean
  /** A station placed by an earlier step (plan time), or left standing by the bot within LEFT_STATION_REACH (run time). */
  placed?(name: string): boolean
  /** Whether a player of that name is online and known to the bot. */
  playerKnown?(name: string): boolean
}

/** What an action does to the world, as far as the data predicts it. */
export interface Change {
  /** Exact inventory delta (consumed negative, produced positive). */
  inventory: Record<string, number>
  /** Items held afterwards at least this many (mine: "until I hold N"). */
  atLeast?: Record<string, number>
  /** Items the action may yield in amounts only the world decides (drops, pick-ups, the result of a use). */
  uncertain?: string[]
  /** Blocks the action puts into the world next to the bot. */
  placed?: string[]
}

/** Shared data a rule may need besides the game knowledge. */
export interface RuleContext {
  kb: Knowledge
  /** Blueprint name → blocks it consumes. */
  blueprints: Record<string, Record<string, number>>
}

/**
 * What the safety policy knows. At plan time positions are usually unknown (null); at run time the patroller fills in
 * where the bot stands and where the action's target is.
 */
export interface PolicyView {
  /** GHOST_PROTECTED: never dig, place or open containers inside these. */
  protected: readonly Box[]
  /** Players online (never attacked). */
  players: readonly string[]
  /** Where the bot is, when known. */
  position: Pos | null
  /** Where the action's target block or creature is, when known (run time). */
  target: Pos | null
  /** Plan time: blocks an earlier step of the same plan placed (the bot may take back what it placed). */
  placedByPlan(name: string): boolean
  /** Blocks the bot saw players place (issue 20), when it tracks them. */
  playerPlaced?: PlacedView | null
}

/** What the bot observed of blocks players placed (src/perception/placed.ts); the policy never digs them. */
export interface PlacedView {
  /** Who placed the block at `p` (in the bot's dimension), or null when no player was seen placing it. */
  at(p: Pos): { block: string; player: string } | null
  /** The blocks of these names the bot sees, when every one it sees was placed by a player (else empty). */
  onlyPlaced(blocks: readonly string[]): Array<Pos & { block: string; player: string }>
}

/** How much an action may do before it is stopped: work steps and wall-clock time. */
export interface Budget {
  steps: number
  timeMs: number
}

export interface ActionRules<A extends Action = Action> {
  /** A short phrase for messages and progress lines: "mining 3 iron_ore". */
  describe(a: A): string
  /** The default budget of one run (a caller may override parts of it). */
  budget: Budget
  /** Whether runs use the progress tracker and can be stopped as `stalled`. */
  tracked?: boolean
  /**
   * A guard reflex (lava or a deadly drop ahead) stops the body and, by default, ends the run as `unsafe`. An action
   * that finds another way itself (a search turns, a miner takes another block) absorbs up to this many such stops
   * per run (it sees them through `run.detours()`); the next one ends the run as usual.
   */
  detours?: number
  /** What must hold before the action runs, in the order it is checked. */
  requires(a: A, ctx: RuleContext): Need[]
  /** What the action changes when it succeeds. */
  changes(a: A, ctx: RuleContext): Change
  /** Safety policy: why the bot must never do this here (reason `unsafe`), or null. */
  policy?(a: A, view: PolicyView, ctx: RuleContext): string | null
}

export type RuleBook = { [K in ActionType]: ActionRules<Extract<Action, { type: K }>> }

export type Verdict = { ok: true } | { ok: false; reason: FailureReason; message: string; need: Need }

export const fmtItems = (m: Record<string, number>): string =>
  Object.entries(m)
    .map(([i, n]) => `${n} ${i}`)
    .join(', ')
const article = (name: string): string => (/^[aeiou]/.test(name) ? 'an' : 'a')
/** The sentence for a tool that is not in the inventory (also used by the handlers for the live check). */
export const noToolMessage = (tool: string, doing: string, orBetter = false): string =>
  `I need ${article(tool)} ${tool}${orBetter ? ' (or better)' : ''} to ${doing} but have none.`

/** The stations (crafting_table, furnace) among `needs`: what a step uses where it stands. */
export function stationNames(needs: readonly Need[]): string[] {
  return needs.flatMap((n) => (n.kind === 'station' ? [n.name] : []))
}

/** The short phrases of what is missing for one need ("2 oak_planks", "a crafting_table"); empty when it is met. */
export function shortfall(need: Need, w: RuleWorld, kb: Knowledge): string[] {
  switch (need.kind) {
    case 'valid':
      return need.ok ? [] : [need.message]
    case 'items':
      return Object.entries(need.items)
        .filter(([i, k]) => w.count(i) < k && !w.uncertain?.(i))
        .map(([i, k]) => `${k - w.count(i)} ${i}`)
    case 'hold':
      return need.anyOf.some((i) => w.count(i) > 0 || w.uncertain?.(i))
        ? []
        : [`${article(need.anyOf[0]!)} ${need.anyOf[0]}`]
    case 'station': {
      const d = w.nearest?.(need.name) ?? null
      const here =
        w.count(need.name) > 0 ||
        w.uncertain?.(need.name) ||
        w.placed?.(need.name) ||
        (d !== null && d <= STATION_REACH)
      return here ? [] : [`${article(need.name)} ${need.name}`]
    }
    case 'harvest':
      return kb.canHarvest(need.block, need.tool) ? [] : [`a tool that harvests ${need.block}`]
    case 'sight':
      if (!w.nearest) return []
      return need.anyOf.some((n) => w.nearest!(n) !== null) ? [] : [`a ${need.object} in sight`]
    case 'player':
      if (!w.playerKnown) return []
      return w.playerKnown(need.name) ? [] : [`the player ${need.name}`]
  }
}

/** The fixed reason and the sentence for an unmet need. */
function sentence(need: Need, short: string[], kb: Knowledge): { reason: FailureReason; message: string } {
  switch (need.kind) {
    case 'valid':
      return { reason: 'invalid', message: need.message }
    case 'items':
      return { reason: 'missing_materials', message: `To ${need.doing} I still need ${short.join(', ')}.` }
    case 'hold':
      return need.as === 'tool'
        ? { reason: 'missing_tool', message: noToolMessage(need.anyOf[0]!, need.doing, need.anyOf.length > 1) }
        : { reason: 'missing_materials', message: `I have no ${need.anyOf[0]} to ${need.doing}.` }
    case 'station':
      return {
        reason: 'missing_tool',
        message: `I need ${short[0]} to ${need.doing}: none in my inventory or within ${STATION_REACH} blocks.`,
      }
    case 'harvest':
      return {
        reason: 'missing_tool',
        message: `${need.tool ?? 'a bare hand'} cannot harvest ${need.block}; use ${kb.harvestTools(need.block).slice(0, 2).join(' or ') || 'another tool'}.`,
      }
    case 'sight':
      return {
        reason: 'not_found',
        message: `I can't see any ${need.object} from here; I should explore for it first.`,
      }
    case 'player':
      return {
        reason: 'not_found',
        message: `I can't find the player ${need.name}; they are not online or not in range.`,
      }
  }
}

/** Judge needs in order: the first unmet one decides the verdict. */
export function judge(needs: Need[], w: RuleWorld, kb: Knowledge): Verdict {
  for (const need of needs) {
    const short = shortfall(need, w, kb)
    if (short.length > 0) return { ok: false, need, ...sentence(need, short, kb) }
  }
  return { ok: true }
}

/** Every unmet need (the critic reports them all, not just the first). */
export function judgeAll(needs: Need[], w: RuleWorld, kb: Knowledge): Array<Exclude<Verdict, { ok: true }>> {
  const out: Array<Exclude<Verdict, { ok: true }>> = []
  for (const need of needs) {
    const short = shortfall(need, w, kb)
    if (short.length > 0) out.push({ ok: false, need, ...sentence(need, short, kb) })
  }
  return out
}

/** A RuleWorld over a plain inventory record (nothing in sight: sight and player needs wait for run time). */
export function inventoryWorld(inventory: Record<string, number> | Map<string, number>): RuleWorld {
  return inventory instanceof Map ? { count: (i) => inventory.get(i) ?? 0 } : { count: (i) => inventory[i] ?? 0 }
}
