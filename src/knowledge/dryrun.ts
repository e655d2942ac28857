/**
 * Dry-run world: a fast, deterministic, in-process world that executes a sub-goal list with real game data and is
 * the planning benchmark. It does not trust the decomposer: crafting must match a concrete minecraft-data recipe and
 * consumes its materials (3x3 recipes need a crafting_table in the inventory); smelting must match data/smelting.json
 * and needs a furnace and enough fuel; mining needs a natural block whose loot yields the item and a tool that
 * harvests it (a Silk Touch tool for silk-only drops); hunting needs an Overworld mob whose loot has the item (or that
 * gives experience); enchanting needs the table, its bookshelves and, for at least the expected number of attempts,
 * fresh tools, lapis and experience points (both tracked as inventory). Raw resources cost their findCost per unit
 * plus a one-off trip (digging down to the best y-level, travelling to a biome). A failing step stops the run with a
 * fixed reason and a plain message. Materials, tools and stations are judged by the rule book (src/rules/), the same
 * rules the critic and the patroller use; what is its own is the sub-goal arithmetic and the step costs.
 */
import { fmtItems, judge, type Need, type RuleWorld } from '../rules/index.js'
import { tableNeed, craftMaterialsNeed } from '../rules/craft.js'
import { furnaceNeed, smeltItems, smeltItemsNeed } from '../rules/smelt.js'
import type { FailureReason } from '../schemas/action.js'
import type { SubGoal } from '../schemas/subgoal.js'
import { EXPERIENCE, enchantedKey, experienceFor } from './enchanting.js'
import { sharedFuel } from './furnaces.js'
import type { Knowledge } from './index.js'
import { LAPIS, tripCost } from './sources.js'

export interface DryRunOptions {
  inventory?: Record<string, number>
  /** stations standing within reach when the run starts (they serve every step; the run never moves away) */
  stations?: readonly string[]
  /** keep going after a failed step (default false: stop at the first failure) */
  continueOnFailure?: boolean
}

export interface DryRunStep {
  id: number
  kind: SubGoal['kind']
  object: string
  ok: boolean
  reason: FailureReason | null
  message: string
  cost: number
}

export interface DryRunResult {
  ok: boolean
  goalMet: boolean
  failedAt: number | null
  reason: FailureReason | null
  message: string
  /** world cost: blocks dug × find cost, kills × find cost, one per craft/smelt */
  cost: number
  inventory: Record<string, number>
  log: DryRunStep[]
  durationMs: number
}

/** Container items left in the grid/furnace when their content is used. */
const REMAINDER: Record<string, string> = {
  milk_bucket: 'bucket',
  water_bucket: 'bucket',
  lava_bucket: 'bucket',
  honey_bottle: 'glass_bottle',
}

type StepOutcome = { ok: true; cost: number } | { ok: false; reason: FailureReason; message: string }

class World implements RuleWorld {
  readonly inv = new Map<string, number>()
  private readonly stations: ReadonlySet<string>
  constructor(
    private readonly k: Knowledge,
    start: Record<string, number>,
    stations: readonly string[] = [],
  ) {
    for (const [i, n] of Object.entries(start)) if (n > 0) this.inv.set(i, n)
    this.stations = new Set(stations)
  }
  /** A station standing nearby from the start. */
  placed(name: string): boolean {
    return this.stations.has(name)
  }

  has(i: string, n = 1): boolean {
    return this.count(i) >= n
  }
  count(i: string): number {
    return this.inv.get(i) ?? 0
  }
  /** The rule book's verdict on `needs` here (stations must be carried or stand nearby from the start). */
  require(...needs: Need[]): StepOutcome | null {
    const v = judge(needs, this, this.k)
    return v.ok ? null : fail(v.reason, v.message)
  }
  add(i: string, n: number): void {
    if (n > 0) this.inv.set(i, (this.inv.get(i) ?? 0) + n)
  }
  take(i: string, n: number): void {
    const left = (this.inv.get(i) ?? 0) - n
    if (left > 0) this.inv.set(i, left)
    else this.inv.delete(i)
    const rem = REMAINDER[i]
    if (rem) this.add(rem, n)
  }

