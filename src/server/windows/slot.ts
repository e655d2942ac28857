/**
 * One slot of a server-side container menu, after vanilla's Slot: an accessor over storage owned elsewhere (the
 * player inventory, a chest, a furnace, a crafting grid) given as a `SlotSpec`, with vanilla's mayPlace / mayPickup /
 * allowModification rules, the container limit, and the crafting result's take-the-whole-stack and `onTake` hooks.
 * An empty stack is stored and read as null. The click engine that moves items between slots lives in menu.ts.
 */
import { isEmpty, maxStackOf, type Stack } from './stack.js'

export interface SlotSpec {
  get(): Stack | null
  set(item: Stack | null): void
  /** Vanilla mayPlace; default true. */
  mayPlace?(item: Stack): boolean
  /** Vanilla mayPickup; default true. */
  mayPickup?(): boolean
  /** Container limit (64 for everything here). */
  limit?: number
  /** Crafting result: removing always takes the whole stack (vanilla ResultContainer). */
  wholeStack?: boolean
  /** Called after the player took `taken` out of this slot (crafting consumes its ingredients here). */
  onTake?(taken: Stack): void
}

export class Slot {
  constructor(
    readonly index: number,
    private readonly spec: SlotSpec,
  ) {}
  get item(): Stack | null {
    const s = this.spec.get()
    return isEmpty(s) ? null : s
  }
  set(item: Stack | null): void {
    this.spec.set(isEmpty(item) ? null : item)
  }
  mayPlace(item: Stack): boolean {
    return this.spec.mayPlace ? this.spec.mayPlace(item) : true
  }
  mayPickup(): boolean {
    return this.spec.mayPickup ? this.spec.mayPickup() : true
  }
  maxFor(item: Stack): number {
    return Math.min(this.spec.limit ?? 64, maxStackOf(item))
  }
  get wholeStack(): boolean {
    return this.spec.wholeStack === true
  }
  onTake(taken: Stack): void {
    this.spec.onTake?.(taken)
  }
  /** Vanilla allowModification: result slots cannot be partially taken. */
  allowModification(): boolean {
    const it = this.item
    return this.mayPickup() && (!it || this.mayPlace(it))
  }
}
