/**
 * How each item is obtained: the `Source` union (craft, smelt, mine, hunt, apply, collect) built from minecraft-data
 * (recipes, blockLoot, entityLoot, harvestTools) plus the hand-kept world data (where blocks and mobs are, expected
 * yields, shears-only drops, bucket/shears uses). Also owns harvest rules: which tools can harvest a block and the
 * cheapest tier. Sources carry no costs; src/knowledge/cost.ts ranks them.
 */
import type { ApplySource, BlockPlace, CollectSource, KbData, MobPlace } from './data.js'
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
export interface HuntSource { kind: 'hunt'; mob: string; yieldPer: number; place: MobPlace }
export interface CraftSource { kind: 'craft'; group: RecipeGroup }
export interface SmeltSource { kind: 'smelt'; inputs: string[] }
export interface ApplySrc { kind: 'apply'; spec: ApplySource }
export interface CollectSrc { kind: 'collect'; spec: CollectSource }
export type Source = MineSource | HuntSource | CraftSource | SmeltSource | ApplySrc | CollectSrc

const KIND_ORDER: Record<Source['kind'], number> = { mine: 0, collect: 1, hunt: 2, apply: 3, smelt: 4, craft: 5 }

/** Pickaxe/shovel/axe/hoe/sword tiers, cheapest first; golden tools are skipped when an equal tier exists. */
const TIERS = ['wooden', 'stone', 'iron', 'diamond', 'netherite', 'golden']

export class SourceIndex {
  readonly recipes: RecipeBook
  private readonly byItem = new Map<string, Source[]>()

  constructor(private readonly kb: KbData) {
    this.recipes = new RecipeBook(kb.mc)
    this.build()
  }

  /** Tools that can harvest `block` (empty: anything, including the hand). */
  harvestTools(block: string): string[] {
    const b = this.kb.mc.blocksByName[block]
    if (!b?.harvestTools) return []
    const names = Object.keys(b.harvestTools).map((id) => this.kb.mc.items[Number(id)]?.name).filter((n): n is string => !!n)
    return sortByTier(names)
  }

  /** Whether holding `tool` (null = hand) harvests `block`, by minecraft-data's harvestTools. */
  canHarvest(block: string, tool: string | null): boolean {
    const tools = this.harvestTools(block)
    return tools.length === 0 || (tool !== null && tools.includes(tool))
  }

  /** Tools needed to get `item` from `block`: shears for shears-only drops, else the block's harvest tools. */
  toolsForDrop(block: string, item: string): string[] {
    if (this.kb.world.shearsOnly[block]?.includes(item)) return ['shears']
    return this.harvestTools(block)
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
    for (const item of this.kb.world.shearsOnly[block] ?? []) if (!out.has(item) && this.kb.mc.itemsByName[item]) out.set(item, 1)
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

  sourcesFor(item: string): Source[] { return this.byItem.get(item) ?? [] }
  /** Where a mob lives (world.json), if it is an Overworld mob the bot may hunt. */
  mobPlace(mob: string): MobPlace | undefined { return this.kb.world.mobs[mob] }
  allItems(): string[] { return this.kb.mc.itemsArray.map((i) => i.name) }

  private add(item: string, s: Source): void {
    if (!this.kb.mc.itemsByName[item]) return
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
    }
    for (const [mob, place] of Object.entries(world.mobs)) {
      if (!mc.entitiesByName[mob]) continue
      for (const [item, yieldPer] of this.mobDropsOf(mob)) if (yieldPer > 0) this.add(item, { kind: 'hunt', mob, yieldPer, place })
    }
    for (const spec of world.apply) this.add(spec.item, { kind: 'apply', spec })
    for (const spec of world.collect) this.add(spec.item, { kind: 'collect', spec })
    for (const r of this.kb.smelting) this.add(r.output, { kind: 'smelt', inputs: r.inputs })
    for (const it of mc.itemsArray) for (const group of this.recipes.groupsFor(it.name)) this.add(it.name, { kind: 'craft', group })
    for (const list of this.byItem.values()) list.sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind])
  }
}

/**
 * One-off travel cost of a trip to a block or mob: digging down from sea level (y 64) to the best y-level, 16 blocks
 * a step, plus 4 steps to reach a required biome. Charged once per mine/hunt step, on top of findCost per unit.
 */
export function tripCost(place: { where: string; bestY?: number; biomes?: string[] }): number {
  const down = place.where === 'underground' ? Math.ceil(Math.max(0, 64 - (place.bestY ?? 0)) / 16) : 0
  return down + (place.biomes?.length ? 4 : 0)
}

export function sortByTier(tools: string[]): string[] {
  const rank = (t: string): number => {
    if (t === 'shears') return 0.5
    const i = TIERS.findIndex((p) => t.startsWith(p + '_'))
    return i < 0 ? 99 : i
  }
  return [...tools].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
}
