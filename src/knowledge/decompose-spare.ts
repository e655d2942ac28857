/**
 * The decomposer's last pass (src/knowledge/decompose.ts): how many furnaces a smelt shares its items among when an
 * earlier pass left materials and fuel over — split from the expansion (src/knowledge/decompose-expand.ts), which
 * it reads and changes through `SpareView`. More furnaces are crafted only from what the plan leaves over (crafts
 * only, nothing mined for them) and fed only from spare fuel; the rules of the choice are src/knowledge/furnaces.ts.
 * Smelts the earlier pass batched into one (`smeltBatches`) are cooked whole at the first of them, so the furnaces
 * are chosen for the whole batch, and fed from the fuel the earlier pass burnt for all of the batch's smelts too.
 */
import type { DecompositionNode, SubGoal } from '../schemas/subgoal.js'
import type { CostModel } from './cost.js'
import { type FurnaceChoice, shareAmong } from './furnaces.js'

/**
 * Items each smelt of the earlier pass cooks, after batching, by output and input (`batchKey`): a need for 3 iron (a
 * pickaxe) and one for 4 (a compass) are one smelt of 7 there, so here the first of them cooks all 7 and chooses
 * furnaces for 7 (alone, neither 3 nor 4 paid for a second furnace: bench p1 compass seed 2 cooked 7 in one, 70 s).
 * With the items, the fuel the earlier pass burnt for them (item → count): its plan leaves none of it over, yet the
 * batch cooked whole burns less (a coal for the 3 and one for the 4; 7 in one furnace burn one, so one is free for a
 * second furnace).
 */
export type SmeltBatches = ReadonlyMap<string, { items: number; fuel: Readonly<Record<string, number>> }>

const batchKey = (output: string, input: string): string => `${output} from ${input}`

/** The batched smelts of a plan's steps. */
export function smeltBatches(steps: readonly SubGoal[]): SmeltBatches {
  const out = new Map<string, { items: number; fuel: Record<string, number> }>()
  for (const s of steps)
    if (s.kind === 'smelt') {
      const key = batchKey(s.goal.object, s.smelt.input)
      const had = out.get(key) ?? { items: 0, fuel: {} }
      const fuel = { ...had.fuel, [s.smelt.fuel]: (had.fuel[s.smelt.fuel] ?? 0) + s.smelt.fuelCount }
      out.set(key, { items: had.items + s.smelt.inputCount, fuel })
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
  /** batches whose earlier fuel is already counted as the plan's (`freed`) */
  private readonly credited = new Set<string>()

  constructor(
    private readonly x: SpareView,
    private readonly spare: Map<string, number>,
    private readonly batches: SmeltBatches = new Map(),
  ) {}

  /** Items a smelt of `n` should cook: its whole batch when it is the batch's first, else `n`. */
  batch(output: string, input: string, n: number): number {
    const key = batchKey(output, input)
    const all = this.batches.get(key)?.items ?? n
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
    // what of each fuel this smelt may burn: the plan's left-over and what the earlier pass burnt for the batch (the
    // fuel picked is counted for one furnace already: its `count`)
    const freed = this.freed(node.item, input)
    const has = (item: string): number => this.left(item) + (freed[item] ?? 0)
    const others = fuels
      .filter((f) => f.item !== fuel.item && f.item !== input && has(f.item) > 0)
      .map((f) => ({ item: f.item, count: 0, burnItems: f.burnItems, spare: has(f.item) }))
    const first = { ...fuel, burnItems, spare: Math.max(0, has(fuel.item) - fuel.count) }
    const options = [first, ...others]
    const choice = shareAmong(n, options, {
      here: this.x.held('furnace') + (this.x.standing('furnace') ? 1 : 0),
      crafting: this.x.crafts('furnace'),
      make: (count) => this.makeFromSpare(node, 'furnace', count),
    })
    const burnt = options.find((o) => o.item === (choice.fuel ?? fuel.item))!
    for (const o of options) this.spare.set(o.item, o.spare - (o === burnt ? choice.fuelCount - o.count : 0))
    return choice
  }

  /** The fuel the earlier pass burnt for the batch `output` from `input`, once per batch (then nothing). */
  private freed(output: string, input: string): Readonly<Record<string, number>> {
    const key = batchKey(output, input)
    if (this.credited.has(key)) return {}
    this.credited.add(key)
    return this.batches.get(key)?.fuel ?? {}
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
