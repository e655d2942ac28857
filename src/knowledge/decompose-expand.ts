/**
 * The decomposer's expansion (src/knowledge/decompose.ts runs it in passes): `Expander.need` obtains `count` of an item
 * against a simulated inventory — held items and the surplus of earlier steps first, tools and stations once and
 * kept, stations standing within reach used where they stand — trying sources cheapest first by the estimator
 * (src/knowledge/decompose-estimate.ts) and undoing a source whose expansion hits a dead end, and pushes the post-order
 * list of `SubGoal`s. One `expandX` per kind of source. Which tool a mine digs with is src/knowledge/decompose-tools.ts;
 * how many furnaces a smelt shares its items among, src/knowledge/decompose-spare.ts. A dead end is an `Unobtainable`
 * (src/knowledge/decompose-deps.ts, with what the decomposer takes from the knowledge).
 */
import { Goal, MAX_COUNT } from '../schemas/goal.js'
import type { DecompositionNode, Location, SubGoal } from '../schemas/subgoal.js'
import { type DecomposeDeps, Unobtainable } from './decompose-deps.js'
import { ESTIMATE_DEPTH, Estimator } from './decompose-estimate.js'
import {
  blocksFor,
  fastestHeld,
  minedWithToolChoice,
  spareWanted,
  type ToolView,
  upgradeFor,
} from './decompose-tools.js'
import { EXPERIENCE } from './enchanting.js'
import { type Checkpoint, type SmeltBatches, SpareFurnaces, type SpareView } from './decompose-spare.js'
import { placeToLocation } from './location.js'
import {
  type ApplySrc,
  type CollectSrc,
  type CraftSource,
  type EnchantSource,
  type HuntSource,
  LAPIS,
  type MineSource,
  type SmeltSource,
  type Source,
  tripCost,
} from './sources.js'

type Role = DecompositionNode['role']
type StepDraft = SubGoal extends infer S ? (S extends SubGoal ? Omit<S, 'id'> : never) : never

export class Expander {
  readonly steps: SubGoal[] = []
  private readonly inv = new Map<string, number>()
  private readonly stack: string[] = []
  private readonly e: Estimator

  /** What an earlier pass of this plan left over (decompose's last pass): more furnaces are made and fed from it. */
  private readonly spare: SpareFurnaces | null

  constructor(
    private readonly d: DecomposeDeps,
    inventory: Record<string, number>,
    spareHeldFuel: ReadonlySet<string> = new Set(),
    leftOver: ReadonlyMap<string, number> | null = null,
    batches?: SmeltBatches,
  ) {
    this.spare = leftOver && new SpareFurnaces(this.spareView(), new Map(leftOver), batches)
    for (const [k, v] of Object.entries(inventory)) if (v > 0) this.inv.set(k, v)
    this.e = new Estimator(d.cost, d.src, this.inv, this.stack, d.stations ?? new Set(), spareHeldFuel)
  }

  private held(item: string): number {
    return this.inv.get(item) ?? 0
  }
  private give(item: string, n: number): void {
    if (n > 0) this.inv.set(item, this.held(item) + n)
  }

  /** Obtain `count` of `item` (taking held ones first) and return its tree node. */
  need(item: string, count: number, role: Role): DecompositionNode {
    // before held ones count toward the goal: the tool takes them first, so deciding again with them in the bag (the
    // executor decomposes after every step) comes to the same plan instead of mining three more each time
    const upNode = this.upgradeFirst(item, count)
    const take = Math.min(this.held(item), count)
    if (take > 0) this.inv.set(item, this.held(item) - take)
    const rest = count - take
    const node: DecompositionNode = { item, count, role, fromInventory: take, subGoal: null, kind: null, children: [] }
    if (rest === 0) return node // never after an upgrade: it is made only when more are needed than held
    const imp = this.d.impossibleReason(item)
    if (imp) throw new Unobtainable(item, imp)
    if (this.stack.includes(item)) throw new Unobtainable(item, `cycle: ${[...this.stack, item].join(' → ')}`)
    const ranked = this.e.rank(item, rest)
    if (!ranked.length) throw new Unobtainable(item, 'no usable source')
    // Try sources cheapest first; a source whose expansion hits a dead end is undone and the next one tried.
    let last: Unobtainable | null = null
    for (const source of ranked) {
      const saved = this.checkpoint()
      this.stack.push(item)
      try {
        this.expand(node, source, rest)
        if (upNode) node.children.unshift(upNode)
        return node
      } catch (err) {
        if (!(err instanceof Unobtainable)) throw err
        last = err
        this.rollback(saved)
        node.children = []
        node.subGoal = null
        node.kind = null
      } finally {
        this.stack.pop()
      }
    }
    throw last ?? new Unobtainable(item, 'no usable source')
  }

