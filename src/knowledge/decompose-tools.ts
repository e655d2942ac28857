/**
 * Which tool a mine step digs with, split from the decomposer (src/knowledge/decompose.ts): the fastest of its harvest
 * tools the simulated inventory holds, and the faster tool a long dig first makes from what it digs (a stone pickaxe
 * from the first 3 of 55 cobblestone) when the digging it saves pays for it. Dig times come from minecraft-data's
 * hardness and tool speeds (`SourceIndex.digSeconds`). Pure: the decomposer passes what is held and on its stack.
 */
import type { CostModel } from './cost.js'
import type { MineSource, Source, SourceIndex } from './sources.js'

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
