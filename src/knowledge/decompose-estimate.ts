/**
 * The decomposer's estimates, without side effects (split from src/knowledge/decompose.ts): the inventory-aware cost
 * of obtaining `n` of an item through each of its sources a few levels deep (tools and stations too), of one source,
 * of the cheapest recipe variant (any log, any planks, coal or charcoal: minecraft-data lists each accepted
 * ingredient) and of the cheapest fuel, the ranking of an item's sources, and where an item will be dug underground. It reads the expander's live inventory
 * and stack (items being expanded, never estimated again) and the cost model, whose route bias
 * (src/knowledge/routes.ts) makes failed routes costly and routes in sight cheap.
 */
import type { CostModel } from './cost.js'
import type { BlockPlace } from './data.js'
import { EXPERIENCE } from './enchanting.js'
import type { ConcreteRecipe } from './recipes.js'
import { LAPIS, levelSteps, type Source, type SourceIndex } from './sources.js'

/** How many levels of sources an estimate looks through before using the cost model's per-unit cost. */
export const ESTIMATE_DEPTH = 3

/**
 * Steps a smelt costs beyond its items: the furnace placed, waited on and dug up again. A fuel that is itself smelted
 * (charcoal) then costs more than planks crafted from the same log: a piston's decomposition had smelted a charcoal
 * between two iron smelts it could have done as one.
 */
const SMELT_SESSION = 2

export class Estimator {
  constructor(
    private readonly cost: CostModel,
    private readonly src: SourceIndex,
    private readonly inv: ReadonlyMap<string, number>,
    private readonly stack: readonly string[],
    private readonly stations: ReadonlySet<string>,
    /** Held items not to burn while another fuel can be had (`pickFuel`): decompose's second pass, see there. */
    private readonly spareHeldFuel: ReadonlySet<string> = new Set(),
  ) {}

  private held(item: string): number {
    return this.inv.get(item) ?? 0
  }

  est(item: string, n: number, depth: number): number {
    const miss = n - this.held(item)
    if (miss <= 0) return 0
    if (this.stack.includes(item)) return Infinity
    let best = this.cost.of(item) * miss
    if (depth <= 0) return best
    for (const s of this.src.sourcesFor(item)) best = Math.min(best, this.estSource(s, miss, depth))
    return best
  }

  /**
   * A tool or station not held, estimated from what is held (`depth` levels deep, as `est`): the cost model's
   * per-unit cost is from nothing, so it would price an iron pickaxe at its whole chain from the first log even
   * when the stone pickaxe and the furnace are in the bag — and a witch's rare redstone won over mining the ore.
   */
  toolEst(tools: string[], depth: number): number {
    if (tools.length === 0 || tools.some((t) => this.held(t) > 0 || this.stations.has(t))) return 0
    return Math.min(...tools.map((t) => this.est(t, 1, depth)))
  }

  private estSource(s: Source, n: number, depth: number): number {
    switch (s.kind) {
      case 'craft': {
        const runs = Math.ceil(n / s.group.count)
        const v = this.pickVariant(s.group.variants, runs, depth)
        return v ? v.cost + runs + (s.group.needsTable ? this.toolEst(['crafting_table'], depth - 1) : 0) : Infinity
      }
      case 'smelt': {
        const inputs = s.inputs.filter((i) => !this.stack.includes(i))
        if (!inputs.length) return Infinity
        return (
          SMELT_SESSION +
          n +
          Math.min(...inputs.map((i) => this.est(i, n, depth - 1))) +
          this.pickFuel(n, depth).cost +
          this.toolEst(['furnace'], depth - 1)
        )
      }
      case 'mine':
        return (
          this.cost.findPerUnit(s) * n + this.cost.trip(s) + this.toolEst(s.tools, depth - 1) + this.cost.penalty(s)
        )
      case 'hunt':
        return this.cost.findPerUnit(s) * n + this.cost.trip(s) + this.cost.penalty(s)
      case 'collect':
        return (s.spec.findCost / s.spec.yield) * n + this.cost.penalty(s)
      case 'apply': {
        const uses = Math.ceil(n / s.spec.yield)
        let v =
          uses * s.spec.findCost +
          (s.spec.station ? this.toolEst([s.spec.station], depth - 1) : 0) +
          this.cost.penalty(s)
        v += s.spec.toolConsumed ? this.est(s.spec.tool, uses, depth - 1) : this.toolEst([s.spec.tool], depth - 1)
        for (const [m, k] of Object.entries(s.spec.materials ?? {})) v += this.est(m, k * uses, depth - 1)
        return v
      }
      case 'enchant': {
        if (this.stack.includes(s.tool)) return Infinity
        return (
          n *
            (s.attempts +
              this.est(s.tool, s.attempts, depth - 1) +
              this.est(LAPIS, s.lapis, depth - 1) +
              this.est(EXPERIENCE, s.experience, depth - 1)) +
          this.toolEst([s.station], depth - 1) +
          this.est(s.bookshelf, s.bookshelves, depth - 1)
        )
      }
    }
  }

