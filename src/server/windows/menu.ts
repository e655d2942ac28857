/**
 * Server-side container menus, after vanilla 1.20.2's AbstractContainerMenu: a menu is a list of slots (container
 * slots first, then the 27 main-inventory and 9 hotbar slots of the player, as the protocol numbers them), window
 * properties (furnace progress), and the click engine — PICKUP (mode 0), QUICK_MOVE (1, shift), SWAP (2, number
 * keys), CLONE (3), THROW (4), QUICK_CRAFT (5, drag; its state machine is quick-craft.ts) and PICKUP_ALL (6, double
 * click) — with vanilla's safeInsert / tryRemove / moveItemStackTo rules. Slots (slot.ts) are accessors over storage
 * owned elsewhere (the player inventory, a chest, a furnace, a crafting grid); result slots (crafting output) take the
 * whole stack and call `onTake`. Network sync lives in session.ts; this file only changes state.
 */
import { QuickCraft } from './quick-craft.js'
import { Slot, type SlotSpec } from './slot.js'
import { countOf, isEmpty, maxStackOf, sameItem, type Stack, type Stacks } from './stack.js'

/** What a menu needs from the player it belongs to. */
export interface MenuOwner {
  stacks: Stacks
  creative(): boolean
  /** Inventory slot (window-0 numbering) for a SWAP button: 0-8 → hotbar 36-44, 40 → offhand 45. */
  getSwapSlot(button: number): Stack | null
  setSwapSlot(button: number, item: Stack | null): void
  /** Add to the player inventory the vanilla way; returns what did not fit. */
  addToInventory(item: Stack): Stack | null
  drop(item: Stack): void
}

export abstract class Menu {
  windowId = 0
  stateId = 0
  carried: Stack | null = null
  /** What we believe the client shows (vanilla "remote" state). */
  remoteSlots: Array<Stack | null> = []
  remoteCarried: Stack | null = null
  remoteData: number[] = []
  /** Slots sent after every click even when unchanged (vanilla always resends the crafting result). */
  readonly forceSend = new Set<number>()
  slots: Slot[] = []
  /** The QUICK_CRAFT (drag) in progress, if any. */
  private readonly drag = new QuickCraft()

  constructor(
    readonly owner: MenuOwner,
    readonly type: string,
    readonly title: string,
  ) {}

  get stacks(): Stacks {
    return this.owner.stacks
  }
  incrementStateId(): number {
    this.stateId = (this.stateId + 1) & 32767
    return this.stateId
  }
  addSlot(spec: SlotSpec): Slot {
    const s = new Slot(this.slots.length, spec)
    this.slots.push(s)
    return s
  }

  /** Current window properties (vanilla ContainerData, e.g. furnace progress), sent with craft_progress_bar. */
  readData(): number[] {
    return []
  }

  /** Vanilla quickMoveStack: move what is in `index` once; returns the stack before the move, or null. */
  abstract quickMoveStack(index: number): Stack | null
  /** Called when the menu closes (return crafting grids etc.). The carried stack is handled by the session. */
  removed(): void {}
  /** Vanilla stillValid (block still there and in reach). */
  async stillValid(): Promise<boolean> {
    return true
  }

  isValidSlot(index: number): boolean {
    return index === -999 || index === -1 || (index >= 0 && index < this.slots.length)
  }

  // --- vanilla slot primitives -------------------------------------------------------------------------------
  /** Put up to `n` of `stack` into the slot; returns what is left of `stack`. */
  safeInsert(slot: Slot, stack: Stack | null, n: number): Stack | null {
    if (isEmpty(stack) || !slot.mayPlace(stack)) return stack
    const cur = slot.item
    const room = slot.maxFor(stack) - countOf(cur)
    const k = Math.min(n, countOf(stack), room)
    if (k <= 0) return stack
    if (!cur) slot.set(this.stacks.withCount(stack, k))
    else if (sameItem(cur, stack)) slot.set(this.stacks.withCount(cur, countOf(cur) + k))
    else return stack
    return this.stacks.withCount(stack, countOf(stack) - k)
  }

