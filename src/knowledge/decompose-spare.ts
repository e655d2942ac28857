/**
 * The decomposer's last pass (src/knowledge/decompose.ts): how many furnaces a smelt shares its items among when an
 * earlier pass left materials and fuel over — split from the expansion (src/knowledge/decompose-expand.ts), which
 * it reads and changes through `SpareView`. More furnaces are crafted only from what the plan leaves over (crafts
 * only, nothing mined for them) and fed only from spare fuel; the rules of the choice are src/knowledge/furnaces.ts.
 * Smelts the earlier pass batched into one (`smeltBatches`) are cooked whole at the first of them, so the furnaces
 * are chosen for the whole batch.
 */
import type { DecompositionNode, SubGoal } from '../schemas/subgoal.js'
import type { CostModel } from './cost.js'
import { type FurnaceChoice, shareAmong } from './furnaces.js'

/**
 * Items each smelt of the earlier pass cooks, after batching, by output and input (`batchKey`): a need for 3 iron (a
 * pickaxe) and one for 4 (a compass) are one smelt of 7 there, so here the first of them cooks all 7 and chooses
 * furnaces for 7 (alone, neither 3 nor 4 paid for a second furnace: bench p1 compass seed 2 cooked 7 in one, 70 s).
 */
export type SmeltBatches = ReadonlyMap<string, number>

const batchKey = (output: string, input: string): string => `${output} from ${input}`

/** The batched smelts of a plan's steps. */
export function smeltBatches(steps: readonly SubGoal[]): SmeltBatches {
  const out = new Map<string, number>()
  for (const s of steps)
    if (s.kind === 'smelt') {
      const key = batchKey(s.goal.object, s.smelt.input)
      out.set(key, (out.get(key) ?? 0) + s.smelt.inputCount)
    }
  return out
}

/** A saved state of the expansion: its simulated inventory and step count. */
export interface Checkpoint {
  inv: ReadonlyMap<string, number>
  steps: number
}

/** What furnace sharing reads and changes of the expansion. */
export interface SpareView {
  cost: CostModel
  /** a station of this kind stands within reach (counts as one furnace here) */
  standing(station: string): boolean
  held(item: string): number
  /** the plan so far has a step crafting `item` */
  crafts(item: string): boolean
  give(item: string, n: number): void
  /** no longer hold any `item` */
  drop(item: string): void
  /** obtain `count` of `item` as a sub-goal; null, and nothing changed, when it is unobtainable */
  tryNeed(item: string, count: number): DecompositionNode | null
  checkpoint(): Checkpoint
  rollback(saved: Checkpoint): void
  stepsSince(saved: Checkpoint): readonly SubGoal[]
}

/** Shares smelts among furnaces made and fed from what an earlier pass of the plan left over. */
export class SpareFurnaces {
  /** batches already cooked whole at their first smelt */
  private readonly cooked = new Set<string>()

  constructor(
    private readonly x: SpareView,
    private readonly spare: Map<string, number>,
    private readonly batches: SmeltBatches = new Map(),
  ) {}

  /** Items a smelt of `n` should cook: its whole batch when it is the batch's first, else `n`. */
  batch(output: string, input: string, n: number): number {
    const key = batchKey(output, input)
    const all = this.batches.get(key) ?? n
    if (all <= n || this.cooked.has(key)) return n
    this.cooked.add(key)
    return all
  }

  /**
   * How many furnaces a smelt of `n` shares its items among, and their fuel: the fuel picked first, or — where another
   * fuel the plan leaves over feeds more furnaces — that one (one coal mined on the way and planks to spare: three
   * furnaces on planks, 10 s of cooking instead of 30; two coal: three on planks, not two on coal).
   */
  choose(node: DecompositionNode, n: number, fuel: { item: string; count: number }, input: string): FurnaceChoice {
    const fuels = this.x.cost.plannableFuels()
    const burnItems = fuels.find((f) => f.item === fuel.item)?.burnItems
    if (n < 2 || burnItems === undefined) return { furnaces: 1, fuelCount: fuel.count }
    const others = fuels
      .filter((f) => f.item !== fuel.item && f.item !== input && this.left(f.item) > 0)
      .map((f) => ({ item: f.item, count: 0, burnItems: f.burnItems, spare: this.left(f.item) }))
    const options = [{ ...fuel, burnItems, spare: this.left(fuel.item) }, ...others]
    const choice = shareAmong(n, options, {
      here: this.x.held('furnace') + (this.x.standing('furnace') ? 1 : 0),
      crafting: this.x.crafts('furnace'),
      make: (count) => this.makeFromSpare(node, 'furnace', count),
    })
    if (choice.furnaces > 1) {
      const burnt = options.find((o) => o.item === (choice.fuel ?? fuel.item))!
      this.spare.set(burnt.item, burnt.spare - (choice.fuelCount - burnt.count))
    }
    return choice
  }

  private left(item: string): number {
    return this.spare.get(item) ?? 0
  }

  /** Craft `count` stations from what the plan leaves over only (kept); false, and nothing changed, when it cannot. */
  private makeFromSpare(node: DecompositionNode, station: string, count: number): boolean {
    const x = this.x
    const saved = x.checkpoint()
    // new ones: the held ones are the furnaces already counted
    const had = x.held(station)
    x.drop(station)
    const child = x.tryNeed(station, count)
    if (!child) {
      x.rollback(saved)
      return false
    }
    const used = [...saved.inv]
      .filter(([k]) => k !== station)
      .map(([k, v]) => [k, v - x.held(k)] as const)
      .filter(([, v]) => v > 0)
    const onlyCrafts = x.stepsSince(saved).every((s) => s.kind === 'craft')
    if (!onlyCrafts || used.some(([k, v]) => v > this.left(k))) {
      x.rollback(saved)
      return false
    }
    for (const [k, v] of used) this.spare.set(k, this.left(k) - v)
    x.give(station, had + count)
    node.children.push(child)
    return true
  }
}
