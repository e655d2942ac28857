/**
 * Which tool a mine step digs with, split from the decomposer (src/knowledge/decompose.ts): the fastest of its harvest
 * tools the simulated inventory holds, and the faster tool a long dig first makes from what it digs (a stone pickaxe
 * from the first 3 of 55 cobblestone) when the digging it saves pays for it, and whether a long search takes a spare
 * of its tool (`spareWanted`: two iron pickaxes for the diamonds). Dig times and uses come from minecraft-data's
 * hardness, tool speeds and durabilities (`SourceIndex.digSeconds`, `usesOf`). Pure: the decomposer passes what is
 * held and on its stack.
 */
import type { CostModel } from './cost.js'
import { ORE_HOSTS } from './location.js'
import { type MineSource, type Source, type SourceIndex, START_Y } from './sources.js'

/**
 * Seconds of digging a faster tool must save on one mine step before the step first makes that tool from what it
 * digs (a stone pickaxe from the first 3 of 55 cobblestone saves 30 s). The upgrade itself costs about 8 s: three
 * blocks with the old tool and a craft at a table.
 */
const UPGRADE_PAYBACK_S = 15

/** What tool choice reads: the game data, the cost model, and the decomposer's simulated inventory and stack. */
export interface ToolView {
  src: SourceIndex
  cost: CostModel
  held(item: string): number
  /** items being obtained right now (a tool on it cannot be made for its own ingredients) */
  stack: readonly string[]
}

/** Blocks of `s` to dig for `n` items. */
export function blocksFor(s: MineSource, n: number): number {
  return Math.ceil(n / s.yieldPer - 1e-9)
}

/** The held tool of `s` that digs its block fastest, or null when none is held. */
export function fastestHeld(v: ToolView, s: MineSource): string | null {
  const secs = (t: string): number => v.src.digSeconds(s.block, t)
  return s.tools.filter((t) => v.held(t) > 0).sort((a, b) => secs(a) - secs(b))[0] ?? null
}

/** Whether `item` is ever mined with a choice of tools (else no upgrade is looked for: most items are not). */
export function minedWithToolChoice(v: ToolView, item: string): boolean {
  return v.src.sourcesFor(item).some((s) => s.kind === 'mine' && s.tools.length > 1)
}

/**
 * A tool to make before mining `n` of `item` from `s`: one of its harvest tools, faster than the best held (or the
 * cheapest), crafted from `item` itself, whose saved digging pays UPGRADE_PAYBACK_S; else null.
 */
export function upgradeFor(v: ToolView, item: string, n: number, s: Source): string | null {
  if (s.kind !== 'mine' || s.tools.length < 2) return null
  const secs = (t: string | null): number => v.src.digSeconds(s.block, t)
  const now = fastestHeld(v, s) ?? v.cost.cheapestTool(s.tools)
  const blocks = blocksFor(s, n)
  const madeOfItem = (t: string): boolean =>
    v.src
      .sourcesFor(t)
      .some((src) => src.kind === 'craft' && src.group.slots.some((slot) => slot.options.includes(item)))
  const better = s.tools
    .filter((t) => v.held(t) === 0 && !v.stack.includes(t) && madeOfItem(t))
    .filter((t) => blocks * (secs(now) - secs(t)) >= UPGRADE_PAYBACK_S)
    .sort((a, b) => v.cost.of(a) - v.cost.of(b))
  return better[0] ?? null
}

/**
 * A spare pays for itself when the dig is expected to run past the first tool's end by at least this share of a tool's
 * uses: past that, a run digs on with what the tunnel can make (a stone pickaxe after an iron one, 1.5× the time a
 * deepslate block) or goes back for the materials, while a spare made with the first costs only its share of the same
 * trip (three more raw iron from the vein or the search already at the iron's level, one more craft).
 */
const SPARE_PAYBACK = 0.5

/**
 * Whether one of the block's harvest tools lasting `uses` or more is crafted from the rock a search digs (the drops of
 * ORE_HOSTS: cobblestone, cobbled deepslate): the tunnel re-makes such a tool when the first wears out
 * (src/actions/retool.ts), so no spare is carried — a stone pickaxe for lapis, and for coal one better than the wooden.
 */
function remadeInTunnel(v: ToolView, s: MineSource, uses: number): boolean {
  const rock = new Set([...ORE_HOSTS.stone, ...ORE_HOSTS.deepslate].flatMap((b) => [...v.src.dropsOf(b).keys()]))
  return s.tools.some(
    (t) =>
      v.src.usesOf(t) >= uses &&
      v.src
        .sourcesFor(t)
        .some((src) => src.kind === 'craft' && src.group.slots.some((slot) => slot.options.some((o) => rock.has(o)))),
  )
}

/**
 * Whether a mine step that must first obtain its digging tool makes a spare of it too: when the shaft from where a task
 * begins (sea level) down to `level` and the search there are expected to dig SPARE_PAYBACK of a tool's uses or more
 * past the first one's end. The search's length is the knowledge's `searchDig` (the median blocks a branch-mining
 * search digs before it first sees the block, bench:search), taken as exponential: a search that has not seen the
 * ore yet is as far from it as when it began. Diamonds at y -53 with an iron pickaxe: yes (without a spare, bench
 * seeds that outlasted theirs dug their last minutes with stone ones: bench:diamond d57, d63, d66); redstone, and iron
 * with a stone pickaxe: no. A block without `searchDig`, a tool that does not wear, or one the tunnel re-makes
 * (`remadeInTunnel`): no.
 */
export function spareWanted(v: ToolView, s: MineSource, tool: string, level: number | null): boolean {
  const median = s.place.searchDig
  const uses = v.src.usesOf(tool)
  if (median === undefined || !Number.isFinite(uses) || remadeInTunnel(v, s, uses)) return false
  const mean = median / Math.LN2
  const left = uses - (START_Y - Math.min(START_Y, level ?? START_Y))
  // the expected blocks dug past `left`: the shaft alone may use the tool up (left ≤ 0)
  const past = left <= 0 ? mean - left : mean * Math.exp(-left / mean)
  return past >= SPARE_PAYBACK * uses
}
