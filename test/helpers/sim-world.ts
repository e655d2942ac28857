/**
 * Sim world: a fast, deterministic, in-process world that implements both agent ports (`Hands` and `Senses`) at the
 * level of structured actions, using the real game data through `Knowledge`. It owns an inventory, a set of visible
 * things (explore makes natural blocks, mobs, fluids, biomes or placeable held items visible; approach and the
 * actions that need a target require them), the bot's y-level, biome, time and weather. Mining needs a tool that
 * harvests the block and adds its real drops until the wanted total is held; attacks add the mob's drops
 * (fractional yields accumulate deterministically); crafting matches a real recipe variant, needs a crafting table
 * for 3×3 recipes and consumes the real ingredients; smelting needs a furnace, input and enough fuel. Results use the
 * fixed FailureReason names with one-sentence messages, an inventory delta and a simulated duration. For tests it
 * can inject faults (the Nth call of an action type fails), lies (the Nth call reports success without its effect)
 * and item removals between actions (a `/clear`). What each action requires, and the sentence when it is missing,
 * come from the rule book (src/rules/); what is its own is the simulated effect. It is not the dry run of
 * src/knowledge/dryrun.ts, which works on whole sub-goals. Its options are in sim-options.ts; mining, crafting,
 * smelting and explore's "not findable" sentences in sim-effects.ts. Used only by tests.
 */
import type { ExecuteOptions, Hands, Senses } from '../../src/agent/ports.js'
import type { Knowledge } from '../../src/knowledge/index.js'
import mcData from 'minecraft-data'
import { isHostileKind } from '../../src/actions/threats.js'
import { changes, check, describeAction, ruleContext, type RuleContext, type RuleWorld } from '../../src/rules/index.js'
import { applySpec } from '../../src/rules/apply.js'
import type { Action, ActionResult, ActionType, BotState, FailureReason } from '../../src/schemas/action.js'
import type { Conditions, TimeOfDay, Weather } from '../../src/schemas/goal.js'
import type { Pos } from '../../src/schemas/region.js'
import { fail, notFindable, SimFail, simCraft, simMine, simSmelt } from './sim-effects.js'
import type { SimCall, SimLong, SimWorldOptions } from './sim-options.js'

export type { SimCall, SimClear, SimFault, SimLie, SimLong, SimWorldOptions } from './sim-options.js'

const APPROACH_DISTANCE = 1.5

export class SimWorld implements Hands, Senses, RuleWorld {
  readonly inv = new Map<string, number>()
  /** Visible thing → distance in blocks. */
  readonly visible = new Map<string, number>()
  /** `thing|near` pairs in sight together (an explore with `near` found one). */
  readonly pairs = new Set<string>()
  readonly calls: SimCall[] = []
  readonly blueprints: Record<string, Record<string, number>>
  biome: string
  time: TimeOfDay
  weather: Weather
  y: number
  health: number
  food: number
  underground = false
  /** Total simulated time of all actions. */
  clockMs = 0
  private holding: string | null = null
  private readonly surfaceY: number
  private readonly perType = new Map<ActionType, number>()
  /** Fractional drop yields carried over between blocks dug / mobs killed, per source and item. */
  private readonly carry = new Map<string, number>()
  private readonly rules: RuleContext

  constructor(
    readonly kb: Knowledge,
    private readonly opts: SimWorldOptions = {},
  ) {
    for (const [i, n] of Object.entries(opts.inventory ?? {})) if (n > 0) this.inv.set(i, n)
    for (const [name, d] of Object.entries(opts.visible ?? {})) this.visible.set(name, d)
    this.biome = opts.biome ?? 'plains'
    this.time = opts.time ?? 'day'
    this.weather = opts.weather ?? 'clear'
    this.surfaceY = opts.surfaceY ?? 64
    this.y = this.surfaceY
    this.health = opts.health ?? 20
    this.food = opts.food ?? 20
    this.rules = ruleContext(kb, opts.blueprints)
    this.blueprints = this.rules.blueprints
  }

