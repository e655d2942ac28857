/**
 * Armour, as vanilla computes it: the armour points and toughness of what a player wears (inventory slots 5–8)
 * reduce damage from attacks, lava, fire and the like by min(20, max(armour / 5, armour − 4·damage / (toughness + 8)))
 * / 25; damage types in vanilla's `bypasses_armor` tag (fall, drowning, suffocation, starvation, burning, /kill ...)
 * are not reduced. Used by the health plugin's `hurtPlayer`; armour durability is not modelled.
 */
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid.js'
import { inventory } from '../items.js'

const ARMOR: Record<string, [points: number, toughness: number]> = {
  leather_helmet: [1, 0],
  leather_chestplate: [3, 0],
  leather_leggings: [2, 0],
  leather_boots: [1, 0],
  chainmail_helmet: [2, 0],
  chainmail_chestplate: [5, 0],
  chainmail_leggings: [4, 0],
  chainmail_boots: [1, 0],
  iron_helmet: [2, 0],
  iron_chestplate: [6, 0],
  iron_leggings: [5, 0],
  iron_boots: [2, 0],
  golden_helmet: [2, 0],
  golden_chestplate: [5, 0],
  golden_leggings: [3, 0],
  golden_boots: [1, 0],
  diamond_helmet: [3, 2],
  diamond_chestplate: [8, 2],
  diamond_leggings: [6, 2],
  diamond_boots: [3, 2],
  netherite_helmet: [3, 3],
  netherite_chestplate: [8, 3],
  netherite_leggings: [6, 3],
  netherite_boots: [3, 3],
  turtle_helmet: [2, 0],
}
const BYPASSES_ARMOR = new Set([
  'fall',
  'drown',
  'in_wall',
  'starve',
  'on_fire',
  'generic',
  'generic_kill',
  'magic',
  'out_of_world',
  'freeze',
])

/** Armour points and toughness worn by the player. */
export function armorOf(serv: SquidServer, player: SquidPlayer): { points: number; toughness: number } {
  let points = 0
  let toughness = 0
  for (const slot of [5, 6, 7, 8]) {
    const it = inventory(player).slots[slot]
    const name = it ? (serv.registry.items[it.type] as { name: string } | undefined)?.name : undefined
    const a = name ? ARMOR[name] : undefined
    if (a) {
      points += a[0]
      toughness += a[1]
    }
  }
  return { points, toughness }
}

/** Damage after armour for a vanilla damage type name. */
export function afterArmor(serv: SquidServer, player: SquidPlayer, damage: number, cause: string): number {
  if (BYPASSES_ARMOR.has(cause)) return damage
  const { points, toughness } = armorOf(serv, player)
  if (points <= 0) return damage
  const effective = Math.min(20, Math.max(points / 5, points - (4 * damage) / (toughness + 8)))
  return damage * (1 - effective / 25)
}

const plugin: SquidPlugin = { name: 'combat-armor' }
export default plugin
