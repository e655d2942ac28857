/**
 * Recursive goal decomposer: turns a `Goal` and an inventory into the tree of everything that must be obtained
 * first, down to raw resources, plus its post-order list of `SubGoal`s (src/schemas/subgoal.ts). It simulates the
 * inventory while expanding (held items and surplus of earlier steps are used first; tools and stations are
 * obtained once and kept), picks among sources and recipe variants by inventory-aware estimated cost with a
 * deterministic tie-break, and refuses cycles with a stack guard. Unobtainable parts end in `{ ok: false, reason }`.
 */
import { Goal, MAX_COUNT, type GoalInput } from '../schemas/goal.js'
import type { Decomposition, DecompositionNode, Location, SubGoal } from '../schemas/subgoal.js'
import type { CostModel } from './cost.js'
import type { BlockPlace, MobPlace } from './data.js'
import type { ConcreteRecipe } from './recipes.js'
import { EXPERIENCE } from './enchanting.js'
import { LAPIS, tripCost, type Source, type SourceIndex } from './sources.js'

/** What the decomposer needs from the knowledge base. */
export interface DecomposeDeps {
  src: SourceIndex
  cost: CostModel
  impossibleReason(item: string): string | null
  infoFor(item: string): string
  /** checks a candidate step list from the start inventory (the dry-run world); enables merging repeated steps */
  verify?: (steps: SubGoal[], inventory: Record<string, number>) => boolean
}

class Unobtainable extends Error {
  constructor(
    readonly item: string,
    readonly reason: string,
  ) {
    super(`${item}: ${reason}`)
  }
}

type Role = DecompositionNode['role']
type StepDraft = SubGoal extends infer S ? (S extends SubGoal ? Omit<S, 'id'> : never) : never
const ESTIMATE_DEPTH = 3

export function placeToLocation(p: BlockPlace | MobPlace): Location {
  return {
    strategy: p.where,
    yMin: 'yMin' in p && p.yMin !== undefined ? p.yMin : null,
    yMax: 'yMax' in p && p.yMax !== undefined ? p.yMax : null,
    bestY: 'bestY' in p && p.bestY !== undefined ? p.bestY : null,
    biomes: p.biomes ?? [],
    time: 'time' in p && p.time ? p.time : null,
  }
}

class Expander {
  readonly steps: SubGoal[] = []
  private readonly inv = new Map<string, number>()
  private readonly stack: string[] = []

  constructor(
    private readonly d: DecomposeDeps,
    inventory: Record<string, number>,
  ) {
    for (const [k, v] of Object.entries(inventory)) if (v > 0) this.inv.set(k, v)
  }

  private held(item: string): number {
    return this.inv.get(item) ?? 0
  }
  private give(item: string, n: number): void {
    if (n > 0) this.inv.set(item, this.held(item) + n)
  }

  /** Obtain `count` of `item` (taking held ones first) and return its tree node. */
  need(item: string, count: number, role: Role): DecompositionNode {
    const take = Math.min(this.held(item), count)
    if (take > 0) this.inv.set(item, this.held(item) - take)
    const rest = count - take
    const node: DecompositionNode = { item, count, role, fromInventory: take, subGoal: null, kind: null, children: [] }
    if (rest === 0) return node
    const imp = this.d.impossibleReason(item)
    if (imp) throw new Unobtainable(item, imp)
    if (this.stack.includes(item)) throw new Unobtainable(item, `cycle: ${[...this.stack, item].join(' → ')}`)
    const ranked = this.rank(item, rest)
    if (!ranked.length) throw new Unobtainable(item, 'no usable source')
    // Try sources cheapest first; a source whose expansion hits a dead end is undone and the next one tried.
    let last: Unobtainable | null = null
    for (const source of ranked) {
      const saved = { inv: new Map(this.inv), steps: this.steps.length }
      this.stack.push(item)
      try {
        this.expand(node, source, rest)
        return node
      } catch (err) {
        if (!(err instanceof Unobtainable)) throw err
        last = err
        this.inv.clear()
        for (const [kk, v] of saved.inv) this.inv.set(kk, v)
        this.steps.length = saved.steps
        node.children = []
        node.subGoal = null
        node.kind = null
      } finally {
        this.stack.pop()
      }
    }
    throw last ?? new Unobtainable(item, 'no usable source')
  }