  run(s: SubGoal): StepOutcome {
    const obj = s.goal.object
    const k = this.k
    switch (s.kind) {
      case 'mine': {
        const block = s.mine.blocks.find((b) => k.data.world.blocks[b] && k.sources.yieldOf(b, obj) !== undefined)
        if (!block) return fail('not_found', `no natural block among ${s.mine.blocks.join(', ')} drops ${obj}`)
        const tools = k.sources.toolsForDrop(block, obj)
        const noTool = tools.length
          ? this.require({ kind: 'hold', anyOf: tools, doing: `mine ${block} for ${obj}`, as: 'tool' })
          : null
        if (noTool) return noTool
        const place = k.data.world.blocks[block]!
        const got = Math.floor(s.mine.blocksToDig * k.sources.yieldOf(block, obj)! + 1e-9)
        this.add(obj, got)
        return { ok: true, cost: s.mine.blocksToDig * place.findCost + tripCost(place) }
      }
      case 'craft': {
        const c = s.craft
        const per: Record<string, number> = {}
        for (const [i, n] of Object.entries(c.materials)) {
          if (n % c.runs !== 0) return fail('invalid', `materials of ${obj} do not divide into ${c.runs} crafts`)
          per[i] = n / c.runs
        }
        const recipe = k.sources.recipes.match(obj, per)
        if (!recipe) return fail('invalid', `no recipe makes ${obj} from ${fmtItems(per)}`)
        const unmet = this.require(...(recipe.needsTable ? [tableNeed(obj)] : []), craftMaterialsNeed(obj, c.materials))
        if (unmet) return unmet
        for (const [i, n] of Object.entries(c.materials)) this.take(i, n)
        this.add(obj, recipe.count * c.runs)
        return { ok: true, cost: 1 }
      }
      case 'smelt': {
        const sm = s.smelt
        if (k.smeltResult(sm.input) !== obj) return fail('invalid', `smelting ${sm.input} does not make ${obj}`)
        const noFurnace = this.require(furnaceNeed(obj))
        if (noFurnace) return noFurnace
        const burn = k.burnItems(sm.fuel)
        if (burn === null) return fail('invalid', `${sm.fuel} is not a fuel`)
        const fuelNeeded = sharedFuel(burn, sm.inputCount, sm.furnaces)
        if (sm.fuelCount < fuelNeeded)
          return fail(
            'missing_materials',
            `${sm.inputCount} items in ${sm.furnaces} furnace(s) burn ${fuelNeeded} ${sm.fuel}, not ${sm.fuelCount}`,
          )
        const short = this.require(
          smeltItemsNeed(obj, sm.inputCount, smeltItems({ [sm.input]: sm.inputCount }, sm.fuel, sm.fuelCount)),
        )
        if (short) return short
        this.take(sm.input, sm.inputCount)
        this.take(sm.fuel, sm.fuelCount)
        this.add(obj, sm.inputCount)
        return { ok: true, cost: 1 }
      }
      case 'hunt': {
        const place = k.data.world.mobs[s.hunt.mob]
        if (!place) return fail('not_found', `${s.hunt.mob} does not live in the Overworld`)
        const y =
          obj === EXPERIENCE
            ? k.sources.experienceOf(s.hunt.mob) || undefined
            : k.sources.mobDropsOf(s.hunt.mob).get(obj)
        if (!y) return fail('invalid', `${s.hunt.mob} does not drop ${obj}`)
        this.add(obj, Math.floor(s.hunt.kills * y + 1e-9))
        return { ok: true, cost: s.hunt.kills * place.findCost + tripCost(place) }
      }
      case 'apply': {
        const a = s.apply
        const spec = k.data.world.apply.find((x) => x.item === obj && x.tool === a.tool && x.target === a.target)
        if (!spec) return fail('invalid', `using ${a.tool} on ${a.target} does not give ${obj}`)
        const doing = `use ${a.tool} on ${a.target}`
        const need: Record<string, number> = { [a.tool]: spec.toolConsumed ? a.uses : 1 }
        for (const [m, n] of Object.entries(spec.materials ?? {})) need[m] = (need[m] ?? 0) + n * a.uses
        const unmet = this.require(
          ...(spec.station ? [{ kind: 'station', name: spec.station, doing } as const] : []),
          { kind: 'hold', anyOf: [a.tool], doing, as: 'tool' },
          { kind: 'items', items: need, doing },
        )
        if (unmet) return unmet
        if (spec.toolConsumed) this.inv.set(a.tool, (this.inv.get(a.tool) ?? 0) - a.uses)
        if ((this.inv.get(a.tool) ?? 0) <= 0) this.inv.delete(a.tool)
        for (const [m, n] of Object.entries(spec.materials ?? {})) this.take(m, n * a.uses)
        this.add(obj, Math.floor(a.uses * spec.yield + 1e-9))
        return { ok: true, cost: a.uses * spec.findCost }
      }
      case 'enchant': {
        const e = s.enchant
        const plan = k.sources.enchantPlan(e.tool, e.enchantment)
        if (!plan || obj !== enchantedKey(e.tool, e.enchantment))
          return fail('invalid', `an enchanting table cannot make ${obj} from ${e.tool}`)
        if (e.attempts < plan.attempts)
          return fail(
            'invalid',
            `${e.enchantment} on ${e.tool} takes ${plan.attempts} attempts on average (${(plan.chance * 100).toFixed(1)} % each), the plan has ${e.attempts}`,
          )
        const noTable = this.require({ kind: 'station', name: plan.station, doing: `enchant ${e.tool}` })
        if (noTable) return noTable
        if (!this.has(plan.bookshelf, plan.bookshelves))
          return fail(
            'missing_tool',
            `a level-${plan.level} enchant needs ${plan.bookshelves} ${plan.bookshelf} around the table`,
          )
        const t = k.data.enchanting!.table // non-null: enchantPlan returned a plan
        const need = {
          [e.tool]: e.attempts,
          [LAPIS]: e.attempts * t.lapisPerAttempt,
          [EXPERIENCE]: experienceFor(t.level, t.levelsPerAttempt, e.attempts),
        }
        const short = this.require({ kind: 'items', items: need, doing: `enchant ${e.tool}` })
        if (short) return short
        for (const [m, n] of Object.entries(need)) this.take(m, n)
        this.add(obj, Math.floor(e.attempts / plan.attempts))
        return { ok: true, cost: e.attempts }
      }
      case 'collect': {
        const spec = k.data.world.collect.find((x) => x.item === obj)
        if (!spec) return fail('not_found', `${obj} cannot be picked up anywhere`)
        const tries = Math.ceil(s.goal.count / spec.yield)
        this.add(obj, Math.floor(tries * spec.yield + 1e-9))
        return { ok: true, cost: tries * spec.findCost }
      }
    }
  }
}

