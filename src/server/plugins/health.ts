/**
 * Player health as vanilla runs it: `hurtPlayer` (the one way our plugins damage a player — half-second
 * invulnerability with vanilla's "only a bigger hit counts" rule, armour (./combat-armor.ts), damage_event + hurt
 * sound, food exhaustion 0.1, knockback as an entity_velocity capped far below the packet's range, `update_health`
 * to the player, death with
 * entity_status 3 and a `practiceDeath` event for the death/respawn plugins), natural regeneration (food ≥ 18: 1 hp
 * per 4 s costing 6 exhaustion; full food with saturation: fast regen every 0.5 s) and starvation at food 0 (1 damage
 * per 4 s, down to 10 hp on easy, 1 on normal, death on hard). Creative and spectator players take no damage.
 */
import type { Vec3 } from 'vec3'
import type { SquidEntity, SquidPlayer, SquidPlugin, SquidServer } from '../squid.js'
import { DAMAGE_TYPE, playSound, sendHurt } from '../mobs/creature.js'
import { addExhaustion } from './hunger.js'
import { afterArmor } from './combat-armor.js'

export const MAX_HEALTH = 20
/** Vanilla: 10 ticks; a little less so tick jitter cannot swallow every other hit of a 10-tick damage source. */
const INVULNERABLE_MS = 475
const SLOW_REGEN_TICKS = 80
const FAST_REGEN_TICKS = 10
const STARVE_TICKS = 80

interface HealthState {
  invulnerableUntil: number
  lastDamage: number
  dead: boolean
  regenTicks: number
  starveTicks: number
}

function state(player: SquidPlayer): HealthState {
  let s = player.practiceHealth as HealthState | undefined
  if (!s) {
    s = { invulnerableUntil: 0, lastDamage: 0, dead: false, regenTicks: 0, starveTicks: 0 }
    player.practiceHealth = s
  }
  return s
}

export function isDead(player: SquidPlayer): boolean {
  return state(player).dead || player.health <= 0
}

/** Send update_health with the player's current health, food and saturation. */
export function sendHealth(player: SquidPlayer): void {
  player._client.write('update_health', {
    health: player.health,
    food: Number(player.food ?? 20),
    foodSaturation: Number(player.foodSaturation ?? 0),
  })
}

export function setHealth(player: SquidPlayer, health: number): void {
  player.health = Math.max(0, Math.min(MAX_HEALTH, health))
  sendHealth(player)
}

/**
 * Damage a player; returns true when damage was applied. `cause` is a vanilla damage type name (fall, lava, drown,
 * in_wall, starve, mob_attack, player_attack, ...). `force` ignores invulnerability and game mode (/kill).
 */
export function hurtPlayer(
  serv: SquidServer,
  player: SquidPlayer,
  amount: number,
  cause: string,
  attacker?: SquidEntity,
  force = false,
): boolean {
  const s = state(player)
  if (s.dead || player.health <= 0 || amount <= 0) return false
  if (!force && (player.gameMode === 1 || player.gameMode === 3)) return false
  if (!force) amount = afterArmor(serv, player, amount, cause)
  const now = Date.now()
  let applied = amount
  if (!force && now < s.invulnerableUntil) {
    if (amount <= s.lastDamage) return false
    applied = amount - s.lastDamage
  } else s.invulnerableUntil = now + INVULNERABLE_MS
  s.lastDamage = amount
  addExhaustion(player, 0.1)
  sendHurt(player, DAMAGE_TYPE[cause] ?? DAMAGE_TYPE.generic!, attacker)
  playSound(serv, 'entity.player.hurt', player.world, player.position, 'player')
  if (attacker && attacker !== player) knockPlayer(player, attacker.position)
  setHealth(player, player.health - applied)
  serv.emit('practicePlayerHurt', player, applied, cause, attacker)
  if (player.health <= 0) die(serv, player, cause, attacker)
  return true
}