  /** Make sure one of `tools` is held (obtain the cheapest once if not); null when already held. */
  ensureTool(tools: string[], role: Role): DecompositionNode | null {
    if (tools.length === 0 || tools.some((t) => this.held(t) > 0)) return null
    const t = this.d.cost.cheapestTool(tools.filter((x) => !this.stack.includes(x)))
    if (t === null) throw new Unobtainable(tools[0] ?? '?', 'no obtainable tool')
    const node = this.need(t, 1, role)
    this.give(t, 1)
    return node
  }

  // ---- estimates (no side effects) ----------------------------------------------------------------------------

  private est(item: string, n: number, depth: number): number {
    const miss = n - this.held(item)
    if (miss <= 0) return 0
    if (this.stack.includes(item)) return Infinity
    let best = this.d.cost.of(item) * miss
    if (depth <= 0) return best
    for (const s of this.d.src.sourcesFor(item))
      if (s.kind === 'craft') best = Math.min(best, this.estSource(s, miss, depth))
    return best
  }

  private toolEst(tools: string[]): number {
    return tools.length === 0 || tools.some((t) => this.held(t) > 0) ? 0 : this.d.cost.toolCost(tools)
  }

  private estSource(s: Source, n: number, depth: number): number {
    switch (s.kind) {
      case 'craft': {
        const runs = Math.ceil(n / s.group.count)
        const v = this.pickVariant(s.group.variants, runs, depth)
        return v ? v.cost + runs + (s.group.needsTable ? this.toolEst(['crafting_table']) : 0) : Infinity
      }
      case 'smelt': {
        const inputs = s.inputs.filter((i) => !this.stack.includes(i))
        if (!inputs.length) return Infinity
        return (
          n +
          Math.min(...inputs.map((i) => this.est(i, n, depth - 1))) +
          this.pickFuel(n).cost +
          this.toolEst(['furnace'])
        )
      }
      case 'mine':
        return (s.place.findCost / s.yieldPer) * n + tripCost(s.place) + this.toolEst(s.tools)
      case 'hunt':
        return (s.place.findCost / s.yieldPer) * n + tripCost(s.place)
      case 'collect':
        return (s.spec.findCost / s.spec.yield) * n
      case 'apply': {
        const uses = Math.ceil(n / s.spec.yield)
        let v = uses * s.spec.findCost + (s.spec.station ? this.toolEst([s.spec.station]) : 0)
        v += s.spec.toolConsumed ? this.est(s.spec.tool, uses, depth - 1) : this.toolEst([s.spec.tool])
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
          this.toolEst([s.station]) +
          this.est(s.bookshelf, s.bookshelves, depth - 1)
        )
      }
    }
  }

  private pickVariant(
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

  private pickFuel(smelts: number): { item: string; count: number; cost: number } {
    let best = { item: 'coal', count: Math.ceil(smelts / 8), cost: Infinity }
    for (const f of this.d.cost.plannableFuels()) {
      if (this.stack.includes(f.item)) continue
      const count = Math.ceil(smelts / f.burnItems)
      const cost = this.est(f.item, count, 1)
      if (cost < best.cost - 1e-9) best = { item: f.item, count, cost }
    }
    return best
  }

  /** Sources with a finite estimate, cheapest first (stable: ties keep the source order). */
  private rank(item: string, n: number): Source[] {
    return this.d.src
      .sourcesFor(item)
      .map((s, i) => ({ s, i, v: this.estSource(s, n, ESTIMATE_DEPTH) }))
      .filter((x) => Number.isFinite(x.v))
      .sort((a, b) => a.v - b.v || a.i - b.i)
      .map((x) => x.s)
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

  private expand(node: DecompositionNode, s: Source, n: number): void {
    node.children = []
    const kids = node.children
    const add = (x: DecompositionNode | null): void => {
      if (x) kids.push(x)
    }
    const item = node.item
    switch (s.kind) {
      case 'craft': {
        const runs = Math.ceil(n / s.group.count)
        const v = this.pickVariant(s.group.variants, runs, ESTIMATE_DEPTH)
        if (!v) throw new Unobtainable(item, 'no craftable recipe variant')
        if (s.group.needsTable) add(this.ensureTool(['crafting_table'], 'station'))
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
        return
      }
      case 'smelt': {
        const inputs = s.inputs.filter((i) => !this.stack.includes(i))
        let input = inputs[0]!
        for (const i of inputs)
          if (this.est(i, n, ESTIMATE_DEPTH) < this.est(input, n, ESTIMATE_DEPTH) - 1e-9) input = i
        add(this.ensureTool(['furnace'], 'station'))
        kids.push(this.need(input, n, 'material'))
        const fuel = this.pickFuel(n)
        kids.push(this.need(fuel.item, fuel.count, 'fuel'))
        this.push(node, {
          kind: 'smelt',
          goal: this.goal(
            item,
            n,
            input === fuel.item ? { [input]: n + fuel.count } : { [input]: n, [fuel.item]: fuel.count },
            'furnace',
          ),
          estimatedSteps: 1,
          smelt: { input, inputCount: n, fuel: fuel.item, fuelCount: fuel.count },
        })
        return
      }
      case 'mine': {
        add(this.ensureTool(s.tools, 'tool'))
        const tool = s.tools.find((t) => this.held(t) > 0) ?? null
        const blocksToDig = Math.ceil(n / s.yieldPer - 1e-9)
        const made = Math.max(n, Math.floor(blocksToDig * s.yieldPer + 1e-9))
        this.push(node, {
          kind: 'mine',
          goal: this.goal(item, made, {}, tool),
          estimatedSteps: blocksToDig * s.place.findCost + tripCost(s.place),
          mine: {
            blocks: [s.block, ...s.also],
            tool,
            acceptableTools: s.tools,
            blocksToDig,
            location: placeToLocation(s.place),
          },
        })
        this.give(item, made - n)
        return
      }
      case 'hunt': {
        const kills = Math.ceil(n / s.yieldPer - 1e-9)
        const made = Math.max(n, Math.floor(kills * s.yieldPer + 1e-9))
        this.push(node, {
          kind: 'hunt',
          goal: this.goal(item, made, {}, null),
          estimatedSteps: kills * s.place.findCost + tripCost(s.place),
          hunt: { mob: s.mob, kills, location: placeToLocation(s.place) },
        })
        this.give(item, made - n)
        return
      }
      case 'collect': {
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
        return
      }
      case 'apply': {
        const sp = s.spec
        const uses = Math.ceil(n / sp.yield - 1e-9)
        if (sp.station) add(this.ensureTool([sp.station], 'station'))
        const materials: Record<string, number> = {}
        if (sp.toolConsumed) {
          materials[sp.tool] = uses
          kids.push(this.need(sp.tool, uses, 'material'))
        } else add(this.ensureTool([sp.tool], 'tool'))
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
        return
      }
      case 'enchant': {
        // One enchanted tool per run of attempts; the table and its bookshelves are kept, tools, lapis and levels spent.
        add(this.ensureTool([s.station], 'station'))
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
        return
      }
    }
  }
}

/** Decompose `goal` against `inventory` (item → count). Never throws for unobtainable items: returns ok=false. */
export function decompose(
  d: DecomposeDeps,
  goalInput: GoalInput,
  inventory: Record<string, number> = {},
): Decomposition {
  const goal = Goal.parse(goalInput)
  const ex = new Expander(d, inventory)
  try {
    const tree = ex.need(goal.object, goal.count, 'goal')
    const steps = d.verify ? mergeRepeats(ex.steps, tree, (c) => d.verify!(c, inventory)) : ex.steps
    const estimatedSteps = steps.reduce((a, s) => a + s.estimatedSteps, 0)
    return { ok: true, goal, tree, steps, estimatedSteps }
  } catch (err) {
    if (err instanceof Unobtainable) {
      const why = d.impossibleReason(err.item)
      const reason = err.item === goal.object ? (why ?? err.reason) : `needs ${err.item}: ${why ?? err.reason}`
      return { ok: false, goal, item: err.item, reason }
    }
    throw err
  }
}

/** Key of steps that do the same thing and can be batched into one (same kind, object and per-run recipe). */
function mergeKey(s: SubGoal): string {
  switch (s.kind) {
    case 'mine':
      return `mine|${s.goal.object}|${s.mine.blocks[0]}`
    case 'hunt':
      return `hunt|${s.goal.object}|${s.hunt.mob}`
    case 'collect':
      return `collect|${s.goal.object}`
    case 'apply':
      return `apply|${s.goal.object}|${s.apply.tool}|${s.apply.target}`
    case 'smelt':
      return `smelt|${s.goal.object}|${s.smelt.input}|${s.smelt.fuel}`
    case 'craft':
      return `craft|${s.goal.object}|${Object.entries(s.craft.materials)
        .map(([i, n]) => `${i}:${n / s.craft.runs}`)
        .sort()
        .join(',')}`
    case 'enchant':
      return `enchant|${s.goal.object}`
  }
}

function addCounts(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
  const out = { ...a }
  for (const [k, v] of Object.entries(b)) out[k] = (out[k] ?? 0) + v
  return out
}

/** One step doing the work of `a` then `b` (same merge key). */
function combine(a: SubGoal, b: SubGoal): SubGoal {
  const goal = {
    ...a.goal,
    count: Math.min(MAX_COUNT, a.goal.count + b.goal.count),
    material: addCounts(a.goal.material, b.goal.material),
  }
  const estimatedSteps = a.estimatedSteps + b.estimatedSteps
  if (a.kind === 'mine' && b.kind === 'mine')
    return { ...a, goal, estimatedSteps, mine: { ...a.mine, blocksToDig: a.mine.blocksToDig + b.mine.blocksToDig } }
  if (a.kind === 'hunt' && b.kind === 'hunt')
    return { ...a, goal, estimatedSteps, hunt: { ...a.hunt, kills: a.hunt.kills + b.hunt.kills } }
  if (a.kind === 'apply' && b.kind === 'apply')
    return { ...a, goal, estimatedSteps, apply: { ...a.apply, uses: a.apply.uses + b.apply.uses } }
  if (a.kind === 'smelt' && b.kind === 'smelt') {
    return {
      ...a,
      goal,
      estimatedSteps: 1,
      smelt: {
        ...a.smelt,
        inputCount: a.smelt.inputCount + b.smelt.inputCount,
        fuelCount: a.smelt.fuelCount + b.smelt.fuelCount,
      },
    }
  }
  if (a.kind === 'enchant' && b.kind === 'enchant') {
    const e = {
      ...a.enchant,
      attempts: a.enchant.attempts + b.enchant.attempts,
      lapis: a.enchant.lapis + b.enchant.lapis,
      experience: a.enchant.experience + b.enchant.experience,
    }
    return { ...a, goal, estimatedSteps, enchant: e }
  }
  if (a.kind === 'craft' && b.kind === 'craft') {
    return {
      ...a,
      goal,
      estimatedSteps: 1,
      craft: {
        ...a.craft,
        runs: a.craft.runs + b.craft.runs,
        materials: addCounts(a.craft.materials, b.craft.materials),
      },
    }
  }
  return { ...a, goal, estimatedSteps }
}

/**
 * Batch repeated steps (three separate "mine 1 oak_log" become one "mine 3 oak_log" at the first one's place), keeping
 * a merge only when `ok` (the dry-run world) accepts the whole list. Renumbers ids and re-points the tree.
 */
function mergeRepeats(steps: SubGoal[], tree: DecompositionNode, ok: (candidate: SubGoal[]) => boolean): SubGoal[] {
  let cur = steps.map((s) => ({ step: s, ids: [s.id] }))
  if (!ok(cur.map((c) => c.step))) return steps
  for (let j = 1; j < cur.length; j++) {
    const key = mergeKey(cur[j]!.step)
    const i = cur.findIndex((c, idx) => idx < j && mergeKey(c.step) === key)
    if (i < 0) continue
    const merged = { step: combine(cur[i]!.step, cur[j]!.step), ids: [...cur[i]!.ids, ...cur[j]!.ids] }
    const cand = [...cur.slice(0, i), merged, ...cur.slice(i + 1, j), ...cur.slice(j + 1)]
    if (ok(cand.map((c) => c.step))) {
      cur = cand
      j--
    }
  }
  const remap = new Map<number, number>()
  cur.forEach((c, idx) => {
    for (const id of c.ids) remap.set(id, idx)
  })
  const visit = (n: DecompositionNode): void => {
    if (n.subGoal !== null) n.subGoal = remap.get(n.subGoal) ?? null
    n.children.forEach(visit)
  }
  visit(tree)
  return cur.map((c, idx) => ({ ...c.step, id: idx }))
}
