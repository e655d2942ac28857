/**
 * Public API of the knowledge base: `createKnowledge(version)` returns a `Knowledge` object answering game-data
 * questions (names with did-you-mean, recipes with variants, smelting and fuels, block drops and harvest tools, mob
 * drops and habitats, where raw things are found, info text, why an item is impossible) and decomposing goals into
 * sub-goal trees. Built from minecraft-data plus the data files in data/; no mineflayer. One instance per version is
 * cached, so importing modules (critic, offline planner, intent) can call it freely.
 */
import { didYouMean } from '../util/text.js'
import { Goal, type GoalInput } from '../schemas/goal.js'
import type { Decomposition } from '../schemas/subgoal.js'
import { CostModel } from './cost.js'
import { listedImpossible, loadKbData, type KbData, type SmeltRecipe } from './data.js'
import { decompose as runDecompose } from './decompose.js'
import { placeToLocation } from './location.js'
import type { RecipeGroup } from './recipes.js'
import { EXPERIENCE, isPseudoItem, parseEnchanted } from './enchanting.js'
import { LAPIS, SourceIndex, type Source } from './sources.js'
import { NO_BIAS, type RouteBias } from './routes.js'

export type { RecipeGroup, RecipeSlot, ConcreteRecipe } from './recipes.js'
export type { Source } from './sources.js'
import { runDryRun } from './dryrun.js'
export { runDryRun, type DryRunResult, type DryRunOptions, type DryRunStep } from './dryrun.js'
export { digLevel } from './location.js'
export { repairItems } from './data.js'

export type ResolvedName =
  | { ok: true; name: string; kind: 'item' | 'block' | 'entity' }
  | { ok: false; text: string; suggestions: string[] }

export interface WhereFound {
  kind: 'mine' | 'hunt' | 'apply' | 'collect'
  from: string
  yieldPer: number
  tools: string[]
  location: ReturnType<typeof placeToLocation> | null
  note: string
}

export class Knowledge {
  readonly version: string
  readonly data: KbData
  readonly sources: SourceIndex
  readonly cost: CostModel
  private readonly names: string[]

  constructor(version: string) {
    this.version = version
    this.data = loadKbData(version)
    this.sources = new SourceIndex(this.data)
    this.cost = new CostModel(this.data, this.sources, (i) => this.explicitImpossible(i))
    const mc = this.data.mc
    this.names = [
      ...new Set([
        ...mc.itemsArray.map((i) => i.name),
        ...mc.blocksArray.map((b) => b.name),
        ...mc.entitiesArray.map((e) => e.name),
      ]),
    ].sort()
  }

  /** All item names of the version, sorted. */
  itemNames(): string[] {
    return this.data.mc.itemsArray.map((i) => i.name).sort()
  }
  blockNames(): string[] {
    return this.data.mc.blocksArray.map((b) => b.name).sort()
  }
  entityNames(): string[] {
    return this.data.mc.entitiesArray.map((e) => e.name).sort()
  }
  isItem(name: string): boolean {
    return Object.hasOwn(this.data.mc.itemsByName, name)
  }
  isBlock(name: string): boolean {
    return Object.hasOwn(this.data.mc.blocksByName, name)
  }
  isEntity(name: string): boolean {
    return Object.hasOwn(this.data.mc.entitiesByName, name)
  }