  pickVariant(
    variants: ConcreteRecipe[],
    runs: number,
    depth: number,
  ): { recipe: ConcreteRecipe; cost: number } | null {
    let best: { recipe: ConcreteRecipe; cost: number } | null = null
    for (const r of variants) {
      if (Object.keys(r.ingredients).some((i) => this.stack.includes(i))) continue
      let cost = 0
      for (const [i, k] of Object.entries(r.ingredients)) cost += this.est(i, k * runs, depth - 1)
      if (!best || cost < best.cost - 1e-9) best = { recipe: r, cost }
    }
    return best && Number.isFinite(best.cost) ? best : null
  }

  /**
   * The cheapest fuel for `smelts` items, estimated `depth - 1` levels deep (a fuel may be smelted: charcoal). With
   * `spareHeldFuel`, those items are passed over while held and another fuel can be had (planks crafted from a held
   * log instead of the log itself). With `atY` (a smelt done where its input is dug), a fuel mined at another level
   * costs the way there too (`climb`).
   */
  pickFuel(smelts: number, depth = 2, atY?: number): { item: string; count: number; cost: number } {
    const pick = (spare: boolean): { item: string; count: number; cost: number } => {
      let best = { item: 'coal', count: Math.ceil(smelts / 8), cost: Infinity }
      for (const f of this.cost.plannableFuels()) {
        if (this.stack.includes(f.item) || (spare && this.spareHeldFuel.has(f.item) && this.held(f.item) > 0)) continue
        const count = Math.ceil(smelts / f.burnItems)
        const cost = this.est(f.item, count, depth - 1) + (atY === undefined ? 0 : this.climb(f.item, count, atY))
        if (cost < best.cost - 1e-9) best = { item: f.item, count, cost }
      }
      return best
    }
    const spared = this.spareHeldFuel.size ? pick(true) : null
    return spared && Number.isFinite(spared.cost) ? spared : pick(false)
  }

  /** Where the part of `n` of `item` not held will be dug, when its cheapest source is an underground block; else null. */
  dugAt(item: string, n: number): BlockPlace | null {
    const rest = n - Math.min(this.held(item), n)
    const first = rest > 0 ? this.rank(item, rest)[0] : undefined
    return first?.kind === 'mine' && first.place.where === 'underground' ? first.place : null
  }

  /**
   * Steps between y `atY` and the level where `item` is dug (`dugAt`; tripCost charges only the way down from sea
   * level): coal, most common at y 96, is a climb of 5 steps from a smelt at the iron's y 16, where a plank from the
   * logs gathered at the start is not.
   */
  private climb(item: string, n: number, atY: number): number {
    const bestY = this.dugAt(item, n)?.bestY
    return bestY === undefined ? 0 : levelSteps(atY, bestY)
  }

  /** Sources with a finite estimate, cheapest first (stable: ties keep the source order). */
  rank(item: string, n: number): Source[] {
    return this.src
      .sourcesFor(item)
      .map((s, i) => ({ s, i, v: this.estSource(s, n, ESTIMATE_DEPTH) }))
      .filter((x) => Number.isFinite(x.v))
      .sort((a, b) => a.v - b.v || a.i - b.i)
      .map((x) => x.s)
  }
}
