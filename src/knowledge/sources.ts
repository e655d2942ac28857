/**
 * How each item is obtained: the `Source` union (craft, smelt, mine, hunt, apply, collect, enchant) built from
 * minecraft-data (recipes, blockLoot, entityLoot, harvestTools, enchantments) plus the hand-kept world data (where
 * blocks and mobs are, expected yields, shears-only drops, bucket/shears uses, enchanting). Also owns harvest rules:
 * which tools can harvest a block, the cheapest tier, and which drops need a Silk Touch tool (obtained by enchanting,
 * see src/knowledge/enchanting.ts). Sources carry no costs; src/knowledge/cost.ts ranks them.
 */
import type { ApplySource, BlockPlace, CollectSource, KbData, MobPlace } from './data.js'
import { EXPERIENCE, enchantChance, enchantedKey, experienceFor, isPseudoItem } from './enchanting.js'
import { RecipeBook, type RecipeGroup } from './recipes.js'

export interface MineSource {
  kind: 'mine'
  block: string
  also: string[]
  /** expected items per block dug */
  yieldPer: number
  /** tools that harvest this drop (any one), empty = hand */
  tools: string[]
  place: BlockPlace
}
export interface HuntSource {
  kind: 'hunt'
  mob: string
  yieldPer: number
  place: MobPlace
}
export interface CraftSource {
  kind: 'craft'
  group: RecipeGroup
}
export interface SmeltSource {
  kind: 'smelt'
  inputs: string[]
}
export interface ApplySrc {
  kind: 'apply'
  spec: ApplySource
}
export interface CollectSrc {
  kind: 'collect'
  spec: CollectSource
}
/** An enchanting-table route to `<tool>+<enchantment>`: `attempts` fresh tools, lapis and experience, planned up front. */
export interface EnchantSource {
  kind: 'enchant'
  tool: string
  enchantment: string
  /** chance per attempt */
  chance: number
  /** expected attempts, rounded up */
  attempts: number
  lapis: number
  /** experience points for all attempts: reach the table's level once, regain the levels each attempt costs */
  experience: number
  station: string
  bookshelf: string
  bookshelves: number
  level: number
}
export type Source = MineSource | HuntSource | CraftSource | SmeltSource | ApplySrc | CollectSrc | EnchantSource

const KIND_ORDER: Record<Source['kind'], number> = {
  mine: 0,
  collect: 1,
  hunt: 2,
  apply: 3,
  smelt: 4,
  craft: 5,
  enchant: 6,
}
/** The enchantment the planner uses for blocks that drop themselves only with it. */
const SILK = 'silk_touch'
export const LAPIS = 'lapis_lazuli'

/** Pickaxe/shovel/axe/hoe/sword tiers, cheapest first; golden tools are skipped when an equal tier exists. */
const TIERS = ['wooden', 'stone', 'iron', 'diamond', 'netherite', 'golden']

export class SourceIndex {
  readonly recipes: RecipeBook
  private readonly byItem = new Map<string, Source[]>()
  private readonly plans = new Map<string, EnchantSource | null>()
  private readonly enchantable = new Map<string, string[]>()

  constructor(private readonly kb: KbData) {
    this.recipes = new RecipeBook(kb.mc)
    this.build()
  }

  /** Tools that can harvest `block` (empty: anything, including the hand). */
  harvestTools(block: string): string[] {
    const b = this.kb.mc.blocksByName[block]
    if (!b?.harvestTools) return []
    const names = Object.keys(b.harvestTools)
      .map((id) => this.kb.mc.items[Number(id)]?.name)
      .filter((n): n is string => !!n)
    return sortByTier(names)
  }

  /**
   * Seconds to dig one `block` holding `tool` (null = hand), by vanilla's rule on minecraft-data's hardness and tool
   * speeds: hardness × 1.5 / speed when the tool harvests it (× 5 when it does not); Infinity for unbreakable blocks.
   */
  digSeconds(block: string, tool: string | null): number {
    const b = this.kb.mc.blocksByName[block]
    if (!b || b.hardness === null || b.hardness < 0) return Number.POSITIVE_INFINITY
    const toolId = tool === null ? undefined : this.kb.mc.itemsByName[tool]?.id
    const speeds = (b.material ? this.kb.mc.materials[b.material] : undefined) as Record<string, number> | undefined
    const speed = toolId === undefined ? 1 : (speeds?.[toolId] ?? 1)
    return (b.hardness * (this.canHarvest(block, tool) ? 1.5 : 5)) / speed
  }

  /** Uses a tool has when new (minecraft-data's maxDurability); Infinity for an item that does not wear. */
  usesOf(tool: string): number {
    return this.kb.mc.itemsByName[tool]?.maxDurability ?? Number.POSITIVE_INFINITY
  }

