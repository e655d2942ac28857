/**
 * The practice server's click engine without a server: the real player-inventory menu (src/server/windows) over an
 * in-memory 46-slot inventory and the real 1.20.2 registry, clicked the way a client's window_click packets do.
 * Covers the QUICK_CRAFT drag (spread evenly, one each, creative-only full stacks, a one-slot drag acting as a plain
 * click, merging up to the stack limit, another click cancelling a drag) and the slot rules (armour slots take only
 * their own piece, one at a time).
 */
import prismarineRegistry from 'prismarine-registry'
import { describe, expect, it } from 'vitest'
import type { SquidServer } from '../../../src/server/squid.js'
import { InventoryMenu, type InventoryStore } from '../../../src/server/windows/inventory-menu.js'
import type { MenuOwner } from '../../../src/server/windows/menu.js'
import { countOf, type Stack, Stacks } from '../../../src/server/windows/stack.js'

const registry = (prismarineRegistry as unknown as (v: string) => SquidServer['registry'])('1.20.2')
// Stacks reads only the server's registry.
const stacks = new Stacks({ registry } as unknown as SquidServer)

/** QUICK_CRAFT buttons: (drag type << 2) | step, step 0 start, 1 add a slot, 2 end. */
const dragButton = (type: number, step: number): number => (type << 2) | step
const QUICK_CRAFT = 5
const PICKUP = 0

function inventoryMenu(opts: { creative?: boolean } = {}) {
  const slots: Array<Stack | null> = Array.from({ length: 46 }, () => null)
  const dropped: Stack[] = []
  const inv: InventoryStore = {
    slots,
    updateSlot: (i, item) => {
      slots[i] = item
    },
  }
  const owner: MenuOwner = {
    stacks,
    creative: () => opts.creative === true,
    getSwapSlot: (b) => slots[b === 40 ? 45 : 36 + b] ?? null,
    setSwapSlot: (b, item) => {
      slots[b === 40 ? 45 : 36 + b] = item
    },
    addToInventory: (item) => item,
    drop: (item) => {
      dropped.push(item)
    },
  }
  const menu = new InventoryMenu(owner, inv)
  return { menu, slots, dropped }
}

/** Carry `count` of `name` on the cursor. */
function carry(menu: InventoryMenu, name: string, count: number): void {
  menu.carried = stacks.make(name, count)
}

function drag(menu: InventoryMenu, type: number, targets: number[]): void {
  menu.clicked(-999, dragButton(type, 0), QUICK_CRAFT)
  for (const t of targets) menu.clicked(t, dragButton(type, 1), QUICK_CRAFT)
  menu.clicked(-999, dragButton(type, 2), QUICK_CRAFT)
}

/** Items in the menu and on the cursor together (a drag never makes or loses items). */
const total = (menu: InventoryMenu, slots: Array<Stack | null>): number =>
  slots.reduce((n, s) => n + countOf(s), 0) + countOf(menu.carried)

describe('QUICK_CRAFT drag', () => {
  it('spreads the carried stack evenly and keeps the remainder on the cursor', () => {
    const { menu, slots } = inventoryMenu()
    carry(menu, 'dirt', 10)
    const targets = [9, 10, 11]
    drag(menu, 0, targets)
    const each = Math.floor(10 / targets.length)
    for (const t of targets) expect(countOf(slots[t])).toBe(each)
    expect(countOf(menu.carried)).toBe(10 - each * targets.length)
    expect(total(menu, slots)).toBe(10)
  })

  it('puts one in each slot with the right button', () => {
    const { menu, slots } = inventoryMenu()
    carry(menu, 'dirt', 10)
    drag(menu, 1, [9, 10, 11])
    expect([9, 10, 11].map((t) => countOf(slots[t]))).toEqual([1, 1, 1])
    expect(countOf(menu.carried)).toBe(7)
  })

  it('fills each slot with a full stack only in creative, keeping the cursor', () => {
    const survival = inventoryMenu()
    carry(survival.menu, 'dirt', 10)
    drag(survival.menu, 2, [9, 10])
    expect(countOf(survival.slots[9]) + countOf(survival.slots[10])).toBe(0)
    expect(countOf(survival.menu.carried)).toBe(10)

    const creative = inventoryMenu({ creative: true })
    carry(creative.menu, 'dirt', 10)
    drag(creative.menu, 2, [9, 10])
    const max = registry.itemsByName.dirt.stackSize as number
    expect([countOf(creative.slots[9]), countOf(creative.slots[10])]).toEqual([max, max])
    expect(countOf(creative.menu.carried)).toBe(10)
  })

  it('treats a one-slot drag as a plain click', () => {
    const { menu, slots } = inventoryMenu()
    carry(menu, 'dirt', 10)
    drag(menu, 0, [12])
    expect(countOf(slots[12])).toBe(10)
    expect(menu.carried).toBeNull()
  })

  it('merges into stacks of the same item up to the stack limit', () => {
    const { menu, slots } = inventoryMenu()
    const max = registry.itemsByName.dirt.stackSize as number
    slots[9] = stacks.make('dirt', max - 2)
    carry(menu, 'dirt', 10)
    drag(menu, 0, [9, 10])
    expect(countOf(slots[9])).toBe(max)
    expect(countOf(slots[10])).toBe(5)
    expect(total(menu, slots)).toBe(max - 2 + 10)
  })

  it('skips a slot holding another item', () => {
    const { menu, slots } = inventoryMenu()
    slots[10] = stacks.make('stone', 1)
    carry(menu, 'dirt', 10)
    drag(menu, 0, [9, 10, 11])
    expect(slots[10]?.name).toBe('stone')
    expect(countOf(slots[9])).toBe(5)
    expect(countOf(slots[11])).toBe(5)
  })

  it('is cancelled by another click in the middle, which itself does nothing', () => {
    const { menu, slots } = inventoryMenu()
    carry(menu, 'dirt', 10)
    menu.clicked(-999, dragButton(0, 0), QUICK_CRAFT)
    menu.clicked(9, dragButton(0, 1), QUICK_CRAFT)
    menu.clicked(10, 0, PICKUP)
    menu.clicked(-999, dragButton(0, 2), QUICK_CRAFT)
    expect(countOf(slots[9]) + countOf(slots[10])).toBe(0)
    expect(countOf(menu.carried)).toBe(10)
    // the next click is an ordinary one again
    menu.clicked(10, 0, PICKUP)
    expect(countOf(slots[10])).toBe(10)
  })
})

describe('slot rules', () => {
  it('an armour slot takes only its own piece, one at a time', () => {
    const { menu, slots } = inventoryMenu()
    carry(menu, 'dirt', 1)
    menu.clicked(5, 0, PICKUP)
    expect(slots[5]).toBeNull()
    carry(menu, 'leather_helmet', 1)
    menu.clicked(5, 0, PICKUP)
    expect(slots[5]?.name).toBe('leather_helmet')
    expect(menu.carried).toBeNull()
  })
})
