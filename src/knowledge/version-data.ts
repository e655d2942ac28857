/**
 * What differs between the versions we support, in one place. Renames: our data files (data/**) are written with
 * 1.20.2 ids, and every id is translated to the version at hand through `renamesFor` — in the knowledge data, the
 * practice world's palette, intent and the techtree benchmark's GITM names. Corrections of minecraft-data 3.117 where
 * a version's data is defective (`correctedData`, a view over minecraft-data that never modifies it): block loot for
 * ≥1.20.3 is still the 1.20 table (old names, nothing for newer blocks); 1.20.5/1.20.6 recipes lost their tag
 * alternatives (sticks from oak planks only); ≥1.21.8 enchantment costs are all 1; 1.20.5/1.20.6 item durabilities
 * are all 1 (`repairDurability`, the one repair made in place). Each correction has a unit test that the defect is
 * still there. Also the ids our data files name that some versions lack on purpose
 * (`VERSION_LIMITED`); a unit test fails for any other id a version lacks.
 */

/** The version our data files (data/**) are written for; the base of every rename. */
export const DATA_BASE_VERSION = '1.20.2'

/** Java Edition renames within 1.20.2 … newest supported, oldest first. */
export const RENAMES: ReadonlyArray<{ from: string; to: string; since: string }> = [
  { from: 'grass', to: 'short_grass', since: '1.20.3' },
  { from: 'scute', to: 'turtle_scute', since: '1.20.5' },
  { from: 'chain', to: 'iron_chain', since: '1.21.9' },
]

/** Id `name` (a 1.20.2 id) has in a version whose names are `has`: itself, or its newer or older name. */
export function idIn(name: string, has: (n: string) => boolean): string | undefined {
  if (has(name)) return name
  for (const r of RENAMES) {
    if (r.from === name && has(r.to)) return r.to
    if (r.to === name && has(r.from)) return r.from
  }
  return undefined
}

/** Minimal view of minecraft-data for a version (what renaming and loot need). */
export interface VersionData {
  isNewerOrEqualTo(version: string): boolean
  blocksArray: Array<{ name: string }>
  itemsByName: Record<string, unknown>
  blockLoot: Record<string, BlockLoot>
}
export interface LootDrop {
  item: string
  dropChance: number
  stackSizeRange: Array<number | null>
  silkTouch?: boolean
  noSilkTouch?: boolean
}
export interface BlockLoot {
  block: string
  drops: LootDrop[]
}

/** 1.20.2 id → id in this version, for every rename in effect at this version. */
export function renamesFor(mc: VersionData): Map<string, string> {
  return new Map(RENAMES.filter((r) => mc.isNewerOrEqualTo(r.since)).map((r) => [r.from, r.to]))
}

/** Rename every object key and string value that is exactly a renamed id, through arrays and objects (JSON data). */
export function renameIds<T>(value: T, map: ReadonlyMap<string, string>): T {
  if (map.size === 0) return value
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return map.get(v) ?? v
    if (Array.isArray(v)) return v.map(walk)
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [map.get(k) ?? k, walk(x)]))
    return v
  }
  return walk(value) as T
}

/**
 * Ids whose data-file entries hold only from `since` and/or before `until` (release ids; `why` says what changes).
 * The entries stay in the files (they are right for those versions); `applies` filters them when a version is loaded,
 * and the data-file test accepts an id a version lacks only when its entry is out of range there.
 */
export const VERSION_LIMITED: Readonly<Record<string, { since?: string; until?: string; why: string }>> = {
  trial_key: { since: '1.20.3', why: 'trial chambers (experimental in 1.20.3–1.20.6)' },
  trial_spawner: { since: '1.20.3', why: 'trial chambers (experimental in 1.20.3–1.20.6)' },
  heavy_core: { since: '1.20.5', why: 'trial chambers' },
  ominous_trial_key: { since: '1.20.5', why: 'trial chambers' },
  ominous_bottle: { since: '1.20.5', why: 'trial chambers and raids' },
  breeze_rod: { since: '1.20.5', why: 'breezes (trial chambers)' },
  vault: { since: '1.20.5', why: 'trial chambers' },
  flow_banner_pattern: { since: '1.20.5', why: 'trial chambers' },
  guster_banner_pattern: { since: '1.20.5', why: 'trial chambers' },
  bundle: { until: '1.21.2', why: 'impossible.json: no survival recipe before 1.21.2 (craftable from then on)' },
}

/** Whether data-file entries naming `id` hold in this version (see VERSION_LIMITED). */
export function applies(id: string, mc: Pick<VersionData, 'isNewerOrEqualTo'>): boolean {
  const l = VERSION_LIMITED[id]
  return !l || ((!l.since || mc.isNewerOrEqualTo(l.since)) && (!l.until || !mc.isNewerOrEqualTo(l.until)))
}

const one = (item: string, dropChance = 1, silkTouch?: boolean): LootDrop => ({
  item,
  dropChance,
  stackSizeRange: [1, 1],
  ...(silkTouch ? { silkTouch } : {}),
})

/** Blocks newer than 1.20.2 that do not simply drop themselves (vanilla loot tables; the rest drop themselves). */
export const NEW_BLOCK_LOOT: Readonly<Record<string, LootDrop[]>> = {
  trial_spawner: [],
  vault: [],
  test_block: [],
  test_instance_block: [], // unbreakable in survival / creative-only
  pale_oak_leaves: [one('pale_oak_sapling', 0.05), one('stick', 0.02), one('pale_oak_leaves', 1, true)],
  bush: [],
  short_dry_grass: [],
  tall_dry_grass: [],
  pale_hanging_moss: [], // shears only
  creaking_heart: [one('resin_clump', 1), one('creaking_heart', 1, true)],
}

