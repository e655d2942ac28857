/**
 * What intent parsing needs to know about names: whether an id exists in the game version, did-you-mean
 * suggestions, whether an item is impossible to obtain in survival, and biome names. `IntentKnowledge` is the small
 * interface intent codes against. `intentKnowledge(version)` (the default) adapts src/knowledge's `Knowledge`
 * (resolveName with did-you-mean, impossibleReason for items); non-items (water, lava, portals) get the reason from
 * the same table's `notItems` (data/knowledge/impossible.json, the one impossible-items table).
 * `fallbackKnowledge(version)` is a minecraft-data-only implementation kept for when the knowledge base cannot load;
 * it reads that same table.
 */
import minecraftData from 'minecraft-data'
import { listedImpossible, readImpossibleTable } from '../knowledge/data.js'
import { createKnowledge, type Knowledge } from '../knowledge/index.js'
import { renamesFor } from '../knowledge/version-data.js'
import { didYouMean } from '../util/text.js'

export interface IntentKnowledge {
  readonly version: string
  /** Is this an item, block or entity id in this version? */
  has(id: string): boolean
  /** Closest known ids for a misspelt or unknown name, best first (may be empty). */
  suggest(name: string): string[]
  /** A plain sentence why `id` cannot be obtained in survival, or null when it can. */
  impossibleReason(id: string): string | null
  /** Is this a biome id in this version? */
  isBiome(id: string): boolean
  /** The id this version uses for a 1.20.2 id (src/knowledge/renames.ts: grass → short_grass from 1.20.3). */
  current?(id: string): string
}

const cache = new Map<string, IntentKnowledge>()

/** Knowledge over minecraft-data for one version (cached). */
export function fallbackKnowledge(version: string): IntentKnowledge {
  const hit = cache.get(version)
  if (hit) return hit
  const data = minecraftData(version)
  if (!data) throw new Error(`minecraft-data has no data for version ${version}`)
  const names = new Set<string>([
    ...Object.keys(data.itemsByName),
    ...Object.keys(data.blocksByName),
    ...Object.keys(data.entitiesByName),
  ])
  const biomes = new Set<string>(Object.keys(data.biomesByName ?? {}))
  const renames = renamesFor(data)
  const table = readImpossibleTable(renames)
  const kb: IntentKnowledge = {
    version,
    has: (id) => names.has(id),
    suggest: (name) => didYouMean(name.replace(/\s+/g, '_'), names, 3),
    impossibleReason: (id) => listedImpossible(table, id),
    isBiome: (id) => biomes.has(id),
    current: (id) => renames.get(id) ?? id,
  }
  cache.set(version, kb)
  return kb
}

const adapted = new WeakMap<Knowledge, IntentKnowledge>()

/** Adapt the knowledge base to what intent needs. */
export function fromKnowledge(k: Knowledge): IntentKnowledge {
  const hit = adapted.get(k)
  if (hit) return hit
  const biomes = new Set<string>(Object.keys(k.data.mc.biomesByName ?? {}))
  const renames = renamesFor(k.data.mc)
  const kb: IntentKnowledge = {
    version: k.version,
    has: (id) => k.isItem(id) || k.isBlock(id) || k.isEntity(id),
    suggest: (name) => {
      const r = k.resolveName(name)
      return r.ok ? [r.name] : r.suggestions.slice(0, 3)
    },
    // Finding a block or an entity is fine; only items can be impossible to obtain (plus the table's non-items).
    impossibleReason: (id) => (k.isItem(id) ? k.impossibleReason(id) : k.notItemReason(id)),
    isBiome: (id) => biomes.has(id),
    current: (id) => renames.get(id) ?? id,
  }
  adapted.set(k, kb)
  return kb
}

/** The default: the shared knowledge base for `version`. */
export function intentKnowledge(version: string): IntentKnowledge {
  return fromKnowledge(createKnowledge(version))
}
