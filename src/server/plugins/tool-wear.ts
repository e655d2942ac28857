/**
 * Tool wear, as vanilla: an item with a durability (registry `maxDurability`) held in the main hand by a survival
 * player loses uses — 1 per block of hardness > 0 broken with a pickaxe, axe, shovel, hoe or shears, 2 with a sword;
 * 1 per hit on a creature or player with a sword, 2 with a tool — each use skipped with chance level/(level + 1)
 * under Unbreaking. When the used uses reach the maximum the item breaks: the slot empties, nearby clients see and
 * hear it (entity status 47). `wearHeld` is the one place that wears an item; the dig hook here and the combat
 * plugin's hit call it.
 */
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid.js'
import { inventory } from '../items.js'
import { setDamage, type Stack, Stacks } from '../windows/stack.js'

const isBlade = (name: string): boolean => name.endsWith('_sword') || name === 'trident'
const isTool = (name: string): boolean => /_(pickaxe|axe|shovel|hoe)$/.test(name)

/** Uses a block broken costs an item of this name (0: it does not wear). */
export function digWear(name: string): number {
  if (isBlade(name)) return 2
  return isTool(name) || name === 'shears' ? 1 : 0
}

/** Uses a hit on a creature costs an item of this name (0: it does not wear). */
export function hitWear(name: string): number {
  if (isBlade(name)) return 1
  return isTool(name) ? 2 : 0
}

/** A slot's item (prismarine-item) with the parts wear reads. */
type WornItem = Stack & { durabilityUsed?: number; enchants?: Array<{ name: string; lvl: number }> }

function unbreaking(item: WornItem): number {
  try {
    return item.enchants?.find((e) => e.name === 'unbreaking')?.lvl ?? 0
  } catch {
    return 0 // an item whose nbt prismarine-item cannot read has no enchantments
  }
}

/** Entity status a client plays the break sound and particles for (main hand). */
const MAIN_HAND_BREAK = 47

/**
 * Wear the item in the player's main hand by `uses` (its kind's cost, from `digWear` or `hitWear`). Survival only.
 * Returns the uses left afterwards, 0 when it broke, or null when the hand holds nothing that wears.
 */
export function wearHeld(serv: SquidServer, player: SquidPlayer, uses: (name: string) => number): number | null {
  if (player.gameMode !== 0) return null
  const slot = 36 + Number(player.heldItemSlot ?? 0)
  const inv = inventory(player)
  const item = inv.slots[slot] as WornItem | null | undefined
  if (!item) return null
  const info = serv.registry.items[item.type] as { name: string; maxDurability?: number } | undefined
  const max = info?.maxDurability
  const cost = info ? uses(info.name) : 0
  if (!max || cost <= 0) return null
  const level = unbreaking(item)
  let used = 0
  for (let i = 0; i < cost; i++) if (level === 0 || Math.random() < 1 / (level + 1)) used++
  const total = Number(item.durabilityUsed ?? 0) + used
  if (total < max) {
    if (used > 0) {
      // a new stack, as vanilla: the windows layer compares it with the copy the client was last sent
      const worn = new Stacks(serv).copy(item) as WornItem
      setDamage(worn, total)
      inv.updateSlot(slot, worn)
    }
    return max - total
  }
  inv.updateSlot(slot, null)
  const status = { entityId: player.id, entityStatus: MAIN_HAND_BREAK }
  player._client.write('entity_status', status)
  ;(player._writeOthersNearby as (n: string, p: Record<string, unknown>) => void)('entity_status', status)
  return 0
}

interface DugData {
  block: { name: string }
}

const plugin: SquidPlugin = {
  name: 'tool-wear',
  player(player, serv) {
    player.on('dug_done', (data: DugData, cancelled: boolean) => {
      if (cancelled) return
      const hardness = (serv.registry.blocksByName[data.block.name] as { hardness?: number | null } | undefined)
        ?.hardness
      if (hardness && hardness > 0) wearHeld(serv, player, digWear)
    })
  },
}
export default plugin