  /** Whether holding `tool` (null = hand) harvests `block`, by minecraft-data's harvestTools. */
  canHarvest(block: string, tool: string | null): boolean {
    const tools = this.harvestTools(block)
    return tools.length === 0 || (tool !== null && tools.includes(tool))
  }

  /** Tools needed to get `item` from `block`: shears for shears-only drops, Silk Touch tools for silk-only drops, else the harvest tools. */
  toolsForDrop(block: string, item: string): string[] {
    if (this.kb.world.shearsOnly[block]?.includes(item)) return ['shears']
    if (!this.dropsOf(block).has(item) && this.silkOnlyDrops(block).includes(item)) return this.silkTools(block)
    return this.harvestTools(block)
  }

  /** Expected count of `item` per dug `block` (with the right tool), or undefined when the block never drops it. */
  yieldOf(block: string, item: string): number | undefined {
    return this.dropsOf(block).get(item) ?? (this.silkOnlyDrops(block).includes(item) ? 1 : undefined)
  }

  /** Items `block` drops only when dug with Silk Touch (e.g. the block itself where it otherwise drops something else). */
  silkOnlyDrops(block: string): string[] {
    if (!this.kb.enchanting) return []
    const plain = this.dropsOf(block)
    return (this.kb.mc.blockLoot[block]?.drops ?? [])
      .filter((d) => d.silkTouch && !plain.has(d.item) && this.kb.mc.itemsByName[d.item])
      .map((d) => d.item)
  }

  /** `<tool>+silk_touch` keys of the tools that harvest `block` (any enchantable digging tool when the hand works). */
  silkTools(block: string): string[] {
    const harvest = this.harvestTools(block)
    const base = harvest.length ? harvest : this.enchantableFor(SILK)
    return base.filter((t) => this.enchantPlan(t, SILK) !== null).map((t) => enchantedKey(t, SILK))
  }

  /** The enchanting-table route that puts `enchantment` on `tool`, or null when the table cannot (or data is missing). */
  enchantPlan(tool: string, enchantment: string): EnchantSource | null {
    const key = enchantedKey(tool, enchantment)
    if (!this.plans.has(key)) this.plans.set(key, this.computePlan(tool, enchantment))
    return this.plans.get(key) ?? null
  }

  private computePlan(tool: string, enchantment: string): EnchantSource | null {
    const ench = this.kb.enchanting
    const e = this.kb.mc.enchantmentsByName[enchantment]
    const material = tool.split('_')[0] ?? ''
    const enchantability = ench?.enchantability[material]
    if (
      !ench ||
      !e ||
      enchantability === undefined ||
      !this.kb.mc.itemsByName[tool]?.enchantCategories?.includes(e.category)
    )
      return null
    const t = ench.table
    const chance = enchantChance(this.kb.mc, tool, enchantability, t.level, enchantment)
    if (chance <= 0) return null
    const attempts = Math.ceil(1 / chance - 1e-9)
    const experience = experienceFor(t.level, t.levelsPerAttempt, attempts)
    return {
      kind: 'enchant',
      tool,
      enchantment,
      chance,
      attempts,
      lapis: attempts * t.lapisPerAttempt,
      experience,
      station: t.station,
      bookshelf: t.bookshelf,
      bookshelves: t.bookshelves,
      level: t.level,
    }
  }

  /** Experience points one kill of `mob` gives (0 when unknown). */
  experienceOf(mob: string): number {
    return this.kb.enchanting?.experiencePerKill[mob] ?? 0
  }

  /** Tools of a material with known enchantability that can take `enchantment`, cheapest tier first (computed once). */
  private enchantableFor(enchantment: string): string[] {
    let tools = this.enchantable.get(enchantment)
    if (!tools) {
      const cat = this.kb.mc.enchantmentsByName[enchantment]?.category
      const materials = Object.keys(this.kb.enchanting?.enchantability ?? {})
      tools = sortByTier(
        this.kb.mc.itemsArray
          .filter((i) => cat && i.enchantCategories?.includes(cat) && materials.includes(i.name.split('_')[0] ?? ''))
          .map((i) => i.name),
      )
      this.enchantable.set(enchantment, tools)
    }
    return tools
  }

  /** Items a natural block drops without Silk Touch, with the expected yield per block. */
  dropsOf(block: string): Map<string, number> {
    const out = new Map<string, number>()
    const loot = this.kb.mc.blockLoot[block]
    const no = new Set(this.kb.world.noDrop[block] ?? [])
    for (const d of loot?.drops ?? []) {
      if (d.silkTouch || no.has(d.item) || out.has(d.item)) continue
      const min = d.stackSizeRange?.[0] ?? 1
      out.set(d.item, Math.max(1, typeof min === 'number' ? min : 1))
    }
    for (const [item, y] of Object.entries(this.kb.world.blockDrops[block] ?? {})) out.set(item, y)
    for (const item of this.kb.world.shearsOnly[block] ?? [])
      if (!out.has(item) && this.kb.mc.itemsByName[item]) out.set(item, 1)
    return out
  }

