/**
 * Crafting recipes from minecraft-data, in two views: concrete recipes (one ingredient multiset each, exactly as the
 * game accepts them; the decomposer picks one and the dry-run world checks against them) and recipe groups, where
 * recipes of the same result with the same shape are merged so each slot lists its variants ("any planks",
 * "any log", "coal or charcoal"). Also decides whether a recipe needs a crafting table (larger than 2x2).
 */
import type { McData } from './data.js'

export interface ConcreteRecipe {
  result: string
  count: number
  needsTable: boolean
  /** item → count consumed per craft */
  ingredients: Record<string, number>
}

export interface RecipeSlot {
  options: string[]
  count: number
}

export interface RecipeGroup {
  result: string
  count: number
  needsTable: boolean
  /** each slot: the interchangeable items and how many are consumed per craft */
  slots: RecipeSlot[]
  variants: ConcreteRecipe[]
}

type RawItem = number | null | { id: number; count?: number } | [number, number?, number?]
interface RawRecipe {
  result: RawItem
  inShape?: RawItem[][]
  ingredients?: RawItem[]
}

function idOf(x: RawItem): number | null {
  if (x === null || x === undefined) return null
  if (typeof x === 'number') return x
  if (Array.isArray(x)) return x[0]
  return x.id
}
function countOf(x: RawItem): number {
  if (x !== null && typeof x === 'object' && !Array.isArray(x)) return x.count ?? 1
  if (Array.isArray(x)) return x[2] ?? 1
  return 1
}

/** All recipes of the version, concrete and grouped, indexed by result name. */
export class RecipeBook {
  private readonly concrete = new Map<string, ConcreteRecipe[]>()
  private readonly groups = new Map<string, RecipeGroup[]>()

  constructor(private readonly mc: McData) {
    const all = mc.recipes as unknown as Record<string, RawRecipe[]>
    for (const [resultId, recipes] of Object.entries(all)) {
      const result = mc.items[Number(resultId)]?.name
      if (!result) continue
      const byKey = new Map<string, { rec: ConcreteRecipe; positions: string[] }[]>()
      for (const r of recipes) {
        const parsed = this.parse(result, r)
        if (!parsed) continue
        const list = this.concrete.get(result) ?? []
        list.push(parsed.rec)
        this.concrete.set(result, list)
        const bucket = byKey.get(parsed.key) ?? []
        bucket.push(parsed)
        byKey.set(parsed.key, bucket)
      }
      const groups: RecipeGroup[] = []
      for (const bucket of byKey.values()) groups.push(this.merge(bucket))
      if (groups.length) this.groups.set(result, groups)
    }
  }

  private parse(result: string, r: RawRecipe): { rec: ConcreteRecipe; positions: string[]; key: string } | null {
    const positions: string[] = []
    let needsTable: boolean
    let mask: string
    if (r.inShape) {
      const rows = r.inShape.length
      const cols = Math.max(...r.inShape.map((row) => row.length))
      needsTable = rows > 2 || cols > 2
      mask = `s${rows}x${cols}:${r.inShape.map((row) => row.map((c) => (idOf(c) === null ? '_' : '#')).join('')).join('/')}`
      for (const row of r.inShape)
        for (const c of row) {
          const id = idOf(c)
          if (id !== null) positions.push(this.name(id))
        }
    } else if (r.ingredients) {
      needsTable = r.ingredients.length > 4
      mask = `l${r.ingredients.length}`
      for (const c of r.ingredients) {
        const id = idOf(c)
        if (id !== null) positions.push(this.name(id))
      }
    } else return null
    if (positions.some((p) => p === '')) return null
    const ingredients: Record<string, number> = {}
    for (const p of positions) ingredients[p] = (ingredients[p] ?? 0) + 1
    const count = countOf(r.result)
    return { rec: { result, count, needsTable, ingredients }, positions, key: `${mask}|${count}` }
  }

  private name(id: number): string {
    return this.mc.items[id]?.name ?? ''
  }

  private merge(bucket: Array<{ rec: ConcreteRecipe; positions: string[] }>): RecipeGroup {
    const first = bucket[0]!
    const perPos: string[][] = first.positions.map(() => [])
    for (const b of bucket)
      b.positions.forEach((p, i) => {
        const o = perPos[i]
        if (o && !o.includes(p)) o.push(p)
      })
    const slots = new Map<string, RecipeSlot>()
    for (const options of perPos) {
      const key = [...options].sort().join(',')
      const s = slots.get(key)
      if (s) s.count++
      else slots.set(key, { options, count: 1 })
    }
    return {
      result: first.rec.result,
      count: first.rec.count,
      needsTable: bucket.some((b) => b.rec.needsTable),
      slots: [...slots.values()],
      variants: bucket.map((b) => b.rec),
    }
  }

  groupsFor(item: string): RecipeGroup[] {
    return this.groups.get(item) ?? []
  }
  concreteFor(item: string): ConcreteRecipe[] {
    return this.concrete.get(item) ?? []
  }

  /** The concrete recipe of `item` whose per-craft ingredients equal `perCraft` exactly, if any. */
  match(item: string, perCraft: Record<string, number>): ConcreteRecipe | null {
    const keys = Object.keys(perCraft).sort()
    for (const r of this.concreteFor(item)) {
      const rk = Object.keys(r.ingredients).sort()
      if (rk.length === keys.length && rk.every((k, i) => k === keys[i] && r.ingredients[k] === perCraft[k])) return r
    }
    return null
  }
}