  count(i: string): number {
    return this.inv.get(i) ?? 0
  }
  add(i: string, n: number): void {
    if (n > 0) this.inv.set(i, this.count(i) + n)
  }
  take(i: string, n: number): void {
    const left = this.count(i) - n
    if (left > 0) this.inv.set(i, left)
    else this.inv.delete(i)
  }
  /** Remove items (as `/clear` would): a map of counts, or everything. */
  removeItems(items: Record<string, number> | 'all'): void {
    if (items === 'all') {
      this.inv.clear()
      return
    }
    for (const [i, n] of Object.entries(items)) this.take(i, n)
  }

  // ---- Hands ----
  async execute(action: Action, signal: AbortSignal, opts?: ExecuteOptions): Promise<ActionResult> {
    const n = this.calls.length + 1
    for (const c of this.opts.clears ?? []) if (c.beforeCall === n) this.removeItems(c.items)
    const nth = (this.perType.get(action.type) ?? 0) + 1
    this.perType.set(action.type, nth)
    const before = new Map(this.inv)
    const fault = this.opts.faults?.find((f) => f.type === action.type && f.nth === nth)
    const lie = this.opts.lies?.some((l) => l.type === action.type && l.nth === nth) ?? false
    const long = this.opts.longs?.find((l) => l.type === action.type && l.nth === nth)
    if (long) await this.takeLong(long, signal)
    let result: ActionResult
    if (signal.aborted) {
      result = this.result(false, 'interrupted', `I stopped ${action.type} because the task was cancelled.`, before, 0)
    } else if (fault) {
      result = this.result(
        false,
        fault.reason,
        fault.message ?? `The ${action.type} failed (${fault.reason.replace('_', ' ')}).`,
        before,
        500,
      )
    } else if (lie) {
      result = this.result(true, null, `I finished ${action.type}.`, before, 500)
    } else {
      try {
        const { message, durationMs } = this.run(action)
        result = this.result(true, null, message, before, durationMs)
      } catch (err) {
        if (!(err instanceof SimFail)) throw err
        this.restore(before)
        result = this.result(false, err.reason, err.message, before, 200)
      }
    }
    this.clockMs += result.durationMs
    this.calls.push({
      n,
      action,
      result,
      lied: lie && !fault,
      fault: fault !== undefined,
      keep: opts?.keep ?? [],
      reserve: opts?.reserve ?? {},
    })
    return result
  }

  state(): BotState {
    const inventory = Object.fromEntries(
      [...this.inv.entries()].filter(([, n]) => n > 0).sort(([a], [b]) => a.localeCompare(b)),
    )
    return {
      inventory,
      biome: this.biome,
      y: this.y,
      underground: this.underground,
      health: this.health,
      food: this.food,
    }
  }

  nearbyBlocks(): string[] {
    const seen = [...this.visible.keys()].filter((n) => this.kb.isBlock(n))
    return [...new Set([...seen, ...(this.underground ? ['stone', 'deepslate'] : ['grass_block', 'dirt', 'stone'])])]
  }
  lastTrace(): null {
    return null
  }
  identity(): { bot: string; server: string } {
    return this.opts.identity ?? { bot: 'SimGhost', server: 'sim' }
  }
  // ---- RuleWorld (count above) ----
  nearest(name: string): number | null {
    return this.nearestVisible(name)
  }
  playerKnown(name: string): boolean {
    return this.opts.players?.includes(name) ?? false
  }
  playerNear(name: string): boolean {
    return this.playerKnown(name)
  }
  /** Things in sight of the registry's "Hostile mobs" category within `radius` (each counts once). */
  hostilesNear(radius: number): number {
    const kinds = mcData(this.kb.version).entitiesByName
    return [...this.visible].filter(([name, d]) => d <= radius && isHostileKind(kinds, name)).length
  }
  position(): Pos | null {
    return this.opts.position ?? null
  }
  // ---- Senses ----
  held(): string | null {
    return this.holding && this.count(this.holding) > 0 ? this.holding : null
  }
  nearestVisible(name: string, near: string | null = null): number | null {
    if (name === this.biome) return 0
    if (near && !this.pairs.has(`${name}|${near}`)) return null
    return this.visible.get(name) ?? null
  }
  blockCountNear(name: string, radius: number): number {
    const d = this.visible.get(name)
    return d !== undefined && d <= radius && this.kb.isBlock(name) ? 16 : 0
  }
  checkConditions(c: Conditions, target: string): { met: boolean; unmet: string[]; observed: string } {
    const unmet: string[] = []
    const bright = this.underground || this.time === 'night' ? 'dark' : 'sufficient'
    if (c.biome && c.biome !== this.biome) unmet.push(`biome ${c.biome} (I am in ${this.biome})`)
    if (c.time && c.time !== this.time) unmet.push(`time ${c.time} (it is ${this.time})`)
    if (c.weather && c.weather !== this.weather) unmet.push(`weather ${c.weather} (it is ${this.weather})`)
    if (c.near && this.nearestVisible(target, c.near) === null) unmet.push(`${c.near} near the ${target}`)
    if (c.brightness && c.brightness !== bright) unmet.push(`brightness ${c.brightness} (it is ${bright})`)
    return {
      met: unmet.length === 0,
      unmet,
      observed: `biome ${this.biome}, ${this.time}, ${this.weather}, y=${this.y}, ${bright} light`,
    }
  }