  /** The simulated inventory and step count, to undo an expansion that hits a dead end. */
  private checkpoint(): Checkpoint {
    return { inv: new Map(this.inv), steps: this.steps.length }
  }
  private rollback(saved: Checkpoint): void {
    this.inv.clear()
    for (const [k, v] of saved.inv) this.inv.set(k, v)
    this.steps.length = saved.steps
  }

  /** Make sure one of `tools` is held (obtain `count` of the cheapest if not: with a spare); null when already held. */
  ensureTool(tools: string[], role: Role, count: (tool: string) => number = () => 1): DecompositionNode | null {
    if (tools.length === 0 || tools.some((t) => this.held(t) > 0 || this.d.stations?.has(t))) return null
    const t = this.d.cost.cheapestTool(tools.filter((x) => !this.stack.includes(x)))
    if (t === null) throw new Unobtainable(tools[0] ?? '?', 'no obtainable tool')
    const n = count(t)
    const node = this.need(t, n, role)
    this.give(t, n)
    return node
  }

  /** A long dig first makes its faster tool from its own first blocks (kept even if its mine below fails over). */
  private upgradeFirst(item: string, count: number): DecompositionNode | null {
    const rest = count - this.held(item)
    if (rest <= 0 || this.stack.includes(item) || this.d.impossibleReason(item)) return null
    // most items are never mined with a choice of tools: no ranking for them (it made the tech tree 40 % slower)
    if (!minedWithToolChoice(this.tools(), item)) return null
    const first = this.e.rank(item, rest)[0]
    const tool = first ? upgradeFor(this.tools(), item, rest, first) : null
    return tool ? this.ensureTool([tool], 'tool') : null
  }

  /** What furnace sharing (src/knowledge/decompose-spare.ts) reads and changes of this expansion. */
  private spareView(): SpareView {
    return {
      cost: this.d.cost,
      standing: (station) => this.d.stations?.has(station) ?? false,
      held: (i) => this.held(i),
      crafts: (i) => this.steps.some((s) => s.kind === 'craft' && s.goal.object === i),
      give: (i, n) => this.give(i, n),
      drop: (i) => this.inv.delete(i),
      tryNeed: (item, count) => {
        try {
          return this.need(item, count, 'station')
        } catch (err) {
          if (err instanceof Unobtainable) return null
          throw err
        }
      },
      checkpoint: () => this.checkpoint(),
      rollback: (saved) => this.rollback(saved),
      stepsSince: (saved) => this.steps.slice(saved.steps),
    }
  }

  /** What tool choice (src/knowledge/decompose-tools.ts) reads of this expansion. */
  private tools(): ToolView {
    return { src: this.d.src, cost: this.d.cost, held: (i) => this.held(i), stack: this.stack }
  }

  // ---- expansion ------------------------------------------------------------------------------------------------

  private push(node: DecompositionNode, step: StepDraft): void {
    const full = { ...step, id: this.steps.length } as SubGoal
    this.steps.push(full)
    node.subGoal = full.id
    node.kind = full.kind
  }

  private goal(object: string, count: number, material: Record<string, number>, tool: string | null): Goal {
    return Goal.parse({ object, count: Math.min(count, MAX_COUNT), material, tool, info: this.d.infoFor(object) })
  }

  private mobLocation(mob: string): Location | null {
    const p = this.d.src.mobPlace(mob)
    return p ? placeToLocation(p) : null
  }

  /** Attach an optional child (a tool or station obtained for this step; null when already held). */
  private adopt(node: DecompositionNode, x: DecompositionNode | null): void {
    if (x) node.children.push(x)
  }

