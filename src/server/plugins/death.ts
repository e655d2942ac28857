/**
 * Death drops: when a player dies (the health plugin's `practiceDeath` event) everything in their inventory —
 * armour, main inventory, hotbar and offhand — is dropped as item entities at the death spot with vanilla's random
 * scatter, and the slots are emptied (vanilla without keepInventory). Item entities come from the drops plugin, so
 * they carry correct 1.20.2 metadata and are picked up with their counts.
 */
import { Vec3 } from 'vec3'
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid.js'
import { ALL_SLOTS, inventory, spawnItemEntity } from '../items.js'

/** Vanilla: items a player drops can be picked up after 40 ticks. */
export const DEATH_DROP_PICKUP_DELAY_MS = 2000

/** Drop the whole inventory of `player` at `at`; returns the number of item stacks dropped. */
export function dropInventory(serv: SquidServer, player: SquidPlayer, at: Vec3): number {
  const inv = inventory(player)
  let stacks = 0
  for (const slot of ALL_SLOTS) {
    const it = inv.slots[slot]
    if (!it || Number(it.count) <= 0) continue
    // vanilla: random horizontal push up to 0.5 blocks/tick (10 blocks/s) scaled down, small hop
    const angle = Math.random() * Math.PI * 2
    const speed = Math.random() * 2
    const velocity = new Vec3(Math.cos(angle) * speed, 4, Math.sin(angle) * speed)
    spawnItemEntity(
      serv,
      player.world,
      at.offset(0, 1.3, 0),
      it.type,
      Number(it.count),
      velocity,
      DEATH_DROP_PICKUP_DELAY_MS,
    )
    inv.updateSlot(slot, null)
    stacks++
  }
  return stacks
}

const plugin: SquidPlugin = {
  name: 'death',
  player(player, serv) {
    player.on('practiceDeath', () => {
      dropInventory(serv, player, player.position.clone())
    })
  },
}
export default plugin