  /** Take up to `n` (at most `limit`) from the slot; result slots give all or nothing. */
  tryRemove(slot: Slot, n: number, limit: number): Stack | null {
    const cur = slot.item
    if (!cur || !slot.mayPickup()) return null
    if (!slot.allowModification() && limit < countOf(cur)) return null
    const k = slot.wholeStack ? countOf(cur) : Math.min(n, limit, countOf(cur))
    if (k <= 0) return null
    slot.set(this.stacks.withCount(cur, countOf(cur) - k))
    return this.stacks.withCount(cur, k)
  }

  safeTake(slot: Slot, n: number, limit: number): Stack | null {
    const taken = this.tryRemove(slot, n, limit)
    if (taken) slot.onTake(taken)
    return taken
  }

  /** Vanilla moveItemStackTo: merge into stacks of [start, end) then the first empty slot. Returns [moved?, rest]. */
  moveItemStackTo(stack: Stack, start: number, end: number, reverse: boolean): [boolean, Stack | null] {
    let rest: Stack | null = stack
    let moved = false
    const order = (): number[] => {
      const a: number[] = []
      for (let i = start; i < end; i++) a.push(i)
      return reverse ? a.reverse() : a
    }
    if (maxStackOf(stack) > 1) {
      for (const i of order()) {
        if (isEmpty(rest)) break
        const slot = this.slots[i]!
        const cur = slot.item
        if (!cur || !sameItem(cur, rest)) continue
        const max = slot.maxFor(cur)
        const total = countOf(cur) + countOf(rest)
        if (total <= max) {
          slot.set(this.stacks.withCount(cur, total))
          rest = null
          moved = true
        } else if (countOf(cur) < max) {
          rest = this.stacks.withCount(rest, total - max)
          slot.set(this.stacks.withCount(cur, max))
          moved = true
        }
      }
    }
    if (!isEmpty(rest)) {
      for (const i of order()) {
        const slot = this.slots[i]!
        if (slot.item || !slot.mayPlace(rest)) continue
        const k = Math.min(countOf(rest), slot.maxFor(rest))
        slot.set(this.stacks.withCount(rest, k))
        rest = this.stacks.withCount(rest, countOf(rest) - k)
        moved = true
        break
      }
    }
    return [moved, rest]
  }

  /** How many of `stack` fit into [start, end) (merging and empty slots). */
  roomFor(stack: Stack, start: number, end: number): number {
    let room = 0
    for (let i = start; i < end; i++) {
      const slot = this.slots[i]!
      const cur = slot.item
      if (!cur) {
        if (slot.mayPlace(stack)) room += slot.maxFor(stack)
      } else if (sameItem(cur, stack)) room += Math.max(0, slot.maxFor(cur) - countOf(cur))
    }
    return room
  }

  /** Shared quick-move tail: move the slot's stack with `route` (returns the rest) and apply vanilla's bookkeeping. */
  protected quickMoveWith(index: number, route: (stack: Stack) => Stack | null | false): Stack | null {
    const slot = this.slots[index]
    const original = slot?.item
    if (!slot || !original) return null
    const rest = route(original)
    if (rest === false) return null
    if (countOf(rest) === countOf(original)) return null
    slot.set(rest)
    slot.onTake(this.stacks.withCount(original, countOf(original) - countOf(rest))!)
    return original
  }

  // --- the click engine ---------------------------------------------------------------------------------------
  clicked(slotId: number, button: number, mode: number): void {
    if (mode === 5) {
      this.drag.click(this, slotId, button)
      return
    }
    if (this.drag.active) {
      this.drag.reset()
      return
    }
    if ((mode === 0 || mode === 1) && (button === 0 || button === 1)) {
      if (slotId === -999) {
        if (this.carried) {
          if (button === 0) {
            this.owner.drop(this.carried)
            this.carried = null
          } else {
            this.owner.drop(this.stacks.withCount(this.carried, 1)!)
            this.carried = this.stacks.withCount(this.carried, countOf(this.carried) - 1)
          }
        }
      } else if (mode === 1) {
        if (slotId < 0) return
        const slot = this.slots[slotId]!
        if (!slot.mayPickup()) return
        for (let guard = 0; guard < 100; guard++) {
          const moved = this.quickMoveStack(slotId)
          if (!moved || !sameItem(slot.item, moved)) break
        }
      } else if (slotId >= 0) this.pickup(this.slots[slotId]!, button)
    } else if (mode === 2 && slotId >= 0) this.swap(this.slots[slotId]!, button)
    else if (mode === 3 && this.owner.creative() && !this.carried && slotId >= 0) {
      const it = this.slots[slotId]!.item
      if (it) this.carried = this.stacks.withCount(it, maxStackOf(it))
    } else if (mode === 4 && !this.carried && slotId >= 0) {
      const slot = this.slots[slotId]!
      const taken = this.safeTake(slot, button === 0 ? 1 : countOf(slot.item), Number.MAX_SAFE_INTEGER)
      if (taken) this.owner.drop(taken)
    } else if (mode === 6 && slotId >= 0) this.pickupAll(this.slots[slotId]!, button)
  }