  private expand(node: DecompositionNode, s: Source, n: number): void {
    node.children = []
    switch (s.kind) {
      case 'craft':
        this.expandCraft(node, s, n)
        break
      case 'smelt':
        this.expandSmelt(node, s, n)
        break
      case 'mine':
        this.expandMine(node, s, n)
        break
      case 'hunt':
        this.expandHunt(node, s, n)
        break
      case 'collect':
        this.expandCollect(node, s, n)
        break
      case 'apply':
        this.expandApply(node, s, n)
        break
      case 'enchant':
        this.expandEnchant(node, s, n)
        break
    }
  }

  private expandCraft(node: DecompositionNode, s: CraftSource, n: number): void {
    const kids = node.children
    const item = node.item
    const runs = Math.ceil(n / s.group.count)
    const v = this.e.pickVariant(s.group.variants, runs, ESTIMATE_DEPTH)
    if (!v) throw new Unobtainable(item, 'no craftable recipe variant')
    if (s.group.needsTable) this.adopt(node, this.ensureTool(['crafting_table'], 'station'))
    const materials: Record<string, number> = {}
    for (const [i, k] of Object.entries(v.recipe.ingredients)) {
      materials[i] = k * runs
      kids.push(this.need(i, k * runs, 'material'))
    }
    const made = runs * s.group.count
    this.push(node, {
      kind: 'craft',
      goal: this.goal(item, made, materials, s.group.needsTable ? 'crafting_table' : null),
      estimatedSteps: 1,
      craft: { materials, needsTable: s.group.needsTable, runs, outputPerRun: s.group.count },
    })
    this.give(item, made - n)
  }

  private expandSmelt(node: DecompositionNode, s: SmeltSource, n: number): void {
    const kids = node.children
    const item = node.item
    const inputs = s.inputs.filter((i) => !this.stack.includes(i))
    let input = inputs[0]!
    for (const i of inputs)
      if (this.e.est(i, n, ESTIMATE_DEPTH) < this.e.est(input, n, ESTIMATE_DEPTH) - 1e-9) input = i
    // the last pass cooks a batch whole at its first smelt (the rest of it is then held for later needs)
    const all = this.spare?.batch(item, input, n) ?? n
    // an input dug underground (ore) comes before the furnace, as a player makes one down there: the shaft to the ore
    // fills the bag with the furnace's stone (40–50 blocks down to the iron), where a furnace made first cost the
    // wooden pickaxe 8 more cobblestone at the surface (about 13 s in bench:diamond). One gathered on the land (sand)
    // comes after it, so the wood and stone come from where the task began, not from a desert far from any tree. The
    // fuel of a smelt done down there is picked with the climb to it (coal is most common at y 96).
    const dug = this.e.dugAt(input, all)
    if (!dug) this.adopt(node, this.ensureTool(['furnace'], 'station'))
    kids.push(this.need(input, all, 'material'))
    if (dug) this.adopt(node, this.ensureTool(['furnace'], 'station'))
    const picked = this.e.pickFuel(all, undefined, dug?.bestY)
    const choice =
      input === picked.item || !this.spare
        ? { furnaces: 1, fuelCount: picked.count }
        : this.spare.choose(node, all, picked, input)
    const { furnaces, fuelCount } = choice
    const fuel = { item: choice.fuel ?? picked.item }
    kids.push(this.need(fuel.item, fuelCount, 'fuel'))
    this.push(node, {
      kind: 'smelt',
      goal: this.goal(
        item,
        all,
        input === fuel.item ? { [input]: all + fuelCount } : { [input]: all, [fuel.item]: fuelCount },
        'furnace',
      ),
      estimatedSteps: 1,
      smelt: { input, inputCount: all, fuel: fuel.item, fuelCount, furnaces },
    })
    this.give(item, all - n)
  }

  /** What this expansion holds at its end: nothing later in the plan wants it. */
  leftOver(): Map<string, number> {
    return new Map([...this.inv].filter(([, v]) => v > 0))
  }

