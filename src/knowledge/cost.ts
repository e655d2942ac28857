/**
 * Cost model: the estimated number of steps to obtain one unit of each item from nothing, computed for the whole
 * version at once by fixed-point iteration over all sources (so cycles such as ingot ↔ nugget ↔ block are harmless:
 * every step adds a positive cost, and an item with no finite source stays Infinity = unobtainable). Tools and
 * stations are charged once per source, not per unit. Also ranks fuels by cost per smelted item. A model may carry a
 * `RouteBias` (src/knowledge/routes.ts): routes that failed during the goal cost more, blocks and mobs in sight less;
 * `biased()` solves such a model (a few milliseconds) for one decomposition.
 */
import type { KbData } from './data.js'
import { EXPERIENCE } from './enchanting.js'
import { failurePenalty, NO_BIAS, type RouteBias, SEEN_FIND_COST, sourceSeen } from './routes.js'
import { LAPIS, type HuntSource, type MineSource, tripCost, type Source, type SourceIndex } from './sources.js'

/** Items whose explicit impossible entry forbids every source (they cost Infinity). */
export type ImpossibleCheck = (item: string) => string | null

/** Fuels the planner may choose (others are accepted by the dry-run world but never planned). */
const PLANNABLE_FUEL = /^(coal|charcoal|coal_block|stick|.*_planks|.*_log)$/

export class CostModel {
  private readonly cost = new Map<string, number>()
  private fuelUnit = Infinity

  constructor(
    private readonly kb: KbData,
    private readonly src: SourceIndex,
    private readonly impossible: ImpossibleCheck,
    readonly bias: RouteBias = NO_BIAS,
  ) {
    this.solve()
  }

  /** This model with `bias` applied (itself when the bias is empty). */
  biased(bias: RouteBias): CostModel {
    if (bias.failed.size === 0 && bias.seen.size === 0) return this
    return new CostModel(this.kb, this.src, this.impossible, bias)
  }

  /** Steps to find and take one unit from a mine or hunt source (cheap when its block or mob is in sight). */
  findPerUnit(s: MineSource | HuntSource): number {
    return (sourceSeen(s, this.bias) ? Math.min(SEEN_FIND_COST, s.place.findCost) : s.place.findCost) / s.yieldPer
  }

  /** One-off travel to a mine or hunt source (none when it is in sight). */
  trip(s: MineSource | HuntSource): number {
    return sourceSeen(s, this.bias) ? 0 : tripCost(s.place)
  }

  /** Extra steps for a world route that failed during this goal. */
  penalty(s: Source): number {
    return failurePenalty(s, this.bias)
  }

  /** Steps per unit from nothing (Infinity = no known way). */
  of(item: string): number {
    return this.cost.get(item) ?? Infinity
  }

  /** Cheapest tool among `tools` (any of them works), or null when the list is empty (hand). */
  cheapestTool(tools: string[]): string | null {
    let best: string | null = null
    let bestCost = Infinity
    for (const t of tools) {
      const c = this.of(t)
      if (c < bestCost) {
        best = t
        bestCost = c
      }
    }
    return best ?? tools[0] ?? null
  }

  /** Fuels the planner may use, with burn capacity. */
  plannableFuels(): Array<{ item: string; burnItems: number }> {
    return this.kb.fuels.filter((f) => PLANNABLE_FUEL.test(f.item))
  }

  /** Cost of one source per unit of output, with the given per-item cost function. */
  sourceCost(s: Source, c: (item: string) => number = (i) => this.of(i)): number {
    switch (s.kind) {
      case 'mine':
        return this.findPerUnit(s) + this.trip(s) + (s.tools.length ? Math.min(...s.tools.map(c)) : 0) + this.penalty(s)
      case 'hunt':
        return this.findPerUnit(s) + this.trip(s) + this.penalty(s)
      case 'collect':
        return s.spec.findCost / s.spec.yield + this.penalty(s)
      case 'apply': {
        let per = s.spec.findCost + (s.spec.toolConsumed ? c(s.spec.tool) : 0)
        for (const [m, n] of Object.entries(s.spec.materials ?? {})) per += n * c(m)
        return (
          per / s.spec.yield +
          (s.spec.toolConsumed ? 0 : c(s.spec.tool)) +
          (s.spec.station ? c(s.spec.station) : 0) +
          this.penalty(s)
        )
      }
      case 'smelt':
        return 1 + Math.min(...s.inputs.map(c)) + this.fuelUnit + c('furnace')
      case 'craft': {
        let per = 1
        for (const slot of s.group.slots) per += slot.count * Math.min(...slot.options.map(c))
        return per / s.group.count + (s.group.needsTable ? c('crafting_table') : 0)
      }
      case 'enchant':
        return (
          s.attempts * (1 + c(s.tool)) +
          s.lapis * c(LAPIS) +
          s.experience * c(EXPERIENCE) +
          c(s.station) +
          s.bookshelves * c(s.bookshelf)
        )
    }
  }

  private solve(): void {
    const items = this.src.allItems().filter((i) => this.impossible(i) === null)
    for (let iter = 0; iter < 60; iter++) {
      let changed = false
      this.fuelUnit = Math.min(Infinity, ...this.plannableFuels().map((f) => this.of(f.item) / f.burnItems))
      for (const item of items) {
        let best = this.of(item)
        for (const s of this.src.sourcesFor(item)) {
          const v = this.sourceCost(s)
          if (v < best - 1e-9) best = v
        }
        if (best < this.of(item) - 1e-9) {
          this.cost.set(item, best)
          changed = true
        }
      }
      if (!changed) break
    }
  }

  /** Cheapest fuel cost per smelted item. */
  fuelPerItem(): number {
    return this.fuelUnit
  }
}