  /** Map free text ("Iron Ingot", "iron ingot", "iron_ingot") to a game name; suggestions when unknown. */
  resolveName(text: string): ResolvedName {
    const mc = this.data.mc
    const t = text
      .trim()
      .toLowerCase()
      .replace(/^minecraft:/, '')
      .replace(/[\s-]+/g, '_')
    const byDisplay = (arr: Array<{ name: string; displayName: string }>): string | undefined =>
      arr.find((x) => x.displayName.toLowerCase().replace(/\s+/g, '_') === t)?.name
    // Object.hasOwn: "constructor" or "__proto__" must not resolve to Object's own properties.
    const own = <T>(table: Record<string, T>): T | undefined => (Object.hasOwn(table, t) ? table[t] : undefined)
    const item = own(mc.itemsByName)?.name ?? byDisplay(mc.itemsArray)
    if (item) return { ok: true, name: item, kind: 'item' }
    const block = own(mc.blocksByName)?.name ?? byDisplay(mc.blocksArray)
    if (block) return { ok: true, name: block, kind: 'block' }
    const ent = own(mc.entitiesByName)?.name ?? byDisplay(mc.entitiesArray)
    if (ent) return { ok: true, name: ent, kind: 'entity' }
    return { ok: false, text, suggestions: didYouMean(t, this.names) }
  }

  /** Whether `tool` (null = hand) harvests `block` so it drops anything. */
  canHarvest(block: string, tool: string | null): boolean {
    return this.sources.canHarvest(block, tool)
  }
  /** Tools that harvest `block`, cheapest tier first (empty: the hand works). */
  harvestTools(block: string): string[] {
    return this.sources.harvestTools(block)
  }
  /** Cheapest tool that harvests `block`, or null for hand. */
  minimumTool(block: string): string | null {
    return this.sources.harvestTools(block)[0] ?? null
  }

  /** Crafting recipes of `item`, grouped, with slot variants ("any planks"), cheapest first. */
  recipesFor(item: string): RecipeGroup[] {
    return [...this.sources.recipes.groupsFor(item)].sort((a, b) => this.groupCost(a) - this.groupCost(b))
  }

  /** Furnace recipes producing `item` (inputs are alternatives). */
  smeltingFor(item: string): SmeltRecipe[] {
    return this.data.smelting.filter((r) => r.output === item)
  }
  /** What smelting `input` produces, or null. */
  smeltResult(input: string): string | null {
    return this.data.smelting.find((r) => r.inputs.includes(input))?.output ?? null
  }
  /** Items smelted per fuel item, or null when `item` is not a fuel. */
  burnItems(item: string): number | null {
    return this.data.fuels.find((f) => f.item === item)?.burnItems ?? null
  }

  /** Every food item of the version (minecraft-data's foods). */
  foods(): string[] {
    return Object.keys(this.data.mc.foodsByName)
  }
  /** Food points eating one `item` restores, 0 when it is no food. */
  foodPoints(item: string): number {
    return this.data.mc.foodsByName[item]?.foodPoints ?? 0
  }

  /** Items a block drops without Silk Touch (expected count per block). */
  dropsOf(block: string): Record<string, number> {
    return Object.fromEntries(this.sources.dropsOf(block))
  }
  /** The biomes a mob lives in or a block is found in (world.json), or null when the knowledge does not limit it to
   * some. */
  biomesOf(name: string): string[] | null {
    const biomes = (this.sources.mobPlace(name) ?? this.sources.blockPlace(name))?.biomes
    return biomes?.length ? biomes : null
  }
  /** Mobs that drop `item`, best (fewest kills) first. */
  mobsFor(item: string): Array<{ mob: string; yieldPer: number }> {
    return this.sources
      .sourcesFor(item)
      .flatMap((s) =>
        s.kind === 'hunt' ? [{ mob: s.mob, yieldPer: s.yieldPer, c: s.place.findCost / s.yieldPer }] : [],
      )
      .sort((a, b) => a.c - b.c)
      .map(({ mob, yieldPer }) => ({ mob, yieldPer }))
  }

