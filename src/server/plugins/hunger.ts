/**
 * Hunger as vanilla runs it: exhaustion from sprinting (0.1 per metre), swimming (0.01 per metre), jumping (0.05,
 * 0.2 when sprinting), mining (0.005 per block), taking damage and regenerating (added by the health plugin) and the
 * hunger effect (0.005 × level per tick); every 4 exhaustion costs one saturation point, or one food point when
 * saturation is empty (never on peaceful). Eating: the client's `use_item` with a food in hand starts eating
 * (unless food is full and the item is not always edible); after 32 ticks (16 for dried kelp) the server removes one
 * item, adds the minecraft-data food points and saturation, sends entity_status 9 (what mineflayer's `consume()`
 * waits for) and update_health. Releasing the item or switching slots cancels eating.
 */
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid.js'
import { addItems, inventory, itemClass } from '../items.js'

const ALWAYS_EDIBLE = new Set([
  'golden_apple',
  'enchanted_golden_apple',
  'chorus_fruit',
  'suspicious_stew',
  'honey_bottle',
])
const LEFTOVER: Record<string, string> = {
  mushroom_stew: 'bowl',
  rabbit_stew: 'bowl',
  beetroot_soup: 'bowl',
  suspicious_stew: 'bowl',
  honey_bottle: 'glass_bottle',
}

interface HungerState {
  exhaustion: number
  sprinting: boolean
  lastPos?: { x: number; y: number; z: number }
  onGround: boolean
  eating?: { slot: number; type: number; timer: NodeJS.Timeout }
}

function state(player: SquidPlayer): HungerState {
  let s = player.practiceHunger as HungerState | undefined
  if (!s) {
    s = { exhaustion: 0, sprinting: false, onGround: true }
    player.practiceHunger = s
  }
  return s
}

function sendHealth(player: SquidPlayer): void {
  player._client.write('update_health', {
    health: player.health,
    food: Number(player.food ?? 20),
    foodSaturation: Number(player.foodSaturation ?? 0),
  })
}

/** Add exhaustion (vanilla units, capped at 40) and spend it on saturation/food. */
export function addExhaustion(player: SquidPlayer, amount: number): void {
  const s = state(player)
  if (player.gameMode === 1 || player.gameMode === 3 || player.health <= 0) return
  s.exhaustion = Math.min(40, s.exhaustion + amount)
  const difficulty = Number((player.practiceDifficulty as number | undefined) ?? 1)
  let changed = false
  while (s.exhaustion >= 4) {
    s.exhaustion -= 4
    const sat = Number(player.foodSaturation ?? 0)
    if (sat > 0) player.foodSaturation = Math.max(0, sat - 1)
    else if (difficulty > 0) player.food = Math.max(0, Number(player.food ?? 20) - 1)
    changed = true
  }
  if (changed) sendHealth(player)
}

/** Set food and saturation (saturation never exceeds food), e.g. after respawn. */
export function setFood(player: SquidPlayer, food: number, saturation: number, exhaustion = 0): void {
  player.food = Math.max(0, Math.min(20, food))
  player.foodSaturation = Math.max(0, Math.min(Number(player.food), saturation))
  state(player).exhaustion = exhaustion
  sendHealth(player)
}

function stopEating(player: SquidPlayer): void {
  const s = state(player)
  if (s.eating) clearTimeout(s.eating.timer)
  s.eating = undefined
}

