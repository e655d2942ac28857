/**
 * Crafting-recipe matching for the server's crafting grids (2×2 inventory grid and 3×3 crafting table), built from
 * minecraft-data's `recipes` for the server's version (every shaped and shapeless recipe; 2,409 for 1.20.2).
 * minecraft-data expands tag ingredients into one recipe per variant (11 crafting_table recipes, one per plank), so
 * shaped recipes with the same result, count and shape are merged cell by cell into sets of accepted items — oak
 * and spruce planks can be mixed as in vanilla. A shaped recipe matches anywhere in the grid and mirrored
 * left-right; a shapeless one matches the multiset of grid items. Vanilla crafting remainders (buckets, bottles)
 * are returned per cell. Pure functions over a registry: no server state.
 */

export interface GridItem {
  type: number
}
export interface CraftResult {
  id: number
  count: number
}
export interface CraftMatch {
  result: CraftResult
  remainders: Array<number | null>
}

interface RawRecipe {
  inShape?: Array<Array<number | null>>
  ingredients?: number[]
  result: { id: number; count: number }
}
interface Shaped {
  w: number
  h: number
  cells: Array<Set<number> | null>
  filled: number
  result: CraftResult
}
interface Shapeless {
  items: number[]
  result: CraftResult
}

/** Registry items whose crafting remainder is another item (vanilla Item.craftingRemainingItem). */
const REMAINDERS: Record<string, string> = {
  milk_bucket: 'bucket',
  water_bucket: 'bucket',
  lava_bucket: 'bucket',
  powder_snow_bucket: 'bucket',
  honey_bottle: 'glass_bottle',
  dragon_breath: 'glass_bottle',
}

export interface RecipeRegistry {
  recipes: Record<string, RawRecipe[]>
  itemsByName: Record<string, { id: number } | undefined>
}

function trimShape(shape: Array<Array<number | null>>): { w: number; h: number; cells: Array<number | null> } {
  const h0 = shape.length
  const w0 = Math.max(...shape.map((r) => r.length))
  const at = (x: number, y: number): number | null => shape[y]?.[x] ?? null
  let minX = w0,
    minY = h0,
    maxX = -1,
    maxY = -1
  for (let y = 0; y < h0; y++)
    for (let x = 0; x < w0; x++)
      if (at(x, y) !== null) {
        minX = Math.min(minX, x)
        maxX = Math.max(maxX, x)
        minY = Math.min(minY, y)
        maxY = Math.max(maxY, y)
      }
  const w = maxX - minX + 1,
    h = maxY - minY + 1
  const cells: Array<number | null> = []
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) cells.push(at(minX + x, minY + y))
  return { w, h, cells }
}

export class RecipeBook {
  private readonly shaped: Shaped[] = []
  private readonly shapeless: Shapeless[] = []
  private readonly remainders = new Map<number, number>()

  constructor(registry: RecipeRegistry) {
    const merged = new Map<string, Shaped>()
    for (const list of Object.values(registry.recipes)) {
      for (const r of list) {
        const result = { id: r.result.id, count: r.result.count ?? 1 }
        if (r.inShape) {
          const t = trimShape(r.inShape)
          if (t.w <= 0 || t.h <= 0) continue
          const key = `${result.id}:${result.count}:${t.w}x${t.h}:${t.cells.map((c) => (c === null ? '_' : 'X')).join('')}`
          let s = merged.get(key)
          if (!s) {
            s = {
              w: t.w,
              h: t.h,
              cells: t.cells.map((c) => (c === null ? null : new Set<number>())),
              filled: t.cells.filter((c) => c !== null).length,
              result,
            }
            merged.set(key, s)
          }
          t.cells.forEach((c, i) => {
            if (c !== null) s!.cells[i]!.add(c)
          })
        } else if (r.ingredients && r.ingredients.length > 0) {
          this.shapeless.push({ items: [...r.ingredients].sort((a, b) => a - b), result })
        }
      }
    }
    this.shaped.push(...merged.values())
    for (const [from, to] of Object.entries(REMAINDERS)) {
      const a = registry.itemsByName[from]?.id,
        b = registry.itemsByName[to]?.id
      if (a !== undefined && b !== undefined) this.remainders.set(a, b)
    }
  }

  get size(): number {
    return this.shaped.length + this.shapeless.length
  }

  /** Match a `width`×`height` grid (row-major, null = empty). */
  match(grid: Array<GridItem | null>, width: number, height: number): CraftMatch | null {
    let minX = width,
      minY = height,
      maxX = -1,
      maxY = -1,
      filled = 0
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        if (!grid[y * width + x]) continue
        filled++
        minX = Math.min(minX, x)
        maxX = Math.max(maxX, x)
        minY = Math.min(minY, y)
        maxY = Math.max(maxY, y)
      }
    if (filled === 0) return null
    const w = maxX - minX + 1,
      h = maxY - minY + 1
    const cell = (x: number, y: number): number | null => grid[(minY + y) * width + minX + x]?.type ?? null
    const remainders = grid.map((g) => (g ? (this.remainders.get(g.type) ?? null) : null))
    for (const r of this.shaped) {
      if (r.w !== w || r.h !== h || r.filled !== filled) continue
      for (const mirror of [false, true]) {
        let ok = true
        for (let y = 0; y < h && ok; y++)
          for (let x = 0; x < w && ok; x++) {
            const want = r.cells[y * w + (mirror ? w - 1 - x : x)] ?? null
            const have = cell(x, y)
            ok = want === null ? have === null : have !== null && want.has(have)
          }
        if (ok) return { result: r.result, remainders }
      }
    }
    const items = grid
      .filter((g): g is GridItem => !!g)
      .map((g) => g.type)
      .sort((a, b) => a - b)
    for (const r of this.shapeless) {
      if (r.items.length !== items.length) continue
      if (r.items.every((t, i) => t === items[i])) return { result: r.result, remainders }
    }
    return null
  }
}

const books = new WeakMap<object, RecipeBook>()
/** One RecipeBook per registry (built on first use, ~20 ms). */
export function recipeBook(registry: RecipeRegistry): RecipeBook {
  let b = books.get(registry)
  if (!b) {
    b = new RecipeBook(registry)
    books.set(registry, b)
  }
  return b
}
