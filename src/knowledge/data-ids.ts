/**
 * Every game id our hand-kept data files name, with its kind (item, block, entity, biome) and the file and field it
 * came from, so a test can check each file against each supported version: an id a version lacks must be renamed
 * (src/knowledge/version-data.ts), carry a `minVersion` in its entry, or be listed in VERSION_LIMITED — never silently
 * dropped. Reads the raw JSON (before any renaming); ids are 1.20.2 ids.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { REPO_ROOT } from './data.js'

/** `any`: an item, block or entity id (the impossible table's notItems name blocks such as water and portals). */
export type IdKind = 'item' | 'block' | 'entity' | 'biome' | 'any'
export interface DataId {
  file: string
  field: string
  kind: IdKind
  id: string
  minVersion?: string
}

type Json = Record<string, unknown>
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {})
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
const str = (v: unknown): string[] => (typeof v === 'string' ? [v] : [])
const keys = (v: unknown): string[] => Object.keys(obj(v)).filter((k) => !k.startsWith('_'))

/** The data files checked, relative to the repository root. */
export const DATA_FILES = [
  'data/smelting.json',
  'data/knowledge/world.json',
  'data/knowledge/enchanting.json',
  'data/knowledge/impossible.json',
  'data/knowledge/info.json',
  'data/intent/nicknames.json',
  'data/aliases/gitm-1.11.json',
] as const

function read(file: string): Json {
  return obj(JSON.parse(readFileSync(path.join(REPO_ROOT, file), 'utf8')))
}

function smelting(d: Json, add: (field: string, kind: IdKind, ids: string[], minVersion?: string) => void): void {
  for (const r of arr(d.recipes).map(obj)) {
    const mv = typeof r.minVersion === 'string' ? r.minVersion : undefined
    add('recipes.input', 'item', arr(r.input).flatMap(str), mv)
    add('recipes.output', 'item', str(r.output), mv)
  }
  for (const f of arr(d.fuels).map(obj))
    add('fuels.items', 'item', arr(f.items).flatMap(str), typeof f.minVersion === 'string' ? f.minVersion : undefined)
}

function world(d: Json, add: (field: string, kind: IdKind, ids: string[], minVersion?: string) => void): void {
  for (const [b, place] of Object.entries(obj(d.blocks))) {
    add('blocks', 'block', [b, ...arr(obj(place).also).flatMap(str)])
    add('blocks.biomes', 'biome', arr(obj(place).biomes).flatMap(str))
  }
  for (const [b, drops] of Object.entries(obj(d.blockDrops))) {
    add('blockDrops', 'block', [b])
    add('blockDrops.drops', 'item', keys(drops))
  }
  for (const f of ['shearsOnly', 'noDrop'] as const) {
    for (const [b, items] of Object.entries(obj(d[f]))) {
      add(f, 'block', [b])
      add(`${f}.items`, 'item', arr(items).flatMap(str))
    }
  }
  for (const [m, place] of Object.entries(obj(d.mobs))) {
    add('mobs', 'entity', [m])
    add('mobs.biomes', 'biome', arr(obj(place).biomes).flatMap(str))
  }
  for (const [m, drops] of Object.entries(obj(d.mobDrops))) {
    add('mobDrops', 'entity', [m])
    add('mobDrops.drops', 'item', keys(drops))
  }
  for (const a of arr(d.apply).map(obj)) {
    const mv = typeof a.minVersion === 'string' ? a.minVersion : undefined
    add('apply.item', 'item', str(a.item), mv)
    add('apply.tool', 'item', str(a.tool), mv)
    add('apply.materials', 'item', keys(a.materials), mv)
    add('apply.station', 'item', str(a.station), mv)
    const kind: IdKind = a.targetKind === 'mob' ? 'entity' : 'block'
    add('apply.target', kind, str(a.target), mv)
  }
  for (const c of arr(d.collect).map(obj)) {
    add('collect.item', 'item', str(c.item))
    add('collect.near', 'entity', str(c.near))
  }
}

/** Every id named by every data file. */
export function dataFileIds(): DataId[] {
  const out: DataId[] = []
  for (const file of DATA_FILES) {
    const d = read(file)
    const add = (field: string, kind: IdKind, ids: string[], minVersion?: string): void => {
      for (const id of ids) out.push({ file, field, kind, id, ...(minVersion ? { minVersion } : {}) })
    }
    if (file === 'data/smelting.json') smelting(d, add)
    else if (file === 'data/knowledge/world.json') world(d, add)
    else if (file === 'data/knowledge/enchanting.json') {
      const t = obj(d.table)
      add('table.station', 'block', str(t.station))
      add('table.bookshelf', 'block', str(t.bookshelf))
      add('experiencePerKill', 'entity', keys(d.experiencePerKill)) // enchantability keys are materials, not ids
    } else if (file === 'data/intent/nicknames.json') {
      add('phrases', 'item', Object.values(obj(d.phrases)).flatMap(str))
    } else if (file === 'data/aliases/gitm-1.11.json') {
      add(
        'aliases',
        'item',
        Object.values(obj(d.aliases)).flatMap((a) => (typeof a === 'string' ? [a] : str(obj(a).item))),
      )
    } else if (file === 'data/knowledge/impossible.json') {
      add('items', 'item', keys(d.items))
      add('notItems', 'any', keys(d.notItems))
    } else add('items', 'item', keys(d.items)) // info.json: item → text
  }
  return out
}
