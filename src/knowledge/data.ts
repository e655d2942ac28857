/**
 * Knowledge data loading: opens minecraft-data for a version and the hand-kept data files that minecraft-data lacks
 * (data/smelting.json, data/knowledge/world.json, enchanting.json, impossible.json, info.json), renames their 1.20.2 ids
 * for the version (src/knowledge/renames.ts), validates them with zod and filters version-bound entries by their
 * `minVersion` or VERSION_LIMITED; block loot comes corrected from `versionBlockLoot`. Everything else in
 * src/knowledge reads game data through `KbData`.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import minecraftData from 'minecraft-data'
import { z } from 'zod'
import { GhostError } from '../util/errors.js'
import {
  applies,
  correctedData,
  type ItemDurabilities,
  renameIds,
  renamesFor,
  repairDurability,
  type CorrectableData,
} from './version-data.js'

export type McData = minecraftData.IndexedData

/** Repository root (two levels above src/knowledge). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

const SmeltingFile = z.object({
  recipes: z.array(z.object({ input: z.array(z.string()), output: z.string(), minVersion: z.string() })),
  fuels: z.array(
    z.object({
      items: z.array(z.string()),
      burnItems: z.number().positive(),
      minVersion: z.string(),
      note: z.string().optional(),
    }),
  ),
})
const BlockPlace = z.object({
  where: z.enum(['surface', 'underground']),
  findCost: z.number().positive(),
  biomes: z.array(z.string()).optional(),
  note: z.string().optional(),
  yMin: z.number().int().optional(),
  yMax: z.number().int().optional(),
  bestY: z.number().int().optional(),
  /**
   * Underground: the median blocks a branch-mining search digs at the block's level before it first sees one
   * (`npm run bench:search`); the decomposer plans a spare digging tool from it (decompose-tools.ts `spareWanted`).
   */
  searchDig: z.number().positive().optional(),
  also: z.array(z.string()).optional(),
})
export type BlockPlace = z.infer<typeof BlockPlace>
const MobPlace = z.object({
  where: z.enum(['surface', 'underground', 'water']),
  findCost: z.number().positive(),
  biomes: z.array(z.string()).optional(),
  time: z.enum(['day', 'night']).optional(),
  note: z.string().optional(),
})
export type MobPlace = z.infer<typeof MobPlace>
const ApplySource = z.object({
  item: z.string(),
  tool: z.string(),
  toolConsumed: z.boolean(),
  target: z.string(),
  targetKind: z.enum(['mob', 'fluid', 'placed']),
  yield: z.number().positive(),
  findCost: z.number().positive(),
  materials: z.record(z.string(), z.number().int().positive()).optional(),
  station: z.string().optional(),
  note: z.string().optional(),
  minVersion: z.string().optional(),
})
export type ApplySource = z.infer<typeof ApplySource>
const CollectSource = z.object({
  item: z.string(),
  near: z.string(),
  yield: z.number().positive(),
  findCost: z.number().positive(),
  note: z.string().optional(),
})
export type CollectSource = z.infer<typeof CollectSource>
const WorldFile = z.object({
  minVersion: z.string(),
  /** Caves at and below this y are filled with lava. */
  lavaLevel: z.number().int(),
  blocks: z.record(z.string(), BlockPlace),
  blockDrops: z.record(z.string(), z.record(z.string(), z.number().positive())),
  shearsOnly: z.record(z.string(), z.array(z.string())),
  noDrop: z.record(z.string(), z.array(z.string())),
  mobs: z.record(z.string(), MobPlace),
  mobDrops: z.record(z.string(), z.record(z.string(), z.number().positive())),
  apply: z.array(ApplySource),
  collect: z.array(CollectSource),
})
export type WorldData = z.infer<typeof WorldFile>
const ImpossibleFile = z.object({
  items: z.record(z.string(), z.string()),
  patterns: z.array(z.object({ pattern: z.string(), reason: z.string() })),
  notItems: z.record(z.string(), z.string()),
})
/** The one impossible-items table (data/knowledge/impossible.json): items, id patterns, and non-items. */
export interface ImpossibleTable {
  items: Record<string, string>
  patterns: Array<{ re: RegExp; reason: string }>
  /** blocks and fluids that are not items (water, fire, portals): the answer when one is asked for */
  notItems: Record<string, string>
}
const InfoFile = z.object({ items: z.record(z.string(), z.string()) })
const EnchantingFile = z.object({
  minVersion: z.string(),
  table: z.object({
    station: z.string(),
    bookshelf: z.string(),
    bookshelves: z.number().int().min(0).max(15),
    level: z.number().int().min(1).max(30),
    lapisPerAttempt: z.number().int().min(1).max(3),
    levelsPerAttempt: z.number().int().min(1).max(3),
  }),
  enchantability: z.record(z.string(), z.number().int().min(0)),
  experiencePerKill: z.record(z.string(), z.number().positive()),
})
export type EnchantingData = z.infer<typeof EnchantingFile>