function fail(reason: FailureReason, message: string): StepOutcome {
  return { ok: false, reason, message }
}

/** Execute `steps` in order from `opts.inventory` and check that `goal.count` of `goal.object` is held at the end. */
export function runDryRun(
  k: Knowledge,
  steps: SubGoal[],
  goal: { object: string; count: number },
  opts: DryRunOptions = {},
): DryRunResult {
  const t0 = performance.now()
  const w = new World(k, opts.inventory ?? {}, opts.stations)
  const log: DryRunStep[] = []
  let cost = 0
  let failedAt: number | null = null
  let reason: FailureReason | null = null
  let message = ''
  for (const s of steps) {
    const r = w.run(s)
    if (r.ok) {
      cost += r.cost
      log.push({ id: s.id, kind: s.kind, object: s.goal.object, ok: true, reason: null, message: '', cost: r.cost })
      continue
    }
    log.push({
      id: s.id,
      kind: s.kind,
      object: s.goal.object,
      ok: false,
      reason: r.reason,
      message: r.message,
      cost: 0,
    })
    if (failedAt === null) {
      failedAt = s.id
      reason = r.reason
      message = `step ${s.id} (${s.kind} ${s.goal.object}): ${r.message}`
    }
    if (!opts.continueOnFailure) break
  }
  const goalMet = w.has(goal.object, goal.count)
  if (failedAt === null && !goalMet) {
    reason = 'unverified'
    message = `all steps ran but only ${w.inv.get(goal.object) ?? 0}/${goal.count} ${goal.object} are held`
  }
  return {
    ok: failedAt === null && goalMet,
    goalMet,
    failedAt,
    reason,
    message: message || 'goal reached',
    cost,
    inventory: Object.fromEntries([...w.inv.entries()].sort()),
    log,
    durationMs: performance.now() - t0,
  }
}