/** minecraft-data's block loot for this version, renamed, with blocks newer than 1.20.2 filled in. */
export function versionBlockLoot(mc: VersionData, base: VersionData): Record<string, BlockLoot> {
  const ren = renamesFor(mc)
  const out: Record<string, BlockLoot> = { ...renameIds(mc.blockLoot, ren) }
  const old = new Set(base.blocksArray.map((b) => ren.get(b.name) ?? b.name))
  for (const { name } of mc.blocksArray) {
    if (out[name] || old.has(name)) continue
    const drops = NEW_BLOCK_LOOT[name] ?? (mc.itemsByName[name] ? [one(name)] : [])
    out[name] = { block: name, drops: drops.filter((d) => mc.itemsByName[d.item]) }
  }
  return out
}

/** Versions whose minecraft-data recipes lack tag alternatives, and the version whose recipes are used instead. */
export const RECIPES_FROM: Readonly<Record<string, string>> = { '1.20.5': '1.20.4', '1.20.6': '1.20.4' }
/** Versions whose minecraft-data enchantment costs are all 1, and the version whose costs are used (unchanged in vanilla). */
export const ENCHANT_COSTS_FROM: Readonly<Record<string, string>> = {
  '1.21.8': '1.21.6',
  '1.21.9': '1.21.6',
  '1.21.10': '1.21.6',
  '1.21.11': '1.21.6',
  '26.1': '1.21.6',
}

/** Versions whose minecraft-data gives every item's maxDurability as 1, and the version whose durabilities are used. */
export const DURABILITY_FROM: Readonly<Record<string, string>> = { '1.20.5': '1.20.4', '1.20.6': '1.20.4' }

/** What the durability repair reads and writes of a version's minecraft-data. */
export interface ItemDurabilities {
  version: { minecraftVersion?: string }
  itemsArray: Array<{ name: string; maxDurability?: number }>
  itemsByName: Record<string, { maxDurability?: number } | undefined>
}

/**
 * Repair a version's item durabilities from DURABILITY_FROM's version, by name. Unlike the corrections of
 * `correctedData` this writes minecraft-data's own item objects: prismarine-item reads `maxDurability` from the
 * registry that mineflayer and flying-squid build over those same objects, so a view would not reach the bot's tool
 * wear (src/bot/wear.ts: every tool on its last use) nor the practice server's (src/server/plugins/tool-wear.ts:
 * every tool broken by its first block). Idempotent.
 */
export function repairDurability(mc: ItemDurabilities, load: (version: string) => ItemDurabilities): void {
  const from = DURABILITY_FROM[mc.version.minecraftVersion ?? '']
  if (!from) return
  const src = load(from).itemsByName
  for (const item of mc.itemsArray) {
    const max = src[item.name]?.maxDurability
    if (item.maxDurability !== undefined && max !== undefined) item.maxDurability = max
  }
}

/** What the corrections read of a version's minecraft-data. */
export interface CorrectableData extends VersionData {
  version: { minecraftVersion?: string }
  items: Record<number, { name: string } | undefined>
  recipes: Record<string, unknown[]>
  enchantmentsArray: Array<{ name: string; minCost: unknown; maxCost: unknown }>
  enchantmentsByName: Record<string, { name: string; minCost: unknown; maxCost: unknown }>
}

/** `from`'s recipes with item ids mapped by name into `to` (renamed ids followed), plus `to`'s own for the rest. */
function borrowRecipes(to: CorrectableData, from: CorrectableData): Record<string, unknown[]> {
  const ren = renamesFor(to)
  const idOf = (fromId: number): number | undefined => {
    const name = from.items[fromId]?.name
    const n = name === undefined ? undefined : (ren.get(name) ?? name)
    return n === undefined ? undefined : (to.itemsByName[n] as { id: number } | undefined)?.id
  }
  let missing = false
  const mapIds = (v: unknown): unknown => {
    if (typeof v === 'number') {
      const id = idOf(v)
      if (id === undefined) missing = true
      return id
    }
    if (Array.isArray(v)) return v.map(mapIds)
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === 'count' ? x : mapIds(x)]))
    return v
  }
  const out: Record<string, unknown[]> = { ...to.recipes }
  for (const [resultId, list] of Object.entries(from.recipes)) {
    const id = idOf(Number(resultId))
    if (id === undefined) continue
    const mapped = list
      .map((r) => {
        missing = false
        const m = mapIds(r)
        return missing ? null : m
      })
      .filter((r) => r !== null)
    if (mapped.length > 0) out[String(id)] = mapped
  }
  return out
}

/** minecraft-data for this version with the corrections above, as a view (prototype) over the original object. */
export function correctedData<T extends CorrectableData>(mc: T, load: (version: string) => CorrectableData): T {
  const v = mc.version.minecraftVersion ?? ''
  const patch: Record<string, PropertyDescriptor> = {
    blockLoot: { value: versionBlockLoot(mc, load(DATA_BASE_VERSION)) },
  }
  const recipesFrom = RECIPES_FROM[v]
  if (recipesFrom) patch.recipes = { value: borrowRecipes(mc, load(recipesFrom)) }
  const costsFrom = ENCHANT_COSTS_FROM[v]
  if (costsFrom) {
    const src = load(costsFrom).enchantmentsByName
    const fixed = mc.enchantmentsArray.map((e) =>
      src[e.name] ? { ...e, minCost: src[e.name]!.minCost, maxCost: src[e.name]!.maxCost } : e,
    )
    patch.enchantmentsArray = { value: fixed }
    patch.enchantmentsByName = { value: Object.fromEntries(fixed.map((e) => [e.name, e])) }
  }
  return Object.create(mc, patch) as T
}
