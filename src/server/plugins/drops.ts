/**
 * Block drops: replaces flying-squid's "every loot entry drops, tools ignored" behaviour. On each survival dig
 * (flying-squid's `dug` behaviour event) we switch its own drop off and, once the block is gone, spawn the items
 * `rollBlockLoot` (./drops-loot.ts) picks for the block and the held tool — stone by hand drops nothing, iron ore
 * with a stone pickaxe drops raw iron, leaves drop saplings/sticks/apples at vanilla odds. Items are spawned with
 * `spawnItemDrop` (./drops-items.ts) so they carry correct metadata and are picked up with their counts. Also
 * fills minecraft-data's missing blockLoot entries (air, water, bedrock ...) so digging them cannot crash the dig
 * handler.
 */
import { Vec3 } from 'vec3'
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid.js'
import { rollBlockLoot, type LootRegistry, type LootTool } from './drops-loot.js'
import { spawnItemDrop } from './drops-items.js'

interface DugData {
  position: Vec3
  block: { name: string; type: number }
  dropBlock: boolean
  practiceDrop?: boolean
}
interface HeldItem {
  type: number
  count: number
  name?: string
  enchants?: Array<{ name: string }>
}

/** The tool in the player's main hand, in loot terms. */
export function heldTool(serv: SquidServer, player: SquidPlayer): LootTool | null {
  const slot = 36 + Number(player.heldItemSlot ?? 0)
  const item = player.inventory.slots[slot] as HeldItem | null | undefined
  if (!item || item.type === -1 || Number(item.count) <= 0) return null
  const name = (serv.registry.items[item.type] as { name: string } | undefined)?.name ?? item.name
  if (!name) return null
  let silkTouch = false
  try {
    silkTouch = (item.enchants ?? []).some((e) => e.name === 'silk_touch')
  } catch {
    /* item without nbt */
  }
  return { name, silkTouch }
}

/** Small random spread (±0.15 block offset, gentle pop-up; vanilla's is wider), so items land next to the broken block. */
function dropMotion(position: Vec3): { at: Vec3; velocity: Vec3 } {
  const at = position.offset(0.5 + (Math.random() - 0.5) * 0.3, 0.25, 0.5 + (Math.random() - 0.5) * 0.3)
  return { at, velocity: new Vec3((Math.random() - 0.5) * 0.6, 2, (Math.random() - 0.5) * 0.6) }
}

const plugin: SquidPlugin = {
  name: 'drops',
  server(serv) {
    const loot = serv.registry.blockLoot as Record<string, unknown> | undefined
    if (loot) {
      for (const b of serv.registry.blocksArray as Array<{ name: string }>)
        if (!loot[b.name]) loot[b.name] = { block: b.name, drops: [] }
    }
  },
  player(player, serv) {
    player.on('dug', (data: DugData, cancelled: boolean) => {
      if (cancelled || !data.dropBlock) return
      data.dropBlock = false // flying-squid's drop: off
      data.practiceDrop = player.gameMode === 0
    })
    player.on('dug_done', (data: DugData, cancelled: boolean) => {
      if (cancelled || !data.practiceDrop) return
      const drops = rollBlockLoot(serv.registry as unknown as LootRegistry, data.block.name, heldTool(serv, player))
      for (const d of drops) {
        const id = (serv.registry.itemsByName[d.name] as { id: number } | undefined)?.id
        if (id === undefined) continue
        const m = dropMotion(data.position)
        spawnItemDrop(serv, player.world, m.at, id, d.count, { velocity: m.velocity })
      }
    })
  },
}
export default plugin