  /** Natural sources of `item` (blocks to dig, mobs, bucket/shears uses, pick-ups), cheapest first. */
  whereFound(item: string): WhereFound[] {
    const out: Array<WhereFound & { c: number }> = []
    for (const s of this.sources.sourcesFor(item)) {
      const c = this.cost.sourceCost(s)
      if (s.kind === 'mine')
        out.push({
          kind: 'mine',
          from: s.block,
          yieldPer: s.yieldPer,
          tools: s.tools,
          location: placeToLocation(s.place, this.data.world.lavaLevel),
          note: s.place.note ?? '',
          c,
        })
      else if (s.kind === 'hunt')
        out.push({
          kind: 'hunt',
          from: s.mob,
          yieldPer: s.yieldPer,
          tools: [],
          location: placeToLocation(s.place, this.data.world.lavaLevel),
          note: s.place.note ?? '',
          c,
        })
      else if (s.kind === 'apply')
        out.push({
          kind: 'apply',
          from: s.spec.target,
          yieldPer: s.spec.yield,
          tools: [s.spec.tool],
          location: null,
          note: s.spec.note ?? '',
          c,
        })
      else if (s.kind === 'collect')
        out.push({
          kind: 'collect',
          from: s.spec.near,
          yieldPer: s.spec.yield,
          tools: [],
          location: null,
          note: s.spec.note ?? '',
          c,
        })
    }
    return out.sort((a, b) => a.c - b.c).map(({ c: _c, ...w }) => w)
  }

  /** Estimated steps to obtain one `item` from nothing (Infinity = impossible). */
  costOf(item: string): number {
    return this.cost.of(item)
  }

  /** Short knowledge text: data/knowledge/info.json, else generated from the cheapest source. */
  infoFor(item: string): string {
    const fixed = this.data.info[item]
    if (fixed) return fixed
    const why = this.impossibleReason(item)
    if (why) return `Cannot be obtained here: ${why}.`
    const best = this.bestSource(item)
    if (!best) return ''
    switch (best.kind) {
      case 'mine': {
        const p = best.place
        const where =
          p.where === 'underground'
            ? `underground, y ${p.yMin} to ${p.yMax} (best ${p.bestY})`
            : `on the surface${p.biomes?.length ? ` in ${p.biomes.join(', ')}` : ''}`
        return `Dig ${best.block} ${where}${best.tools.length ? ` with ${best.tools[0]} or better` : ''}.${p.note ? ` ${p.note}.` : ''}`
      }
      case 'hunt':
        return `Kill ${best.mob}${best.place.biomes?.length ? ` (${best.place.biomes.join(', ')})` : ''}${best.place.time === 'night' ? ' at night' : ''}.`
      case 'craft':
        return `Craft from ${best.group.slots.map((s) => `${s.count} ${s.options.length > 1 ? `any of ${s.options.slice(0, 3).join('/')}` : s.options[0]}`).join(', ')}${best.group.needsTable ? ' at a crafting table' : ''}.`
      case 'smelt':
        return `Smelt ${best.inputs[0]} in a furnace.`
      case 'apply':
        return `Use ${best.spec.tool} on ${best.spec.target}.`
      case 'collect':
        return best.spec.note ?? `Pick it up near ${best.spec.near}.`
      case 'enchant':
        return (
          `Enchant ${best.tool} at an ${best.station} with ${best.bookshelves} bookshelves around it (level ${best.level}): ` +
          `${(best.chance * 100).toFixed(1)} % per try, so plan ${best.attempts} tools, ${best.lapis} lapis and ${best.experience} experience points.`
        )
    }
  }

  /** Why `item` cannot be obtained in the Overworld, or null when it can. */
  impossibleReason(item: string): string | null {
    const enchanted = parseEnchanted(item)
    if (enchanted && !this.isItem(enchanted.tool)) return `unknown item ${enchanted.tool}`
    if (!this.isItem(item) && !isPseudoItem(item))
      return this.isBlock(item) || this.isEntity(item) ? `${item} is not an item` : `unknown item ${item}`
    return this.explain(item, new Set())
  }