export interface SmeltRecipe {
  inputs: string[]
  output: string
}
export interface Fuel {
  item: string
  burnItems: number
}

export interface KbData {
  version: string
  /** minecraft-data for the version, with its known defects corrected (src/knowledge/version-data.ts) */
  mc: McData
  smelting: SmeltRecipe[]
  fuels: Fuel[]
  world: WorldData
  impossible: ImpossibleTable
  info: Record<string, string>
  /** null when the version predates the data (then nothing is planned through enchanting) */
  enchanting: EnchantingData | null
}

/** Read a data file (written with 1.20.2 ids), rename its ids for the version (`renames`), validate it. */
function readJson<T>(rel: string, schema: z.ZodType<T>, renames: ReadonlyMap<string, string> = new Map()): T {
  const file = path.join(REPO_ROOT, rel)
  let raw: unknown
  try {
    raw = renameIds(JSON.parse(readFileSync(file, 'utf8')) as unknown, renames)
  } catch (err) {
    throw new GhostError('internal', `cannot read knowledge data ${rel}: ${(err as Error).message}`, undefined, {
      cause: err,
    })
  }
  const parsed = schema.safeParse(raw)
  if (!parsed.success) throw new GhostError('internal', `invalid knowledge data ${rel}: ${parsed.error.message}`)
  return parsed.data
}

/** Read the impossible-items table with ids renamed for a version (no other knowledge needed). */
export function readImpossibleTable(renames: ReadonlyMap<string, string> = new Map()): ImpossibleTable {
  const t = readJson('data/knowledge/impossible.json', ImpossibleFile, renames)
  return {
    items: t.items,
    patterns: t.patterns.map((p) => ({ re: new RegExp(p.pattern), reason: p.reason })),
    notItems: t.notItems,
  }
}

/** Why `id` is listed as impossible (exact item, then pattern, then non-item), or null when it is not listed. */
export function listedImpossible(t: ImpossibleTable, id: string): string | null {
  if (Object.hasOwn(t.items, id)) return t.items[id]!
  for (const p of t.patterns) if (p.re.test(id)) return p.reason
  return Object.hasOwn(t.notItems, id) ? t.notItems[id]! : null
}

const cache = new Map<string, KbData>()

/**
 * Repair this version's defective item data in minecraft-data itself (`repairDurability`): the bot (src/bot/create.ts)
 * and the practice server call it before their registries make items, the knowledge before it reads them.
 */
export function repairItems(version: string): void {
  const load = (v: string): ItemDurabilities => minecraftData(v) as unknown as ItemDurabilities
  try {
    repairDurability(load(version), load)
  } catch {
    // an unknown version: nothing to repair (the caller reports the version itself)
  }
}

/** Load (and cache per version) all data the knowledge base needs. Throws GhostError('bad_input') for unknown versions. */
export function loadKbData(version: string): KbData {
  const hit = cache.get(version)
  if (hit) return hit
  let mc: McData
  try {
    mc = minecraftData(version)
  } catch {
    mc = undefined as unknown as McData
  }
  if (!mc?.itemsByName) throw new GhostError('bad_input', `unknown Minecraft version ${version}`)
  repairItems(version)
  const load = (v: string): CorrectableData => minecraftData(v) as unknown as CorrectableData
  mc = correctedData(mc as unknown as CorrectableData, load) as unknown as McData
  const atLeast = (v: string): boolean => mc.isNewerOrEqualTo(v)
  const ren = renamesFor(mc)
  const has = (n: string): boolean => mc.itemsByName[n] !== undefined
  const sm = readJson('data/smelting.json', SmeltingFile, ren)
  const smelting = sm.recipes
    .filter((r) => atLeast(r.minVersion) && has(r.output))
    .map((r) => ({ inputs: r.input.filter(has), output: r.output }))
    .filter((r) => r.inputs.length > 0)
  const fuels: Fuel[] = []
  for (const f of sm.fuels)
    if (atLeast(f.minVersion)) for (const item of f.items) if (has(item)) fuels.push({ item, burnItems: f.burnItems })
  const world = readJson('data/knowledge/world.json', WorldFile, ren)
  if (!atLeast(world.minVersion)) {
    throw new GhostError('bad_input', `world generation data covers ${world.minVersion}+ only; ${version} is older`)
  }
  world.apply = world.apply.filter((a) => !a.minVersion || atLeast(a.minVersion))
  const inRange = (items: Record<string, string>): Record<string, string> =>
    Object.fromEntries(Object.entries(items).filter(([id]) => applies(id, mc)))
  const impossible = readImpossibleTable(ren)
  impossible.items = inRange(impossible.items)
  const info = inRange(readJson('data/knowledge/info.json', InfoFile, ren).items)
  const ench = readJson('data/knowledge/enchanting.json', EnchantingFile, ren)
  const data: KbData = {
    version,
    mc,
    smelting,
    fuels,
    world,
    info,
    enchanting: atLeast(ench.minVersion) ? ench : null,
    impossible,
  }
  cache.set(version, data)
  return data
}
