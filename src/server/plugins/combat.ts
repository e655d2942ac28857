/**
 * Player attacks, replacing flying-squid's "every hit does 1 damage, unbounded knockback" pvp: the client's
 * `use_entity` attack (mouse 1) deals vanilla weapon damage (fist 1, swords 4–8, axes 7–10, ...) scaled by the
 * attack cooldown like vanilla (0.2 + 0.8·progress², progress = time since the last swing / (20 / attack speed)
 * ticks; the swing packet and a slot change reset it), ×1.5 critical hits while falling, ignores targets beyond
 * 6 blocks from the eyes (reach check) and dead or spectating attackers, and hands the damage to the creature or
 * player health code, which sends the hurt packets and a bounded knockback; a hit wears the weapon (./tool-wear.ts).
 * flying-squid's own attack is cancelled through its `attack` behaviour.
 */
import type { SquidEntity, SquidPlayer, SquidPlugin, SquidServer } from '../squid.js'
import { inventory } from '../items.js'
import { DAMAGE_TYPE, hurtCreature, isCreature } from '../mobs/creature.js'
import { hurtPlayer, isDead } from './health.js'
import { hitWear, wearHeld } from './tool-wear.js'

/** Vanilla attack damage and attack speed per held item (everything else: fist, 1 damage at speed 4). */
const WEAPONS: Record<string, [damage: number, speed: number]> = {
  wooden_sword: [4, 1.6],
  golden_sword: [4, 1.6],
  stone_sword: [5, 1.6],
  iron_sword: [6, 1.6],
  diamond_sword: [7, 1.6],
  netherite_sword: [8, 1.6],
  wooden_axe: [7, 0.8],
  golden_axe: [7, 1],
  stone_axe: [9, 0.8],
  iron_axe: [9, 0.9],
  diamond_axe: [9, 1],
  netherite_axe: [10, 1],
  wooden_pickaxe: [2, 1.2],
  golden_pickaxe: [2, 1.2],
  stone_pickaxe: [3, 1.2],
  iron_pickaxe: [4, 1.2],
  diamond_pickaxe: [5, 1.2],
  netherite_pickaxe: [6, 1.2],
  wooden_shovel: [2.5, 1],
  golden_shovel: [2.5, 1],
  stone_shovel: [3.5, 1],
  iron_shovel: [4.5, 1],
  diamond_shovel: [5.5, 1],
  netherite_shovel: [6.5, 1],
  wooden_hoe: [1, 1],
  golden_hoe: [1, 1],
  stone_hoe: [1, 2],
  iron_hoe: [1, 3],
  diamond_hoe: [1, 4],
  netherite_hoe: [1, 4],
  trident: [9, 1.1],
}
export const FIST: [number, number] = [1, 4]
/** Farthest a survival player may hit, eye to target box (vanilla server allows 6). */
export const REACH = 6

export function weaponStats(serv: SquidServer, player: SquidPlayer): [damage: number, speed: number] {
  const held = inventory(player).slots[36 + Number(player.heldItemSlot ?? 0)]
  const name = held ? (serv.registry.items[held.type] as { name: string } | undefined)?.name : undefined
  return (name && WEAPONS[name]) || FIST
}

/** Distance from the player's eyes to the closest point of the target's box. */
export function reachDistance(serv: SquidServer, player: SquidPlayer, target: SquidEntity): number {
  const reg = serv.registry.entitiesByName[String(target.name ?? target.type)] as
    | { width?: number; height?: number }
    | undefined
  const half = (reg?.width ?? 0.6) / 2
  const height = reg?.height ?? 1.8
  const eye = player.position.offset(0, 1.62, 0)
  const t = target.position
  const cx = Math.max(t.x - half, Math.min(eye.x, t.x + half))
  const cy = Math.max(t.y, Math.min(eye.y, t.y + height))
  const cz = Math.max(t.z - half, Math.min(eye.z, t.z + half))
  return Math.hypot(eye.x - cx, eye.y - cy, eye.z - cz)
}

function attack(serv: SquidServer, player: SquidPlayer, targetId: number): void {
  const target = serv.entities[targetId]
  if (!target || target === player || isDead(player) || player.gameMode === 3) return
  if (target.world !== player.world || reachDistance(serv, player, target) > REACH) return
  const [base, speed] = weaponStats(serv, player)
  const cooldownMs = (20 / speed) * 50
  const since = Date.now() - Number(player.practiceLastSwingAt ?? 0)
  const progress = Math.max(0, Math.min(1, (since + 25) / cooldownMs))
  let damage = base * (0.2 + progress * progress * 0.8)
  // critical hit: falling, charged, not sprinting or swimming → ×1.5 and the crit particles
  const env = player.practiceEnv as { fallDistance?: number } | undefined
  const hunger = player.practiceHunger as { sprinting?: boolean } | undefined
  if (
    progress > 0.9 &&
    (env?.fallDistance ?? 0) > 0 &&
    !player.onGround &&
    !hunger?.sprinting &&
    player.practiceInWater !== true
  ) {
    damage *= 1.5
    ;(target._writeNearby as (n: string, p: Record<string, unknown>) => void)('animation', {
      entityId: target.id,
      animation: 4,
    })
  }
  if (isCreature(target)) hurtCreature(serv, target, damage, DAMAGE_TYPE.player_attack!, player)
  else if (target.type === 'player') hurtPlayer(serv, target as SquidPlayer, damage, 'player_attack', player)
  else return
  wearHeld(serv, player, hitWear)
}

const plugin: SquidPlugin = {
  name: 'combat',
  player(player, serv) {
    player.practiceLastSwingAt = 0
    // flying-squid's pvp plugin runs its 1-damage hit through the `attack` behaviour: cancel it quietly
    player.on('attack_cancel', (_data: unknown, cancel: (runOnCancel?: boolean, hide?: boolean) => void) =>
      cancel(false, true),
    )
    player._client.on('use_entity', (packet: { target: number; mouse: number }) => {
      if (packet.mouse === 1) attack(serv, player, packet.target)
    })
    player._client.on('arm_animation', () => {
      player.practiceLastSwingAt = Date.now()
    })
    player._client.on('held_item_slot', () => {
      player.practiceLastSwingAt = Date.now()
    })
  },
}
export default plugin
