/**
 * Creatures (animals and hostile mobs) as our plugins run them: spawning any living entity type (flying-squid ≥1.19
 * only spawns entities typed `mob`), vanilla max health, taking damage with vanilla's half-second invulnerability,
 * the hurt packets 1.20.2 clients expect (`damage_event`, the hurt sound), knockback, and death (status 3, loot per
 * minecraft-data `entityLoot`, `entity_destroy` after the death animation). Movement lives in ./ai.ts; this file
 * also holds the damage-type ids shared with the player health plugins.
 */
import { randomUUID } from 'node:crypto'
import { Vec3 } from 'vec3'
import type { SquidEntity, SquidPlayer, SquidServer } from '../squid.js'
import { spawnItemEntity } from '../items.js'
import { soundEffect, soundId } from '../plugins/sound.js'

/** Vanilla 1.20 damage-type registry ids (the order of the login packet's damage_type codec). */
export const DAMAGE_TYPE: Record<string, number> = {
  drown: 5,
  fall: 8,
  generic: 16,
  generic_kill: 17,
  in_fire: 19,
  in_wall: 20,
  lava: 22,
  mob_attack: 25,
  on_fire: 28,
  player_attack: 31,
  starve: 35,
}

export interface CreatureInfo {
  maxHealth: number
  walkSpeed: number
  hostile: boolean
  sound: string
}
const INFO: Record<string, CreatureInfo> = {
  cow: { maxHealth: 10, walkSpeed: 0.08, hostile: false, sound: 'entity.cow.hurt' },
  pig: { maxHealth: 10, walkSpeed: 0.1, hostile: false, sound: 'entity.pig.hurt' },
  sheep: { maxHealth: 8, walkSpeed: 0.09, hostile: false, sound: 'entity.sheep.hurt' },
  chicken: { maxHealth: 4, walkSpeed: 0.08, hostile: false, sound: 'entity.chicken.hurt' },
  zombie: { maxHealth: 20, walkSpeed: 0.11, hostile: true, sound: 'entity.zombie.hurt' },
}
export function creatureInfo(name: string): CreatureInfo {
  return INFO[name] ?? { maxHealth: 20, walkSpeed: 0.08, hostile: false, sound: 'entity.generic.hurt' }
}

/** Per-creature state our AI and combat keep on the flying-squid entity (`entity.creature`). */
export interface CreatureState {
  name: string
  info: CreatureInfo
  /** Blocks per tick. */
  motion: Vec3
  onGround: boolean
  /** Wander/chase goal and when to pick the next one (ms since epoch). */
  goal?: Vec3
  nextThinkAt: number
  invulnerableUntil: number
  lastDamage: number
  attackReadyAt: number
  dead: boolean
  sheared?: boolean
  fallStartY?: number
  lastBurnAt?: number
}

export type Creature = SquidEntity & {
  creature: CreatureState
  uuid: string
  yaw: number
  pitch: number
  headPitch: number
}

export function isCreature(e: SquidEntity | undefined): e is Creature {
  return !!e && typeof e.creature === 'object' && e.creature !== null
}

export function livingEntityType(serv: SquidServer, name: string): { id: number; name: string } | undefined {
  const e = serv.registry.entitiesByName[name.replace(/^minecraft:/, '')] as
    | { id: number; name: string; type: string }
    | undefined
  if (!e || ['player', 'projectile', 'other'].includes(e.type)) return undefined
  return e
}

/** Spawn a living entity by name at `pos`; undefined for non-living names (items, arrows, ...) or a full world. */
export function spawnCreature(serv: SquidServer, name: string, world: unknown, pos: Vec3): Creature | undefined {
  const type = livingEntityType(serv, name)
  if (!type) return undefined
  const initEntity = serv.initEntity as (t: string, id: number, w: unknown, p: Vec3) => SquidEntity
  let e: Creature
  try {
    e = initEntity('mob', type.id, world, pos.clone()) as Creature
  } catch {
    return undefined // flying-squid refuses entities past its max-entities
  }
  e.uuid = randomUUID()
  e.name = type.name
  e.yaw = Math.floor(Math.random() * 256) - 128
  e.pitch = 0
  e.headPitch = 0
  // velocity in blocks/s for flying-squid's sendVelocity; no `size`, so flying-squid's own physics skips it
  e.velocity = new Vec3(0, 0, 0)
  e.metadata = []
  const info = creatureInfo(type.name)
  e.health = info.maxHealth
  e.creature = {
    name: type.name,
    info,
    motion: new Vec3(0, 0, 0),
    onGround: false,
    nextThinkAt: 0,
    invulnerableUntil: 0,
    lastDamage: 0,
    attackReadyAt: 0,
    dead: false,
  }
  ;(e.updateAndSpawn as () => void)()
  serv.emit('practiceCreatureSpawned', e)
  return e
}

function write(e: SquidEntity, name: string, params: Record<string, unknown>, includeSelf = false): void {
  const fn = (includeSelf ? e._writeNearby : e._writeOthersNearby) as (n: string, p: Record<string, unknown>) => void
  fn(name, params)
}

