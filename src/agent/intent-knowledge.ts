/**
 * What intent parsing needs to know about names: whether an id exists in the game version, did-you-mean
 * suggestions, whether an item is impossible to obtain in survival, and biome names. `IntentKnowledge` is the small
 * interface intent codes against. `intentKnowledge(version)` (the default) adapts src/knowledge's `Knowledge`
 * (resolveName with did-you-mean, impossibleReason for items); non-items fall back to data/intent/impossible.json
 * (water, lava, portals). `fallbackKnowledge(version)` is a minecraft-data-only implementation kept for when the
 * knowledge base cannot load.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import minecraftData from 'minecraft-data'
import { createKnowledge, type Knowledge } from '../knowledge/index.js'
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
}

interface ImpossibleTable { items: Record<string, string>; suffixes: Record<string, string>; prefixes: Record<string, string> }

const DATA_DIR = fileURLToPath(new URL('../../data/intent/', import.meta.url))
let impossibleTable: ImpossibleTable | undefined

export function loadImpossibleTable(): ImpossibleTable {
  impossibleTable ??= JSON.parse(readFileSync(`${DATA_DIR}impossible.json`, 'utf8')) as ImpossibleTable
  return impossibleTable
}

/** Look `id` up in data/intent/impossible.json (exact, then suffix and prefix rules). */
export function impossibleFromTable(id: string): string | null {
  const t = loadImpossibleTable()
  if (t.items[id]) return t.items[id]!
  for (const [suf, why] of Object.entries(t.suffixes)) if (id.endsWith(suf)) return why
  for (const [pre, why] of Object.entries(t.prefixes)) if (id.startsWith(pre)) return why
  return null
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
  const kb: IntentKnowledge = {
    version,
    has: (id) => names.has(id),
    suggest: (name) => didYouMean(name.replace(/\s+/g, '_'), names, 3),
    impossibleReason: (id) => impossibleFromTable(id),
    isBiome: (id) => biomes.has(id),
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
  const kb: IntentKnowledge = {
    version: k.version,
    has: (id) => k.isItem(id) || k.isBlock(id) || k.isEntity(id),
    suggest: (name) => { const r = k.resolveName(name); return r.ok ? [r.name] : r.suggestions.slice(0, 3) },
    // Finding a block or an entity is fine; only items can be impossible to obtain (plus the table's non-items).
    impossibleReason: (id) => (k.isItem(id) ? k.impossibleReason(id) : impossibleFromTable(id)),
    isBiome: (id) => biomes.has(id),
  }
  adapted.set(k, kb)
  return kb
}

/** The default: the shared knowledge base for `version`. */
export function intentKnowledge(version: string): IntentKnowledge {
  return fromKnowledge(createKnowledge(version))
}
