/**
 * Shared item helpers for our server plugins: adding items to a player's inventory the vanilla way (fill existing
 * stacks up to the item's stack size, hotbar first, then free slots, spilling into as many slots as needed),
 * removing items, and spawning dropped-item entities through the drops plugin's `spawnItemDrop`
 * (src/server/plugins/drops-items.ts), which owns item-entity metadata and pickup.
 */
import { Vec3 } from 'vec3'
import type { SquidEntity, SquidItem, SquidPlayer, SquidServer, SquidWorld } from './squid.js'
import { spawnItemDrop } from './plugins/drops-items.js'
import { itemApi, setDamage, type Stack } from './windows/stack.js'

/** Window slot ids of the player inventory in vanilla's insertion order: hotbar (36..44) then main (9..35). */
export const STORAGE_SLOTS: number[] = [
  ...Array.from({ length: 9 }, (_, i) => 36 + i),
  ...Array.from({ length: 27 }, (_, i) => 9 + i),
]
/** Every slot whose content is dropped on death: armour 5..8, main 9..35, hotbar 36..44, offhand 45. */
export const ALL_SLOTS: number[] = Array.from({ length: 41 }, (_, i) => 5 + i)

interface InventoryWindow {
  slots: Array<SquidItem | null | undefined>
  updateSlot(slot: number, item: SquidItem | null): void
}
type ItemCtor = new (type: number, count: number, metadata?: number, nbt?: unknown) => SquidItem

/** prismarine-item's Item class for the server's registry (one loader, shared with the window code). */
export function itemClass(serv: SquidServer): ItemCtor {
  return itemApi(serv) as unknown as ItemCtor
}

export function inventory(player: SquidPlayer): InventoryWindow {
  return player.inventory as unknown as InventoryWindow
}

export function stackSizeOf(serv: SquidServer, type: number): number {
  return (serv.registry.items[type]?.stackSize as number | undefined) ?? 64
}

/** Add `count` items of `type` the vanilla way (`damage`: uses already worn off each); returns how many did not fit. */
export function addItems(serv: SquidServer, player: SquidPlayer, type: number, count: number, damage = 0): number {
  const inv = inventory(player)
  const max = stackSizeOf(serv, type)
  const Item = itemClass(serv)
  let left = Math.max(0, Math.floor(count))
  for (const slot of STORAGE_SLOTS) {
    if (left <= 0) break
    const it = inv.slots[slot]
    if (!it || it.type !== type || it.nbt) continue
    const have = Number(it.count)
    if (have >= max) continue
    const add = Math.min(max - have, left)
    inv.updateSlot(slot, new Item(type, have + add, it.metadata ?? 0))
    left -= add
  }
  for (const slot of STORAGE_SLOTS) {
    if (left <= 0) break
    if (inv.slots[slot]) continue
    const add = Math.min(max, left)
    const item = new Item(type, add) as Stack
    if (damage > 0) setDamage(item, damage)
    inv.updateSlot(slot, item)
    left -= add
  }
  return left
}

/** Remove up to `max` items (all when undefined) matching `type` (any when undefined); returns how many went. */
export function removeItems(player: SquidPlayer, type?: number, max?: number): number {
  const inv = inventory(player)
  let removed = 0
  for (const slot of ALL_SLOTS) {
    if (max !== undefined && removed >= max) break
    const it = inv.slots[slot]
    if (!it || (type !== undefined && it.type !== type)) continue
    const have = Number(it.count)
    const take = max === undefined ? have : Math.min(have, max - removed)
    removed += take
    if (take >= have) inv.updateSlot(slot, null)
    else {
      it.count = have - take
      inv.updateSlot(slot, it)
    }
  }
  return removed
}

/** Replace one unit of the item in `slot` by `replacement` (e.g. bucket → milk_bucket), vanilla style. */
export function exchangeOne(serv: SquidServer, player: SquidPlayer, slot: number, replacement: number): void {
  const inv = inventory(player)
  const it = inv.slots[slot]
  if (!it) return
  const Item = itemClass(serv)
  if (Number(it.count) <= 1) {
    inv.updateSlot(slot, new Item(replacement, 1))
    return
  }
  it.count = Number(it.count) - 1
  inv.updateSlot(slot, it)
  const left = addItems(serv, player, replacement, 1)
  if (left > 0) spawnItemEntity(serv, player.world, player.position.offset(0, 1, 0), replacement, 1)
}

/**
 * Spawn a dropped-item entity (one entity holding `count` items) with a small random pop velocity (blocks/s), via
 * the drops plugin's `spawnItemDrop` so there is one implementation of item entities (metadata, counted pickup).
 */
export function spawnItemEntity(
  serv: SquidServer,
  world: unknown,
  position: Vec3,
  itemId: number,
  count: number,
  velocity?: Vec3,
  pickupDelayMs?: number,
): SquidEntity | undefined {
  const vel = velocity ?? new Vec3((Math.random() - 0.5) * 2, 3 + Math.random() * 1.5, (Math.random() - 0.5) * 2)
  try {
    return spawnItemDrop(
      serv,
      world as SquidWorld,
      position.clone(),
      itemId,
      count,
      pickupDelayMs === undefined ? { velocity: vel } : { velocity: vel, pickupDelayMs },
    )
  } catch {
    return undefined // flying-squid refuses entities past its max-entities: the items are lost, the server lives
  }
}