/** Play a named sound to players within 16 blocks (a 1.20.2 `sound_effect`, see src/server/plugins/sound.ts). */
export function playSound(serv: SquidServer, sound: string, world: unknown, pos: Vec3, category = 'neutral'): void {
  const id = soundId(serv, sound)
  if (id !== null) soundEffect(serv, id, world, pos, { category })
}

/** The damage_event + hurt packets vanilla sends when a living entity is hurt (the victim sees its own too). */
export function sendHurt(e: SquidEntity, damageType: number, attacker?: SquidEntity): void {
  const params = {
    entityId: e.id,
    sourceTypeId: damageType,
    sourceCauseId: attacker ? attacker.id + 1 : 0,
    sourceDirectId: attacker ? attacker.id + 1 : 0,
    sourcePosition: undefined,
  }
  write(e, 'damage_event', params, true)
}

/** Knockback like vanilla's LivingEntity.knockback: 0.4 strength away from `from`, capped, plus a small hop. */
export function knockbackVector(target: Vec3, from: Vec3, strength = 0.4): Vec3 {
  let dx = target.x - from.x
  let dz = target.z - from.z
  const len = Math.hypot(dx, dz)
  if (len < 1e-4) {
    dx = Math.random() - 0.5
    dz = Math.random() - 0.5
  } else {
    dx /= len
    dz /= len
  }
  return new Vec3(dx * strength, Math.min(0.4, strength), dz * strength)
}

/**
 * Damage a creature. Vanilla invulnerability: for 10 ticks after a hit only damage above the last hit counts (the
 * difference is applied). Returns true when damage was applied.
 */
export function hurtCreature(
  serv: SquidServer,
  e: Creature,
  amount: number,
  damageType: number,
  attacker?: SquidEntity,
): boolean {
  const c = e.creature
  if (c.dead || amount <= 0) return false
  const now = Date.now()
  let applied = amount
  if (now < c.invulnerableUntil) {
    if (amount <= c.lastDamage) return false
    applied = amount - c.lastDamage
  } else c.invulnerableUntil = now + 475 // vanilla 10 ticks, minus tick jitter
  c.lastDamage = amount
  e.health = Math.max(0, e.health - applied)
  sendHurt(e, damageType, attacker)
  playSound(serv, c.info.sound, e.world, e.position)
  if (attacker) {
    const kb = knockbackVector(e.position, attacker.position)
    c.motion = new Vec3(c.motion.x / 2 + kb.x, c.onGround ? kb.y : c.motion.y, c.motion.z / 2 + kb.z)
    c.onGround = false
  }
  serv.emit('practiceCreatureHurt', e, applied, attacker)
  if (e.health <= 0) killCreature(serv, e, attacker)
  return true
}

/** Pick loot from the minecraft-data entityLoot table (chance per entry, count uniformly within its range). */
export function rollLoot(
  serv: SquidServer,
  e: Creature,
  killedByPlayer: boolean,
): Array<{ id: number; count: number }> {
  const table = serv.registry.entityLoot?.[e.creature.name] as
    | { drops: Array<{ item: string; dropChance: number; stackSizeRange: [number, number?]; playerKill?: boolean }> }
    | undefined
  const out: Array<{ id: number; count: number }> = []
  for (const d of table?.drops ?? []) {
    if (d.playerKill && !killedByPlayer) continue
    if (Math.random() >= d.dropChance) continue
    const [min, max = min] = d.stackSizeRange
    const count = min + Math.floor(Math.random() * (max - min + 1))
    const item = serv.registry.itemsByName[d.item] as { id: number } | undefined
    if (item && count > 0) out.push({ id: item.id, count })
  }
  // minecraft-data lists no wool for sheep: vanilla drops one wool of its colour (white here) unless sheared
  if (e.creature.name === 'sheep' && !e.creature.sheared)
    out.push({ id: serv.registry.itemsByName.white_wool.id as number, count: 1 })
  return out
}

/** Death: status 3 (mineflayer's entityDead), loot at the body, removal after vanilla's 20-tick death animation. */
export function killCreature(serv: SquidServer, e: Creature, killer?: SquidEntity): void {
  if (e.creature.dead) return
  e.creature.dead = true
  e.health = 0
  write(e, 'entity_status', { entityId: e.id, entityStatus: 3 })
  const byPlayer = killer?.type === 'player'
  for (const drop of rollLoot(serv, e, byPlayer))
    spawnItemEntity(serv, e.world, e.position.offset(0, 0.5, 0), drop.id, drop.count)
  serv.emit('practiceCreatureDied', e, killer)
  setTimeout(() => removeCreature(serv, e), 1000).unref()
}

/** Remove a creature at once (entity_destroy to everybody who sees it). */
export function removeCreature(serv: SquidServer, e: Creature): void {
  e.creature.dead = true
  if (serv.entities[e.id] !== e) return
  ;(serv.destroyEntity as (x: SquidEntity) => void)(e)
}

export function creatures(serv: SquidServer): Creature[] {
  return Object.values(serv.entities).filter(isCreature)
}

export function alivePlayers(serv: SquidServer): SquidPlayer[] {
  return serv.players.filter((p) => p.health > 0 && p.gameMode !== 1 && p.gameMode !== 3)
}
