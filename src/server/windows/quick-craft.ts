/**
 * Vanilla's QUICK_CRAFT click (mode 5, dragging the carried stack across slots) as a small state machine a menu
 * owns: start (choosing the split — even, one each, or a full stack each in creative), add a slot per drag step, end
 * (spread the carried stack over the dragged slots, or treat a one-slot drag as a plain click). Any click that does
 * not fit the sequence resets it. It changes the menu's slots and carried stack only; menu.ts owns the other modes.
 */
import type { Menu } from './menu.js'
import type { Slot } from './slot.js'
import { countOf, maxStackOf, sameItem, type Stack } from './stack.js'

export class QuickCraft {
  /** 0 none, 1 dragging, 2 ending (vanilla quickcraftStatus). */
  private status = 0
  /** 0 split evenly, 1 one each, 2 a full stack each (creative only). */
  private type = 0
  private readonly dragged = new Set<Slot>()

  /** A drag is under way, so any other click cancels it. */
  get active(): boolean {
    return this.status !== 0
  }

  reset(): void {
    this.status = 0
    this.dragged.clear()
  }

  click(menu: Menu, slotId: number, button: number): void {
    const prev = this.status
    this.status = button & 3
    if ((prev !== 1 || this.status !== 2) && prev !== this.status) {
      this.reset()
      return
    }
    const carried = menu.carried
    if (!carried) {
      this.reset()
      return
    }
    if (this.status === 0) {
      this.type = (button >> 2) & 3
      if (this.type === 0 || this.type === 1 || (this.type === 2 && menu.owner.creative())) {
        this.status = 1
        this.dragged.clear()
      } else this.reset()
    } else if (this.status === 1) {
      const slot = menu.slots[slotId]
      if (slot && this.canDragInto(slot, carried) && (this.type === 2 || countOf(carried) > this.dragged.size))
        this.dragged.add(slot)
    } else if (this.status === 2) {
      const targets = [...this.dragged]
      this.reset()
      if (targets.length === 1) {
        menu.clicked(targets[0]!.index, this.type, 0)
        return
      }
      let left = countOf(carried)
      const per =
        this.type === 0 ? Math.floor(countOf(carried) / targets.length) : this.type === 1 ? 1 : maxStackOf(carried)
      for (const slot of targets) {
        if (!this.canDragInto(slot, carried) || (this.type !== 2 && left < 1)) continue
        const have = countOf(slot.item)
        const put = Math.min(per + have, slot.maxFor(carried))
        left -= put - have
        slot.set(menu.stacks.withCount(carried, put))
      }
      menu.carried = this.type === 2 ? carried : menu.stacks.withCount(carried, left)
    } else this.reset()
  }

  private canDragInto(slot: Slot, carried: Stack): boolean {
    const it = slot.item
    return (
      (!it || (sameItem(it, carried) && countOf(it) < slot.maxFor(it))) && slot.mayPlace(carried) && !slot.wholeStack
    )
  }
}
