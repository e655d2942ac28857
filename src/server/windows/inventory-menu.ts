/**
 * The player's own inventory menu (window 0), after vanilla InventoryMenu: slot 0 the 2×2 crafting result, 1-4 the
 * crafting grid, 5-8 armour (head → feet), 9-35 main, 36-44 hotbar, 45 offhand — exactly flying-squid's
 * `player.inventory` window, which stays the one store of the player's items (other plugins keep using it).
 * Also the player-inventory slot factory every container menu appends after its own slots, and vanilla's
 * shift-click routing for this menu.
 */
import { CraftingGrid } from './crafting-grid.js'
import { Menu, type MenuOwner } from './menu.js'
import type { SlotSpec } from './slot.js'
import type { Stack } from './stack.js'

export interface InventoryStore {
  slots: Array<Stack | null | undefined>
  updateSlot(slot: number, item: Stack | null): void
}

/** Armour slot (5 head … 8 feet) an item goes to, or 45 for the offhand-only shield, else null. */
export function equipmentSlotFor(name: string): number | null {
  if (name.endsWith('_helmet') || name === 'carved_pumpkin' || name.endsWith('_head') || name.endsWith('_skull'))
    return 5
  if (name.endsWith('_chestplate') || name === 'elytra') return 6
  if (name.endsWith('_leggings')) return 7
  if (name.endsWith('_boots')) return 8
  if (name === 'shield') return 45
  return null
}

export function inventorySlot(inv: InventoryStore, index: number, extra: Partial<SlotSpec> = {}): SlotSpec {
  return { get: () => inv.slots[index] ?? null, set: (item) => inv.updateSlot(index, item), ...extra }
}

/** Add the 27 main + 9 hotbar player slots (window-0 slots 9..44) to a container menu. */
export function addPlayerSlots(menu: Menu, inv: InventoryStore): void {
  for (let i = 9; i <= 44; i++) menu.addSlot(inventorySlot(inv, i))
}

export class InventoryMenu extends Menu {
  readonly grid: CraftingGrid

  constructor(
    owner: MenuOwner,
    readonly inv: InventoryStore,
  ) {
    super(owner, 'minecraft:inventory', 'Inventory')
    this.grid = new CraftingGrid(
      this,
      2,
      2,
      { get: (i) => inv.slots[1 + i] ?? null, set: (i, item) => inv.updateSlot(1 + i, item) },
      {
        get: () => inv.slots[0] ?? null,
        set: (item) => {
          if (!sameRef(inv.slots[0], item)) inv.updateSlot(0, item)
        },
      },
    )
    for (let s = 5; s <= 8; s++) {
      this.addSlot(inventorySlot(inv, s, { limit: 1, mayPlace: (item) => equipmentSlotFor(item.name) === s }))
    }
    for (let i = 9; i <= 44; i++) this.addSlot(inventorySlot(inv, i))
    this.addSlot(inventorySlot(inv, 45))
  }

  override quickMoveStack(index: number): Stack | null {
    if (index === 0) return this.grid.quickMoveResult(9, 45)
    return this.quickMoveWith(index, (stack) => {
      const equip = equipmentSlotFor(stack.name)
      if (index >= 1 && index < 9) return this.moveItemStackTo(stack, 9, 45, false)[1]
      if (equip !== null && equip !== 45 && !this.slots[equip]!.item)
        return this.moveItemStackTo(stack, equip, equip + 1, false)[1]
      if (equip === 45 && !this.slots[45]!.item) return this.moveItemStackTo(stack, 45, 46, false)[1]
      if (index >= 9 && index < 36) return this.moveItemStackTo(stack, 36, 45, false)[1]
      if (index >= 36 && index < 45) return this.moveItemStackTo(stack, 9, 36, false)[1]
      return this.moveItemStackTo(stack, 9, 45, false)[1]
    })
  }

  /** Vanilla InventoryMenu.removed: the 2×2 grid goes back into the inventory. */
  override removed(): void {
    for (const it of this.grid.takeAll()) {
      const rest = this.owner.addToInventory(it)
      if (rest) this.owner.drop(rest)
    }
  }
}

function sameRef(a: Stack | null | undefined, b: Stack | null): boolean {
  return (a ?? null) === b
}