  private expandMine(node: DecompositionNode, s: MineSource, n: number): void {
    const item = node.item
    const location = placeToLocation(s.place, this.d.lavaLevel ?? null)
    const spare = (t: string): number =>
      this.d.spareTools !== false && spareWanted(this.tools(), s, t, location.bestY) ? 2 : 1
    this.adopt(node, this.ensureTool(s.tools, 'tool', spare))
    const tool = fastestHeld(this.tools(), s)
    const blocksToDig = blocksFor(s, n)
    const made = Math.max(n, Math.floor(blocksToDig * s.yieldPer + 1e-9))
    this.push(node, {
      kind: 'mine',
      goal: this.goal(item, made, {}, tool),
      estimatedSteps: blocksToDig * s.place.findCost + tripCost(s.place),
      mine: { blocks: [s.block, ...s.also], tool, acceptableTools: s.tools, blocksToDig, location },
    })
    this.give(item, made - n)
  }

  private expandHunt(node: DecompositionNode, s: HuntSource, n: number): void {
    const item = node.item
    const kills = Math.ceil(n / s.yieldPer - 1e-9)
    const made = Math.max(n, Math.floor(kills * s.yieldPer + 1e-9))
    this.push(node, {
      kind: 'hunt',
      goal: this.goal(item, made, {}, null),
      estimatedSteps: kills * s.place.findCost + tripCost(s.place),
      hunt: { mob: s.mob, kills, location: placeToLocation(s.place) },
    })
    this.give(item, made - n)
  }

  private expandCollect(node: DecompositionNode, s: CollectSrc, n: number): void {
    const item = node.item
    const tries = Math.ceil(n / s.spec.yield)
    this.push(node, {
      kind: 'collect',
      goal: this.goal(item, n, {}, null),
      estimatedSteps: tries * s.spec.findCost,
      collect: {
        near: s.spec.near,
        location: this.mobLocation(s.spec.near) ?? {
          strategy: 'surface',
          yMin: null,
          yMax: null,
          bestY: null,
          biomes: [],
          time: null,
        },
      },
    })
  }

  private expandApply(node: DecompositionNode, s: ApplySrc, n: number): void {
    const kids = node.children
    const item = node.item
    const sp = s.spec
    const uses = Math.ceil(n / sp.yield - 1e-9)
    if (sp.station) this.adopt(node, this.ensureTool([sp.station], 'station'))
    const materials: Record<string, number> = {}
    if (sp.toolConsumed) {
      materials[sp.tool] = uses
      kids.push(this.need(sp.tool, uses, 'material'))
    } else this.adopt(node, this.ensureTool([sp.tool], 'tool'))
    for (const [m, k] of Object.entries(sp.materials ?? {})) {
      materials[m] = k * uses
      kids.push(this.need(m, k * uses, 'material'))
    }
    const made = Math.max(n, Math.floor(uses * sp.yield + 1e-9))
    this.push(node, {
      kind: 'apply',
      goal: this.goal(item, made, materials, sp.tool),
      estimatedSteps: uses * sp.findCost,
      apply: {
        tool: sp.tool,
        toolConsumed: sp.toolConsumed,
        target: sp.target,
        targetKind: sp.targetKind,
        uses,
        location: sp.targetKind === 'mob' ? this.mobLocation(sp.target) : null,
      },
    })
    this.give(item, made - n)
  }

  private expandEnchant(node: DecompositionNode, s: EnchantSource, n: number): void {
    const kids = node.children
    const item = node.item
    // One enchanted tool per run of attempts; the table and its bookshelves are kept, tools, lapis and levels spent.
    this.adopt(node, this.ensureTool([s.station], 'station'))
    if (this.held(s.bookshelf) < s.bookshelves) {
      kids.push(this.need(s.bookshelf, s.bookshelves, 'station'))
      this.give(s.bookshelf, s.bookshelves)
    }
    const attempts = s.attempts * n
    const materials: Record<string, number> = {
      [s.tool]: attempts,
      [LAPIS]: s.lapis * n,
      [EXPERIENCE]: s.experience * n,
    }
    for (const [m, k] of Object.entries(materials)) kids.push(this.need(m, k, 'material'))
    this.push(node, {
      kind: 'enchant',
      goal: this.goal(item, n, materials, s.station),
      estimatedSteps: attempts,
      enchant: {
        tool: s.tool,
        enchantment: s.enchantment,
        chance: s.chance,
        attempts,
        lapis: s.lapis * n,
        experience: s.experience * n,
        station: s.station,
        bookshelves: s.bookshelves,
      },
    })
  }
}