function finishEating(serv: SquidServer, player: SquidPlayer, slot: number, type: number): void {
  state(player).eating = undefined
  const inv = inventory(player)
  const item = inv.slots[slot]
  if (!item || item.type !== type || player.health <= 0) return
  const data = serv.registry.items[type] as { name: string }
  const food = serv.registry.foods?.[type] as { foodPoints: number; saturation: number } | undefined
  if (!food) return
  // vanilla order: the "finished eating" status first, the used-up item after (an eater watching the slot would take
  // an emptied slot for a meal cut short)
  const status = { entityId: player.id, entityStatus: 9 }
  player._client.write('entity_status', status)
  ;(player._writeOthersNearby as (n: string, p: Record<string, unknown>) => void)('entity_status', status)
  const count = Number(item.count)
  const leftover = LEFTOVER[data.name]
    ? (serv.registry.itemsByName[LEFTOVER[data.name]!]?.id as number | undefined)
    : undefined
  if (count <= 1) {
    const Item = itemClass(serv)
    inv.updateSlot(slot, leftover !== undefined ? new Item(leftover, 1) : null)
  } else {
    item.count = count - 1
    inv.updateSlot(slot, item)
    if (leftover !== undefined) addItems(serv, player, leftover, 1)
  }
  const newFood = Math.min(20, Number(player.food ?? 20) + food.foodPoints)
  player.food = newFood
  player.foodSaturation = Math.min(newFood, Number(player.foodSaturation ?? 0) + food.saturation)
  sendHealth(player)
  serv.emit('practiceAte', player, data.name)
}

const plugin: SquidPlugin = {
  name: 'hunger',
  server(serv) {
    const hungerEffect = (serv.registry.effectsByName?.Hunger?.id as number | undefined) ?? 16
    serv.on('tick', () => {
      for (const p of serv.players) {
        p.practiceDifficulty = Number(serv.difficulty ?? 1)
        const hunger = (p.effects as Record<number, { amplifier: number } | null> | undefined)?.[hungerEffect]
        if (hunger) addExhaustion(p, 0.005 * (hunger.amplifier + 1))
      }
    })
  },
  player(player, serv) {
    const s = state(player)
    player._client.on('entity_action', (packet: { actionId: string | number }) => {
      const a = packet.actionId
      if (a === 'start_sprinting' || a === 3) s.sprinting = true
      else if (a === 'stop_sprinting' || a === 4) s.sprinting = false
    })
    const onMove = (packet: { x: number; y: number; z: number; onGround: boolean }): void => {
      const last = s.lastPos
      s.lastPos = { x: packet.x, y: packet.y, z: packet.z }
      const wasOnGround = s.onGround
      s.onGround = packet.onGround
      if (!last || player.health <= 0) return
      const d = Math.hypot(packet.x - last.x, packet.z - last.z)
      if (d > 10) return // a teleport, not a walk
      const inWater = player.practiceInWater === true
      if (inWater) addExhaustion(player, 0.01 * d)
      else if (s.sprinting) addExhaustion(player, 0.1 * d)
      if (wasOnGround && !packet.onGround && packet.y > last.y && !inWater)
        addExhaustion(player, s.sprinting ? 0.2 : 0.05)
    }
    player._client.on('position', onMove)
    player._client.on('position_look', onMove)
    player.on('dug', () => addExhaustion(player, 0.005))

    player._client.on('use_item', (packet: { hand: number }) => {
      const slot = packet.hand === 1 ? 45 : 36 + Number(player.heldItemSlot ?? 0)
      const item = inventory(player).slots[slot]
      if (!item || player.health <= 0) return
      const food = serv.registry.foods?.[item.type] as { foodPoints: number } | undefined
      if (!food) return
      const name = (serv.registry.items[item.type] as { name: string }).name
      if (Number(player.food ?? 20) >= 20 && !ALWAYS_EDIBLE.has(name) && player.gameMode !== 1) return
      stopEating(player)
      const durationMs = name === 'dried_kelp' ? 800 : 1600
      const type = item.type
      s.eating = { slot, type, timer: setTimeout(() => finishEating(serv, player, slot, type), durationMs) }
    })
    player._client.on('block_dig', (packet: { status: number }) => {
      if (packet.status === 5) stopEating(player)
    })
    player._client.on('held_item_slot', () => stopEating(player))
    player._client.on('end', () => stopEating(player))
  },
}
export default plugin