  private pickup(slot: Slot, button: number): void {
    const item = slot.item
    const carried = this.carried
    if (!item) {
      if (carried) this.carried = this.safeInsert(slot, carried, button === 0 ? countOf(carried) : 1)
      return
    }
    if (!slot.mayPickup()) return
    if (!carried) {
      const n = button === 0 ? countOf(item) : Math.floor((countOf(item) + 1) / 2)
      const taken = this.tryRemove(slot, n, Number.MAX_SAFE_INTEGER)
      if (taken) {
        this.carried = taken
        slot.onTake(taken)
      }
    } else if (slot.mayPlace(carried)) {
      if (sameItem(item, carried)) this.carried = this.safeInsert(slot, carried, button === 0 ? countOf(carried) : 1)
      else if (countOf(carried) <= slot.maxFor(carried)) {
        slot.set(carried)
        this.carried = item
      }
    } else if (sameItem(item, carried)) {
      const taken = this.tryRemove(slot, countOf(item), maxStackOf(carried) - countOf(carried))
      if (taken) {
        this.carried = this.stacks.withCount(carried, countOf(carried) + countOf(taken))
        slot.onTake(taken)
      }
    }
  }

  private swap(slot: Slot, button: number): void {
    if (!(button >= 0 && button <= 8) && button !== 40) return
    const inv = this.owner.getSwapSlot(button)
    const here = slot.item
    if (!inv && !here) return
    if (!inv) {
      if (slot.mayPickup() && here) {
        this.owner.setSwapSlot(button, here)
        slot.set(null)
        slot.onTake(here)
      }
    } else if (!here) {
      if (slot.mayPlace(inv)) {
        const max = slot.maxFor(inv)
        if (countOf(inv) > max) {
          slot.set(this.stacks.withCount(inv, max))
          this.owner.setSwapSlot(button, this.stacks.withCount(inv, countOf(inv) - max))
        } else {
          this.owner.setSwapSlot(button, null)
          slot.set(inv)
        }
      }
    } else if (slot.mayPickup() && slot.mayPlace(inv)) {
      const max = slot.maxFor(inv)
      if (countOf(inv) > max) {
        slot.set(this.stacks.withCount(inv, max))
        this.owner.setSwapSlot(button, this.stacks.withCount(inv, countOf(inv) - max))
        slot.onTake(here)
        const left = this.owner.addToInventory(here)
        if (left) this.owner.drop(left)
      } else {
        this.owner.setSwapSlot(button, here)
        slot.set(inv)
        slot.onTake(here)
      }
    }
  }

  private pickupAll(clicked: Slot, button: number): void {
    let carried = this.carried
    if (!carried || (clicked.item && clicked.mayPickup())) return
    const n = this.slots.length
    for (let pass = 0; pass < 2; pass++) {
      for (
        let k = button === 0 ? 0 : n - 1;
        k >= 0 && k < n && countOf(carried) < maxStackOf(carried!);
        k += button === 0 ? 1 : -1
      ) {
        const s = this.slots[k]!
        const it = s.item
        if (!it || !sameItem(it, carried) || !s.mayPickup() || s.wholeStack) continue
        if (pass === 0 && countOf(it) === maxStackOf(it)) continue
        const taken = this.safeTake(s, countOf(it), maxStackOf(carried!) - countOf(carried))
        if (taken) carried = this.stacks.withCount(carried!, countOf(carried) + countOf(taken))
      }
    }
    this.carried = carried
  }
}