  // ---- settable conditions (or assign biome/time/weather directly) ----
  setBiome(b: string): void {
    this.biome = b
  }
  setTime(t: TimeOfDay): void {
    this.time = t
  }
  setWeather(w: Weather): void {
    this.weather = w
  }

  private restore(before: Map<string, number>): void {
    this.inv.clear()
    for (const [i, n] of before) this.inv.set(i, n)
  }

  private result(
    ok: boolean,
    reason: FailureReason | null,
    message: string,
    before: Map<string, number>,
    durationMs: number,
  ): ActionResult {
    const inventoryDelta: Record<string, number> = {}
    for (const k of new Set([...before.keys(), ...this.inv.keys()])) {
      const d = this.count(k) - (before.get(k) ?? 0)
      if (d !== 0) inventoryDelta[k] = d
    }
    return { ok, reason, message, inventoryDelta, durationMs }
  }

  /** The rule book's requirements of `a`, judged against this world; the first unmet one ends the action. */
  private require(a: Action): void {
    const v = check(a, this.rules, this)
    if (!v.ok) fail(v.reason, v.message)
    if ('tool' in a && a.tool && a.type !== 'craft') this.holding = a.tool
  }

  /** Add `n` times the per-unit yields of a source, carrying fractions over so totals are exact and deterministic. */
  yieldFrom(source: string, drops: Map<string, number> | Record<string, number>, n: number): void {
    for (const [item, per] of drops instanceof Map ? drops : Object.entries(drops)) {
      const key = `${source}>${item}`
      const was = this.carry.get(key) ?? 0
      const now = was + per * n
      this.carry.set(key, now)
      this.add(item, Math.floor(now + 1e-9) - Math.floor(was + 1e-9))
    }
  }

