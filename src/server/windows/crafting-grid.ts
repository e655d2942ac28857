/**
 * A crafting grid inside a menu: adds the result slot and the width×height grid slots (result first, then the grid
 * row by row, as both the player inventory and the crafting table number them), recomputes the result from the
 * RecipeBook whenever a grid slot changes, and on taking the result consumes one item per filled cell, leaving
 * crafting remainders (buckets, bottles) in place or in the inventory. Vanilla always resends the result slot after
 * a grid change and mineflayer waits for exactly that packet, so the result slot is marked `forceSend`.
 * Shift-clicking the result crafts repeatedly while the whole result fits in the inventory.
 */
import type { Menu } from './menu.js'
import { recipeBook, type RecipeBook, type RecipeRegistry } from './recipes.js'
import { countOf, sameItem, type Stack } from './stack.js'

export interface CellStore {
  get(i: number): Stack | null
  set(i: number, item: Stack | null): void
}

export class CraftingGrid {
  readonly resultIndex: number
  readonly firstCell: number
  private readonly book: RecipeBook
  private result: Stack | null = null

  constructor(
    private readonly menu: Menu,
    readonly width: number,
    readonly height: number,
    private readonly cells: CellStore,
    private readonly resultStore?: { get(): Stack | null; set(item: Stack | null): void },
  ) {
    this.book = recipeBook(menu.stacks.serv.registry as unknown as RecipeRegistry)
    this.resultIndex = menu.addSlot({
      get: () => (this.resultStore ? this.resultStore.get() : this.result),
      set: (item) => this.setResult(item),
      mayPlace: () => false,
      wholeStack: true,
      onTake: () => this.consume(),
    }).index
    this.firstCell = this.menu.slots.length
    for (let i = 0; i < width * height; i++) {
      menu.addSlot({
        get: () => this.cells.get(i),
        set: (item) => {
          this.cells.set(i, item)
          this.recompute()
        },
      })
    }
  }

  private setResult(item: Stack | null): void {
    if (this.resultStore) this.resultStore.set(item)
    else this.result = item
  }

  private grid(): Array<Stack | null> {
    return Array.from({ length: this.width * this.height }, (_, i) => this.cells.get(i))
  }

  /** Recompute the result slot from the grid (vanilla slotChangedCraftingGrid). */
  recompute(): void {
    const m = this.book.match(this.grid(), this.width, this.height)
    this.setResult(m ? this.menu.stacks.make(m.result.id, m.result.count) : null)
    this.menu.forceSend.add(this.resultIndex)
  }

  /** Vanilla ResultSlot.onTake: one of each ingredient goes, remainders stay in the grid or go to the inventory. */
  private consume(): void {
    const grid = this.grid()
    const m = this.book.match(grid, this.width, this.height)
    grid.forEach((item, i) => {
      if (!item) return
      const left = this.menu.stacks.withCount(item, countOf(item) - 1)
      const remId = m?.remainders[i] ?? null
      const rem = remId !== null ? this.menu.stacks.make(remId, 1) : null
      if (!rem) {
        this.cells.set(i, left)
        return
      }
      if (!left) this.cells.set(i, rem)
      else if (sameItem(left, rem)) this.cells.set(i, this.menu.stacks.withCount(left, countOf(left) + 1))
      else {
        this.cells.set(i, left)
        const rest = this.menu.owner.addToInventory(rem)
        if (rest) this.menu.owner.drop(rest)
      }
    })
    this.recompute()
  }

  /** Shift-click on the result: move one whole result into [start, end) (hotbar first) and craft it. */
  quickMoveResult(start: number, end: number): Stack | null {
    const slot = this.menu.slots[this.resultIndex]!
    const res = slot.item
    if (!res || this.menu.roomFor(res, start, end) < countOf(res)) return null
    slot.set(null)
    this.menu.moveItemStackTo(res, start, end, true)
    slot.onTake(res)
    return res
  }

  /** Everything left in the grid (for returning it when the menu closes); empties the grid. */
  takeAll(): Stack[] {
    const out: Stack[] = []
    for (let i = 0; i < this.width * this.height; i++) {
      const it = this.cells.get(i)
      if (it) {
        out.push(it)
        this.cells.set(i, null)
      }
    }
    this.recompute()
    return out
  }
}
