/**
 * Dry-run world: a fast, deterministic, in-process world that executes a sub-goal list with real game data and is
 * the planning benchmark. It does not trust the decomposer: crafting must match a concrete minecraft-data recipe and
 * consumes its materials (3x3 recipes need a crafting_table in the inventory); smelting must match data/smelting.json
 * and needs a furnace and enough fuel; mining needs a natural block whose loot yields the item and a tool that
 * harvests it (a Silk Touch tool for silk-only drops); hunting needs an Overworld mob whose loot has the item (or that
 * gives experience); enchanting needs the table, its bookshelves and, for at least the expected number of attempts,
 * fresh tools, lapis and experience points (both tracked as inventory). Raw resources cost their findCost per unit
 * plus a one-off trip (digging down to the best y-level, travelling to a biome). A failing step stops the run with a
 * fixed reason and a plain message.
 */
import type { FailureReason } from '../schemas/action.js'
import type { SubGoal } from '../schemas/subgoal.js'
import { EXPERIENCE, enchantedKey, experienceFor } from './enchanting.js'
import type { Knowledge } from './index.js'
import { LAPIS, tripCost } from './sources.js'

export interface DryRunOptions {
  inventory?: Record<string, number>
  /** keep going after a failed step (default false: stop at the first failure) */
  continueOnFailure?: boolean
}

export interface DryRunStep { id: number; kind: SubGoal['kind']; object: string; ok: boolean; reason: FailureReason | null; message: string; cost: number }

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
const REMAINDER: Record<string, string> = { milk_bucket: 'bucket', water_bucket: 'bucket', lava_bucket: 'bucket', honey_bottle: 'glass_bottle' }

type StepOutcome = { ok: true; cost: number } | { ok: false; reason: FailureReason; message: string }

class World {
  readonly inv = new Map<string, number>()
  constructor(private readonly k: Knowledge, start: Record<string, number>) {
    for (const [i, n] of Object.entries(start)) if (n > 0) this.inv.set(i, n)
  }

  has(i: string, n = 1): boolean { return (this.inv.get(i) ?? 0) >= n }
  add(i: string, n: number): void { if (n > 0) this.inv.set(i, (this.inv.get(i) ?? 0) + n) }
  take(i: string, n: number): void {
    const left = (this.inv.get(i) ?? 0) - n
    if (left > 0) this.inv.set(i, left); else this.inv.delete(i)
    const rem = REMAINDER[i]
    if (rem) this.add(rem, n)
  }
  missing(materials: Record<string, number>): string[] {
    return Object.entries(materials).filter(([i, n]) => !this.has(i, n)).map(([i, n]) => `${n - (this.inv.get(i) ?? 0)} ${i}`)
  }