  /**
   * Decompose a goal from the given inventory into a sub-goal tree and its post-order execution list; `bias` makes
   * routes that failed during the goal costly and routes in sight cheap (src/knowledge/routes.ts).
   */
  decompose(goal: GoalInput, inventory: Record<string, number> = {}, bias: RouteBias = NO_BIAS): Decomposition {
    const resolved = this.resolveName(goal.object)
    const object = resolved.ok ? resolved.name : goal.object
    if (!resolved.ok || resolved.kind !== 'item') {
      const hint =
        !resolved.ok && resolved.suggestions.length ? `; did you mean ${resolved.suggestions.join(', ')}?` : ''
      const reason = resolved.ok
        ? `${object} is a ${resolved.kind}, not an item`
        : `unknown item "${goal.object}"${hint}`
      return { ok: false, goal: Goal.parse({ ...goal, object: object || '?' }), item: object, reason }
    }
    const count = Goal.parse({ ...goal, object }).count
    return runDecompose(
      {
        src: this.sources,
        cost: this.cost.biased(bias),
        stations: bias.stations,
        impossibleReason: (i) => this.impossibleReason(i),
        infoFor: (i) => this.infoFor(i),
        lavaLevel: this.data.world.lavaLevel,
        verify: (steps, inv) =>
          runDryRun(this, steps, { object, count }, { inventory: inv, stations: [...bias.stations] }).ok,
      },
      { ...goal, object },
      inventory,
    )
  }

  private explicitImpossible(item: string): string | null {
    return listedImpossible(this.data.impossible, item)
  }

  /** Why a block or fluid that is not an item cannot be handed over (water, fire, portals), or null. */
  notItemReason(id: string): string | null {
    return Object.hasOwn(this.data.impossible.notItems, id) ? this.data.impossible.notItems[id]! : null
  }

  private bestSource(item: string): Source | null {
    let best: Source | null = null
    let bc = Infinity
    for (const s of this.sources.sourcesFor(item)) {
      const c = this.cost.sourceCost(s)
      if (c < bc) {
        bc = c
        best = s
      }
    }
    return best
  }

  private groupCost(g: RecipeGroup): number {
    return this.cost.sourceCost({ kind: 'craft', group: g })
  }

  private explain(item: string, seen: Set<string>): string | null {
    const e = this.explicitImpossible(item)
    if (e) return e
    if (Number.isFinite(this.cost.of(item))) return null
    const srcs = this.sources.sourcesFor(item)
    if (!srcs.length)
      return 'not covered by the knowledge data: no recipe, natural block, mob drop or tool use is known for it'
    seen.add(item)
    const inf = (i: string): boolean => !Number.isFinite(this.cost.of(i))
    for (const s of srcs) {
      let blocker: string | undefined
      if (s.kind === 'craft') blocker = s.group.slots.find((sl) => sl.options.every(inf))?.options[0]
      else if (s.kind === 'smelt') blocker = s.inputs.every(inf) ? s.inputs[0] : undefined
      else if (s.kind === 'mine') blocker = s.tools.length && s.tools.every(inf) ? s.tools[0] : undefined
      else if (s.kind === 'apply')
        blocker = [
          s.spec.tool,
          ...Object.keys(s.spec.materials ?? {}),
          ...(s.spec.station ? [s.spec.station] : []),
        ].find(inf)
      else if (s.kind === 'enchant') blocker = [s.tool, s.station, s.bookshelf, LAPIS, EXPERIENCE].find(inf)
      if (blocker && !seen.has(blocker))
        return `needs ${blocker} (${this.explain(blocker, seen) ?? 'cannot be obtained'})`
    }
    return 'every way to make it needs something unobtainable'
  }
}

const instances = new Map<string, Knowledge>()

/** The knowledge base for a Minecraft version (cached). Throws GhostError('bad_input') for unknown versions. */
export function createKnowledge(version: string): Knowledge {
  let k = instances.get(version)
  if (!k) {
    k = new Knowledge(version)
    instances.set(version, k)
  }
  return k
}