  /** A SimLong: its changes to the world, then its real time, ended early by `signal`. */
  private async takeLong(long: SimLong, signal: AbortSignal): Promise<void> {
    if (long.food !== undefined) this.food = long.food
    if (long.health !== undefined) this.health = long.health
    for (const [name, d] of Object.entries(long.sees ?? {})) this.visible.set(name, d)
    for (const [name, n] of Object.entries(long.gains ?? {})) this.add(name, n)
    if (!signal.aborted)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, long.ms)
        function done(): void {
          clearTimeout(timer)
          signal.removeEventListener('abort', done)
          resolve()
        }
        signal.addEventListener('abort', done, { once: true })
      })
    for (const name of long.gone ?? []) this.visible.delete(name)
  }

  private run(a: Action): { message: string; durationMs: number } {
    const kb = this.kb
    this.require(a)
    switch (a.type) {
      case 'explore': {
        const why = notFindable(this, a.object, a.strategy, this.opts.absent ?? [])
        if (why) fail('not_found', why)
        if (kb.data.mc.biomesByName[a.object]) {
          this.biome = a.object
          this.visible.clear()
          return { message: `I travelled to a ${a.object} biome.`, durationMs: 20_000 }
        }
        const cost = kb.data.world.blocks[a.object]?.findCost ?? kb.data.world.mobs[a.object]?.findCost ?? 2
        const d = Math.min(32, 6 + 2 * cost)
        this.visible.set(a.object, Math.min(d, this.visible.get(a.object) ?? d))
        if (a.near) {
          this.visible.set(a.near, Math.min(d, this.visible.get(a.near) ?? d))
          this.pairs.add(`${a.object}|${a.near}`)
        }
        return { message: `I can see ${a.object} ${d} blocks away.`, durationMs: 1000 * cost }
      }
      case 'approach': {
        this.visible.set(a.object, APPROACH_DISTANCE)
        for (const c of kb.data.world.collect.filter((x) => x.near === a.object))
          this.yieldFrom(`collect:${a.object}`, { [c.item]: c.yield }, 1)
        return { message: `I am next to the ${a.object}.`, durationMs: 2000 }
      }
      case 'equip': {
        this.holding = a.object
        return { message: `I am holding ${a.object}.`, durationMs: 100 }
      }
      case 'place': {
        this.take(a.object, 1)
        this.visible.set(a.object, 1)
        return { message: `I placed ${a.object} next to me.`, durationMs: 300 }
      }
      case 'mine':
        return simMine(this, a)
      case 'attack': {
        this.yieldFrom(`kill:${a.object}`, kb.sources.mobDropsOf(a.object), 1)
        // the eating reflex eats what it carries when hungry
        const meal = Object.keys(kb.sources.mobDropsOf(a.object)).find((i) => kb.foodPoints(i) > 0)
        if (meal && this.food < 20) this.food = Math.min(20, this.food + kb.foodPoints(meal))
        return { message: `I killed the ${a.object} and picked up its drops.`, durationMs: 4000 }
      }
      case 'dig_down': {
        if (a.ylevel >= this.y)
          return { message: `I am already at y ${this.y}, at or below ${a.ylevel}.`, durationMs: 0 }
        const depth = this.y - a.ylevel
        this.y = a.ylevel
        this.underground = this.y < this.surfaceY - 4
        this.visible.clear()
        return { message: `I dug down to y=${a.ylevel}.`, durationMs: 500 * depth }
      }
      case 'go_up': {
        if (!this.underground) return { message: 'I am already on the surface.', durationMs: 0 }
        const height = this.surfaceY - this.y
        this.y = this.surfaceY
        this.underground = false
        this.visible.clear()
        return { message: 'I climbed back to the surface.', durationMs: 400 * height }
      }
      case 'hide': {
        if (this.time === 'day') return { message: 'It is day: there is no need to hide.', durationMs: 0 }
        this.time = 'day'
        this.health = 20
        return { message: 'I hid in the ground until morning and came back up.', durationMs: 300_000 }
      }
      case 'craft':
        return simCraft(this, a)
      case 'smelt':
        return simSmelt(this, a)
      case 'apply': {
        // the sim knows only the uses in the game data; the rule book has checked tool, station, materials and sight
        const spec = applySpec(kb, a.object, a.tool)
        if (!spec) fail('invalid', `Using ${a.tool} on ${a.object} does nothing I know of.`)
        for (const [m, k] of Object.entries(spec.materials ?? {})) this.take(m, k)
        if (spec.toolConsumed) this.take(a.tool, 1)
        this.yieldFrom(`apply:${spec.item}`, { [spec.item]: spec.yield }, 1)
        return { message: `I used ${a.tool} on ${a.object} and got ${spec.item}.`, durationMs: 1500 }
      }
      case 'build': {
        const need = this.blueprints[a.blueprint]!
        for (const [m, k] of Object.entries(need)) this.take(m, k)
        this.visible.set(a.blueprint, 2)
        return {
          message: `I built the ${a.blueprint}.`,
          durationMs: 600 * Object.values(need).reduce((s, k) => s + k, 0),
        }
      }
      case 'deposit':
      case 'withdraw':
      case 'guard':
        return fail('invalid', `The simulated world has no chests or players to ${a.type}.`)
      default: {
        // Any other action (give, goto, and actions added later) does exactly what its rules file says it changes.
        for (const [i, n] of Object.entries(changes(a, this.rules).inventory)) {
          if (n < 0) this.take(i, -n)
          else this.add(i, n)
        }
        return { message: `Done: ${describeAction(a)}.`, durationMs: 1000 }
      }
    }
  }
}

export function createSimWorld(kb: Knowledge, opts: SimWorldOptions = {}): SimWorld {
  return new SimWorld(kb, opts)
}