  run(s: SubGoal): StepOutcome {
    const obj = s.goal.object
    const k = this.k
    switch (s.kind) {
      case 'mine': {
        const block = s.mine.blocks.find((b) => k.data.world.blocks[b] && k.sources.yieldOf(b, obj) !== undefined)
        if (!block) return fail('not_found', `no natural block among ${s.mine.blocks.join(', ')} drops ${obj}`)
        const tools = k.sources.toolsForDrop(block, obj)
        if (tools.length && !tools.some((t) => this.has(t))) return fail('missing_tool', `${block} needs ${tools[0]} or better to drop ${obj}`)
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
        if (!recipe) return fail('invalid', `no recipe makes ${obj} from ${fmt(per)}`)
        if (recipe.needsTable && !this.has('crafting_table')) return fail('missing_tool', `${obj} needs a crafting_table`)
        const miss = this.missing(c.materials)
        if (miss.length) return fail('missing_materials', `crafting ${obj} lacks ${miss.join(', ')}`)
        for (const [i, n] of Object.entries(c.materials)) this.take(i, n)
        this.add(obj, recipe.count * c.runs)
        return { ok: true, cost: 1 }
      }
      case 'smelt': {
        const sm = s.smelt
        if (k.smeltResult(sm.input) !== obj) return fail('invalid', `smelting ${sm.input} does not make ${obj}`)
        if (!this.has('furnace')) return fail('missing_tool', `smelting ${obj} needs a furnace`)
        const burn = k.burnItems(sm.fuel)
        if (burn === null) return fail('invalid', `${sm.fuel} is not a fuel`)
        if (burn * sm.fuelCount < sm.inputCount - 1e-9) return fail('missing_materials', `${sm.fuelCount} ${sm.fuel} smelt only ${burn * sm.fuelCount} items, not ${sm.inputCount}`)
        const miss = this.missing({ [sm.input]: sm.inputCount, [sm.fuel]: sm.fuelCount + (sm.fuel === sm.input ? sm.inputCount : 0) })
        if (miss.length) return fail('missing_materials', `smelting ${obj} lacks ${miss.join(', ')}`)
        this.take(sm.input, sm.inputCount)
        this.take(sm.fuel, sm.fuelCount)
        this.add(obj, sm.inputCount)
        return { ok: true, cost: 1 }
      }
      case 'hunt': {
        const place = k.data.world.mobs[s.hunt.mob]
        if (!place) return fail('not_found', `${s.hunt.mob} does not live in the Overworld`)
        const y = obj === EXPERIENCE ? k.sources.experienceOf(s.hunt.mob) || undefined : k.sources.mobDropsOf(s.hunt.mob).get(obj)
        if (!y) return fail('invalid', `${s.hunt.mob} does not drop ${obj}`)
        this.add(obj, Math.floor(s.hunt.kills * y + 1e-9))
        return { ok: true, cost: s.hunt.kills * place.findCost + tripCost(place) }
      }
      case 'apply': {
        const a = s.apply
        const spec = k.data.world.apply.find((x) => x.item === obj && x.tool === a.tool && x.target === a.target)
        if (!spec) return fail('invalid', `using ${a.tool} on ${a.target} does not give ${obj}`)
        if (spec.station && !this.has(spec.station)) return fail('missing_tool', `${obj} needs a ${spec.station}`)
        const need: Record<string, number> = { [a.tool]: spec.toolConsumed ? a.uses : 1 }
        for (const [m, n] of Object.entries(spec.materials ?? {})) need[m] = (need[m] ?? 0) + n * a.uses
        const miss = this.missing(need)
        if (miss.length) return fail(this.has(a.tool) ? 'missing_materials' : 'missing_tool', `${obj} lacks ${miss.join(', ')}`)
        if (spec.toolConsumed) this.inv.set(a.tool, (this.inv.get(a.tool) ?? 0) - a.uses)
        if ((this.inv.get(a.tool) ?? 0) <= 0) this.inv.delete(a.tool)
        for (const [m, n] of Object.entries(spec.materials ?? {})) this.take(m, n * a.uses)
        this.add(obj, Math.floor(a.uses * spec.yield + 1e-9))
        return { ok: true, cost: a.uses * spec.findCost }
      }
      case 'enchant': {
        const e = s.enchant
        const plan = k.sources.enchantPlan(e.tool, e.enchantment)
        if (!plan || obj !== enchantedKey(e.tool, e.enchantment)) return fail('invalid', `an enchanting table cannot make ${obj} from ${e.tool}`)
        if (e.attempts < plan.attempts) return fail('invalid', `${e.enchantment} on ${e.tool} takes ${plan.attempts} attempts on average (${(plan.chance * 100).toFixed(1)} % each), the plan has ${e.attempts}`)
        if (!this.has(plan.station)) return fail('missing_tool', `${obj} needs a ${plan.station}`)
        if (!this.has(plan.bookshelf, plan.bookshelves)) return fail('missing_tool', `a level-${plan.level} enchant needs ${plan.bookshelves} ${plan.bookshelf} around the table`)
        const t = k.data.enchanting!.table // non-null: enchantPlan returned a plan
        const need = { [e.tool]: e.attempts, [LAPIS]: e.attempts * t.lapisPerAttempt, [EXPERIENCE]: experienceFor(t.level, t.levelsPerAttempt, e.attempts) }
        const miss = this.missing(need)
        if (miss.length) return fail('missing_materials', `enchanting ${e.tool} lacks ${miss.join(', ')}`)
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

function fail(reason: FailureReason, message: string): StepOutcome { return { ok: false, reason, message } }
function fmt(m: Record<string, number>): string { return Object.entries(m).map(([i, n]) => `${n} ${i}`).join(', ') }

/** Execute `steps` in order from `opts.inventory` and check that `goal.count` of `goal.object` is held at the end. */
export function runDryRun(k: Knowledge, steps: SubGoal[], goal: { object: string; count: number }, opts: DryRunOptions = {}): DryRunResult {
  const t0 = performance.now()
  const w = new World(k, opts.inventory ?? {})
  const log: DryRunStep[] = []
  let cost = 0
  let failedAt: number | null = null
  let reason: FailureReason | null = null
  let message = ''
  for (const s of steps) {
    const r = w.run(s)
    if (r.ok) { cost += r.cost; log.push({ id: s.id, kind: s.kind, object: s.goal.object, ok: true, reason: null, message: '', cost: r.cost }); continue }
    log.push({ id: s.id, kind: s.kind, object: s.goal.object, ok: false, reason: r.reason, message: r.message, cost: 0 })
    if (failedAt === null) { failedAt = s.id; reason = r.reason; message = `step ${s.id} (${s.kind} ${s.goal.object}): ${r.message}` }
    if (!opts.continueOnFailure) break
  }
  const goalMet = w.has(goal.object, goal.count)
  if (failedAt === null && !goalMet) { reason = 'unverified'; message = `all steps ran but only ${w.inv.get(goal.object) ?? 0}/${goal.count} ${goal.object} are held` }
  return {
    ok: failedAt === null && goalMet, goalMet, failedAt, reason, message: message || 'goal reached', cost,
    inventory: Object.fromEntries([...w.inv.entries()].sort()), log, durationMs: performance.now() - t0,
  }
}