/** Knockback away from `from`: vanilla strength 0.4 blocks/tick, sent in 1/8000 blocks per tick (i16-safe). */
function knockPlayer(player: SquidPlayer, from: Vec3): void {
  let dx = player.position.x - from.x
  let dz = player.position.z - from.z
  const len = Math.hypot(dx, dz)
  if (len < 1e-4) {
    dx = 0
    dz = 0
  } else {
    dx /= len
    dz /= len
  }
  const clamp = (v: number): number => Math.max(-8000, Math.min(8000, Math.round(v * 8000)))
  const velocity = { x: clamp(dx * 0.4), y: clamp(0.36), z: clamp(dz * 0.4) }
  player._client.write('entity_velocity', {
    entityId: player.id,
    velocity,
    velocityX: velocity.x,
    velocityY: velocity.y,
    velocityZ: velocity.z,
  })
}

function die(serv: SquidServer, player: SquidPlayer, cause: string, attacker?: SquidEntity): void {
  const s = state(player)
  s.dead = true
  const others = player._writeOthersNearby as (n: string, p: Record<string, unknown>) => void
  others('entity_status', { entityId: player.id, entityStatus: 3 })
  const by = attacker ? (attacker.type === 'player' ? String(attacker.username) : String(attacker.name)) : undefined
  const text =
    cause === 'fall'
      ? `${player.username} hit the ground too hard`
      : cause === 'lava'
        ? `${player.username} tried to swim in lava`
        : cause === 'drown'
          ? `${player.username} drowned`
          : cause === 'in_wall'
            ? `${player.username} suffocated in a wall`
            : cause === 'starve'
              ? `${player.username} starved to death`
              : by
                ? `${player.username} was slain by ${by}`
                : `${player.username} died`
  ;(serv.broadcast as ((m: string) => void) | undefined)?.(text)
  player.emit('practiceDeath', { cause, attacker })
  serv.emit('practicePlayerDied', player, cause, attacker)
}

/** Called by the respawn plugin: alive again with full health (food is kept at vanilla's respawn values by it). */
export function markAlive(player: SquidPlayer): void {
  const s = state(player)
  s.dead = false
  s.invulnerableUntil = 0
  s.lastDamage = 0
  s.regenTicks = 0
  s.starveTicks = 0
}

function regenerate(serv: SquidServer, player: SquidPlayer): void {
  const s = state(player)
  if (s.dead || player.health <= 0 || Number(serv.difficulty ?? 1) < 0) return
  const food = Number(player.food ?? 20)
  const sat = Number(player.foodSaturation ?? 0)
  if (food >= 20 && sat > 0 && player.health < MAX_HEALTH) {
    if (++s.regenTicks >= FAST_REGEN_TICKS) {
      const spend = Math.min(sat, 6)
      addExhaustion(player, spend)
      setHealth(player, player.health + spend / 6)
      s.regenTicks = 0
    }
  } else if (food >= 18 && player.health < MAX_HEALTH) {
    if (++s.regenTicks >= SLOW_REGEN_TICKS) {
      addExhaustion(player, 6)
      setHealth(player, player.health + 1)
      s.regenTicks = 0
    }
  } else if (food <= 0) {
    if (++s.starveTicks >= STARVE_TICKS) {
      s.starveTicks = 0
      const difficulty = Number(serv.difficulty ?? 1)
      const floor = difficulty >= 3 ? 0 : difficulty === 2 ? 1 : 10
      if (player.health > floor) hurtPlayer(serv, player, 1, 'starve')
    }
  } else {
    s.regenTicks = 0
    s.starveTicks = 0
  }
}

const plugin: SquidPlugin = {
  name: 'health',
  server(serv) {
    serv.on('tick', () => {
      for (const p of serv.players) regenerate(serv, p)
    })
  },
  player(player) {
    state(player)
    player.on('asap', () => {
      if (typeof player.foodSaturation !== 'number') player.foodSaturation = 5
      if (typeof player.food !== 'number') player.food = 20
    })
  },
}
export default plugin