  /** Items a mob drops when killed, with the expected yield per kill (world.json overrides the loot table). */
  mobDropsOf(mob: string): Map<string, number> {
    const out = new Map<string, number>()
    for (const d of this.kb.mc.entityLoot[mob]?.drops ?? []) {
      const [lo, hi] = d.stackSizeRange ?? [1, 1]
      out.set(d.item, d.dropChance * (((lo ?? 1) + (hi ?? lo ?? 1)) / 2))
    }
    for (const [item, y] of Object.entries(this.kb.world.mobDrops[mob] ?? {})) out.set(item, y)
    return out
  }

  sourcesFor(item: string): Source[] {
    return this.byItem.get(item) ?? []
  }
  /** Where a mob lives (world.json), if it is an Overworld mob the bot may hunt. */
  mobPlace(mob: string): MobPlace | undefined {
    return this.kb.world.mobs[mob]
  }
  /** Where a block is found (world.json), if the knowledge places it. */
  blockPlace(block: string): BlockPlace | undefined {
    return this.kb.world.blocks[block]
  }
  /** Every game item plus the pseudo-items that have sources (`experience`, `<tool>+silk_touch`). */
  allItems(): string[] {
    return [...this.kb.mc.itemsArray.map((i) => i.name), ...[...this.byItem.keys()].filter(isPseudoItem)]
  }

  private add(item: string, s: Source): void {
    if (!this.kb.mc.itemsByName[item] && !isPseudoItem(item)) return
    const list = this.byItem.get(item) ?? []
    list.push(s)
    this.byItem.set(item, list)
  }

  private build(): void {
    const { world, mc } = this.kb
    for (const [block, place] of Object.entries(world.blocks)) {
      if (!mc.blocksByName[block]) continue
      const also = (place.also ?? []).filter((b) => mc.blocksByName[b])
      for (const [item, yieldPer] of this.dropsOf(block)) {
        if (yieldPer <= 0) continue
        this.add(item, { kind: 'mine', block, also, yieldPer, tools: this.toolsForDrop(block, item), place })
      }
      // Silk Touch keeps the block itself: only the exact block (not its deepslate twin) drops it.
      const silk = this.silkTools(block)
      if (silk.length)
        for (const item of this.silkOnlyDrops(block))
          this.add(item, { kind: 'mine', block, also: [], yieldPer: 1, tools: silk, place })
    }
    for (const [mob, place] of Object.entries(world.mobs)) {
      if (!mc.entitiesByName[mob]) continue
      for (const [item, yieldPer] of this.mobDropsOf(mob))
        if (yieldPer > 0) this.add(item, { kind: 'hunt', mob, yieldPer, place })
      const xp = this.experienceOf(mob)
      if (xp > 0) this.add(EXPERIENCE, { kind: 'hunt', mob, yieldPer: xp, place })
    }
    for (const tool of this.enchantableFor(SILK)) {
      const plan = this.enchantPlan(tool, SILK)
      if (plan) this.add(enchantedKey(tool, SILK), plan)
    }
    for (const spec of world.apply) this.add(spec.item, { kind: 'apply', spec })
    for (const spec of world.collect) this.add(spec.item, { kind: 'collect', spec })
    for (const r of this.kb.smelting) this.add(r.output, { kind: 'smelt', inputs: r.inputs })
    for (const it of mc.itemsArray)
      for (const group of this.recipes.groupsFor(it.name)) this.add(it.name, { kind: 'craft', group })
    for (const list of this.byItem.values()) list.sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind])
  }
}

/** Where a task begins: sea level, on the land. */
export const START_Y = 64

/** Steps to dig or climb from y `from` to y `to`: 16 blocks a step. */
export function levelSteps(from: number, to: number): number {
  return Math.ceil(Math.abs(from - to) / 16)
}

/**
 * One-off travel cost of a trip to a block or mob: digging down from sea level (y 64) to the best y-level, 16 blocks
 * a step, plus 4 steps to reach a required biome. Charged once per mine/hunt step, on top of findCost per unit.
 */
export function tripCost(place: { where: string; bestY?: number; biomes?: string[] }): number {
  const down = place.where === 'underground' ? levelSteps(START_Y, Math.min(START_Y, place.bestY ?? 0)) : 0
  return down + (place.biomes?.length ? 4 : 0)
}

export function sortByTier(tools: string[]): string[] {
  const rank = (t: string): number => {
    if (t === 'shears') return 0.5
    const i = TIERS.findIndex((p) => t.startsWith(`${p}_`))
    return i < 0 ? 99 : i
  }
  return [...tools].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
}
