/**
 * Dropped item entities that work with recent clients: flying-squid 1.12 sends no metadata at all for entities on
 * ≥1.20.2 (and before that put the item in the wrong index), so mineflayer's `entity.getDroppedItem()` throws. This
 * plugin gives every item entity — whoever spawns it — the item metadata (index 8, type item_stack; ≥1.20.5 with
 * data components), replaces
 * flying-squid's pickup (which ignored stack counts and took one item per entity) with a count-aware one using the
 * vanilla pickup box (player box grown by 1 block sideways and 0.5 up/down; the nearest player wins), makes tossed
 * items fly out of the player's eyes with a 2 s pickup delay instead of landing in their feet and being picked up
 * again at once, and gives items vanilla-like motion (they land and stop; flying-squid's let them creep forever). At
 * flying-squid's entity cap a new item takes the place of the oldest one instead of crashing the server.
 * `spawnItemDrop` is the one helper other plugins should use to drop items.
 */
import { Vec3 } from 'vec3'
import prismarineItem from 'prismarine-item'
import {
  MAX_ENTITIES,
  type SquidEntity,
  type SquidPlayer,
  type SquidPlugin,
  type SquidServer,
  type SquidWorld,
} from '../squid.js'
import { inPickupRange } from '../../util/vec.js'

/** Vanilla: items dropped by blocks and mobs can be picked up after 10 ticks, tossed ones after 40. */
export const BLOCK_DROP_PICKUP_DELAY_MS = 500
export const TOSS_PICKUP_DELAY_MS = 2000
/** Vanilla despawn time for items on the ground. */
export const ITEM_LIFETIME_MS = 5 * 60_000

interface ItemEntity extends SquidEntity {
  itemId: number
  itemCount: number
  bornTime: number
  pickupTime?: number
  /** Epoch ms from which the item can be picked up (ours; flying-squid's pickupTime is cleared). */
  pickupAt?: number
  _writeOthersNearby(name: string, params: Record<string, unknown>): void
  destroy(): void
  sendMetadata(data: unknown): void
  calculatePhysics(delta: number): Promise<{ position: Vec3; onGround: boolean }>
}

interface SlotItem {
  type: number
  count: number
  stackSize: number
}
interface PlayerInventory {
  slots: Array<SlotItem | null>
  updateSlot(slot: number, item: SlotItem | null): void
}

const isItemEntity = (e: SquidEntity): e is ItemEntity => typeof (e as Partial<ItemEntity>).itemId === 'number'

function itemMetadata(serv: SquidServer, e: ItemEntity): Array<Record<string, unknown>> {
  const key = ((serv.supportFeature as (n: string) => unknown)('metadataIxOfItem') as number | undefined) ?? 8
  // ≥1.20.5 slots carry data components instead of NBT (none here: plain items)
  const value = serv.supportFeature('itemsWithComponents')
    ? {
        itemCount: Number(e.itemCount),
        itemId: e.itemId,
        addedComponentCount: 0,
        removedComponentCount: 0,
        components: [],
        removeComponents: [],
      }
    : { present: true, itemId: e.itemId, itemCount: Number(e.itemCount) }
  return [{ key, type: 'item_stack', value }]
}

/** Spawn an item entity (correct metadata, pickup after `pickupDelayMs`). Returns the entity. */
export function spawnItemDrop(
  serv: SquidServer,
  world: SquidWorld,
  position: Vec3,
  itemId: number,
  count: number,
  opts: { velocity?: Vec3; pickupDelayMs?: number } = {},
): SquidEntity {
  const type = serv.registry.entitiesByName.item.id as number
  const spawnObject = serv.spawnObject as (t: number, w: SquidWorld, p: Vec3, o: Record<string, unknown>) => SquidEntity
  return spawnObject(type, world, position, {
    velocity: opts.velocity ?? new Vec3(0, 0, 0),
    itemId,
    itemCount: count,
    pickupTime: opts.pickupDelayMs ?? BLOCK_DROP_PICKUP_DELAY_MS,
    deathTime: ITEM_LIFETIME_MS,
  })
}

/** Move as much of the item entity as fits into the player's inventory; true if anything was taken. */
function collect(serv: SquidServer, player: SquidPlayer, e: ItemEntity, Item: ItemCtor): boolean {
  if (serv.entities[e.id] !== e) return false // already collected or despawned this tick
  const inv = player.inventory as unknown as PlayerInventory
  let remaining = Number(e.itemCount)
  const order = [...range(36, 45), ...range(9, 36)] // hotbar first, then the main inventory (vanilla order)
  for (const slot of order) {
    const it = inv.slots[slot]
    if (!it || it.type !== e.itemId) continue
    const count = Number(it.count)
    if (count >= it.stackSize) continue
    const add = Math.min(remaining, it.stackSize - count)
    inv.updateSlot(slot, new Item(e.itemId, count + add))
    remaining -= add
    if (remaining === 0) break
  }
  for (const slot of order) {
    if (remaining === 0) break
    if (inv.slots[slot]) continue
    const fresh = new Item(e.itemId, 1)
    const add = Math.min(remaining, fresh.stackSize)
    inv.updateSlot(slot, new Item(e.itemId, add))
    remaining -= add
  }
  const taken = Number(e.itemCount) - remaining
  if (taken === 0) return false
  const packet = { collectedEntityId: e.id, collectorEntityId: player.id, pickupItemCount: taken }
  e._writeOthersNearby('collect', packet)
  ;(player.playSoundAtSelf as ((s: string) => void) | undefined)?.('random.pop')
  if (remaining === 0) e.destroy()
  else {
    e.itemCount = remaining
    e._writeOthersNearby('entity_metadata', { entityId: e.id, metadata: itemMetadata(serv, e) })
  }
  return true
}

type ItemCtor = new (type: number, count: number) => SlotItem

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i)
}

/**
 * Make room for one more entity: flying-squid throws on a new one once the world holds MAX_ENTITIES, and a block drop
 * refused that way crashed the server (bench p8 diamond seed 1 at 475 s, after a long dig had tossed its junk stack
 * by stack). Vanilla caps no items; here the oldest item entities go first, as if they had despawned early.
 */
function makeRoom(serv: SquidServer): void {
  const all = Object.values(serv.entities)
  const over = all.length - (MAX_ENTITIES - 1)
  if (over <= 0) return
  const items = all.filter(isItemEntity).sort((a, b) => a.bornTime - b.bornTime)
  for (const e of items.slice(0, over)) e.destroy()
}

/** The look (degrees) each player's client sent last, recorded as the packet arrives. */
const lastLook = new WeakMap<SquidPlayer, { yaw: number; pitch: number }>()

/**
 * The eye position and a 6 blocks/s throw velocity along the player's look. The look is the one the client sent
 * last, as vanilla applies packets in order: flying-squid applies a look packet only after awaiting its plugin
 * events, so a window click read in the same chunk would otherwise throw along the previous look (its 1/256-turn
 * yaw/pitch are the fallback).
 */
export function tossFrom(player: SquidPlayer): { position: Vec3; velocity: Vec3 } {
  const look = lastLook.get(player)
  const yaw = look ? (look.yaw * Math.PI) / 180 : (Number(player.yaw ?? 0) * Math.PI * 2) / 256
  const pitch = look ? (look.pitch * Math.PI) / 180 : (Number(player.pitch ?? 0) * Math.PI * 2) / 256
  const dir = new Vec3(-Math.sin(yaw) * Math.cos(pitch), -Math.sin(pitch), Math.cos(yaw) * Math.cos(pitch))
  const eye = player.position.offset(0, 1.62 - 0.3, 0)
  return { position: eye, velocity: dir.scaled(6).offset(0, 2, 0) }
}

/** Vanilla item motion per second: gravity 0.04 b/tick², drag 0.98/tick in the air, 0.588/tick on the ground. */
const GRAVITY = 16
const AIR_DRAG_PER_TICK = 0.98
const GROUND_DRAG_PER_TICK = 0.588

/** Longest physics step (s): the server's tick hands over the time since its last tick, seconds under load. */
const STEP_S = 0.05

/**
 * Item physics replacing flying-squid's (which lets resting items creep sideways forever): integrate in steps of at
 * most one game tick (one big step under a loaded server threw items through the player or buried them a block deep
 * in the ground, out of pickup reach), stop at solid blocks sideways, land on the top face of the highest solid
 * block passed on the way down, brake on the ground until at rest (velocity 0, so flying-squid stops sending positions).
 */
async function itemStep(
  serv: SquidServer,
  e: ItemEntity,
  delta: number,
): Promise<{ position: Vec3; onGround: boolean }> {
  const world = e.world as unknown as { getBlockType(p: Vec3): Promise<number> }
  const blocks = serv.registry.blocks as Record<number, { boundingBox: string } | undefined>
  const solid = async (x: number, y: number, z: number): Promise<boolean> =>
    blocks[await world.getBlockType(new Vec3(Math.floor(x), Math.floor(y), Math.floor(z)))]?.boundingBox === 'block'
  return moveItem(solid, e.velocity, e.position, delta)
}

/** Advance an item by `delta` seconds in steps of at most a tick; updates `v` in place. Exported for tests. */
export async function moveItem(
  solid: Solid,
  v: Vec3,
  from: Vec3,
  delta: number,
): Promise<{ position: Vec3; onGround: boolean }> {
  let p = from
  let onGround = false
  for (let left = delta; left > 1e-6; left -= STEP_S) {
    const step = await itemTick(solid, v, p, Math.min(STEP_S, left))
    p = step.position
    onGround = step.onGround
    if (onGround && v.x === 0 && v.z === 0) break // at rest: later steps change nothing
  }
  return { position: p, onGround }
}

export type Solid = (x: number, y: number, z: number) => Promise<boolean>

/** One step of at most a tick: updates `v` in place, returns the new position. */
async function itemTick(solid: Solid, v: Vec3, p: Vec3, dt: number): Promise<{ position: Vec3; onGround: boolean }> {
  const ticks = dt * 20
  v.y -= GRAVITY * dt
  const drag = AIR_DRAG_PER_TICK ** ticks
  v.x *= drag
  v.y *= drag
  v.z *= drag
  let x = p.x + v.x * dt
  let y = p.y + v.y * dt
  let z = p.z + v.z * dt
  if (v.x !== 0 && (await solid(x + Math.sign(v.x) * 0.125, p.y + 0.1, p.z))) {
    x = p.x
    v.x = 0
  }
  if (v.z !== 0 && (await solid(x, p.y + 0.1, z + Math.sign(v.z) * 0.125))) {
    z = p.z
    v.z = 0
  }
  let onGround = false
  const floor = v.y <= 0 ? await highestSolid(solid, x, z, p.y, y) : undefined
  if (floor !== undefined) {
    y = floor + 1
    v.y = 0
    onGround = true
    const f = GROUND_DRAG_PER_TICK ** ticks
    v.x = Math.abs(v.x * f) < 0.05 ? 0 : v.x * f
    v.z = Math.abs(v.z * f) < 0.05 ? 0 : v.z * f
  } else if (v.y > 0 && (await solid(x, y + 0.25, z))) {
    y = p.y
    v.y = 0
  }
  return { position: new Vec3(x, y, z), onGround }
}

/** The y of the highest solid block whose cell the fall from `fromY` to `toY` enters (resting on one counts). */
async function highestSolid(
  solid: Solid,
  x: number,
  z: number,
  fromY: number,
  toY: number,
): Promise<number | undefined> {
  for (let by = Math.floor(fromY - 1e-9); by >= Math.floor(toY); by--) {
    if (by + 1 > fromY + 1e-9) continue
    if (await solid(x, by, z)) return by
  }
  return undefined
}

const plugin: SquidPlugin = {
  name: 'drops-items',
  server(serv) {
    const Item = (prismarineItem as unknown as (r: unknown) => ItemCtor)(serv.registry)

    // Item entities: flying-squid's sendMetadata (a no-op on 1.20.2, wrong before) is silenced for them; each
    // player that gets the spawn packet gets the item metadata right after it (see newPlayer below), and count
    // changes go to every nearby player through sendItemMetadata.
    serv.on('newEntity', (entity: SquidEntity) => {
      const e = entity as ItemEntity
      const original = e.sendMetadata
      e.sendMetadata = (data: unknown) => {
        if (!isItemEntity(e)) original?.call(e, data)
      }
    })

    // Every item entity: flying-squid's own pickup (first player in a 1.75-block sphere, one item at a time) is
    // switched off by clearing its pickupTime; our tick below owns pickup. Tossed items (flying-squid and the
    // windows plugin pass the player's own position object) fly out of the eyes along the look.
    const spawnObject = serv.spawnObject as (
      t: number,
      w: SquidWorld,
      p: Vec3,
      o: Record<string, unknown>,
    ) => SquidEntity
    serv.spawnObject = (type: number, world: SquidWorld, position: Vec3, opts: Record<string, unknown>) => {
      if (opts?.itemId === undefined) return spawnObject(type, world, position, opts)
      makeRoom(serv)
      const thrower = serv.players.find((p) => p.position === position)
      const t = thrower ? tossFrom(thrower) : undefined
      const delayMs = thrower ? TOSS_PICKUP_DELAY_MS : Number(opts.pickupTime ?? BLOCK_DROP_PICKUP_DELAY_MS)
      const entity = spawnObject(
        type,
        world,
        t?.position ?? position,
        t ? { ...opts, velocity: t.velocity, deathTime: ITEM_LIFETIME_MS } : opts,
      ) as ItemEntity
      entity.pickupAt = entity.bornTime + delayMs
      entity.pickupTime = undefined
      entity.calculatePhysics = (delta: number) => itemStep(serv, entity, delta)
      return entity
    }

    const collectWith = (player: SquidPlayer, entity: SquidEntity): void => {
      if (isItemEntity(entity)) collect(serv, player, entity, Item)
    }
    // flying-squid's inventory plugin defines player.collect after external plugins' player hooks: replace it here.
    serv.on('newPlayer', (player: SquidPlayer) => {
      const onLook = (p: { yaw?: number; pitch?: number }): void => {
        if (typeof p.yaw === 'number' && typeof p.pitch === 'number')
          lastLook.set(player, { yaw: p.yaw, pitch: p.pitch })
      }
      player._client.on('look', onLook)
      player._client.on('position_look', onLook)
      player.collect = (entity: SquidEntity) => collectWith(player, entity)
      const spawnEntity = player.spawnEntity as (e: SquidEntity) => void
      player.spawnEntity = (entity: SquidEntity) => {
        spawnEntity(entity)
        if (isItemEntity(entity))
          player._client.write('entity_metadata', { entityId: entity.id, metadata: itemMetadata(serv, entity) })
      }
    })

    // Pickup with the vanilla box; when several players touch an item, the nearest takes it.
    serv.on('tick', () => {
      const now = Date.now()
      for (const entity of Object.values(serv.entities)) {
        if (!isItemEntity(entity) || entity.pickupAt === undefined || now < entity.pickupAt) continue
        let best: SquidPlayer | undefined
        let bestDist = Infinity
        for (const player of serv.players) {
          if (player.world !== entity.world || player.gameMode === 3 || Number(player.health) <= 0) continue
          if (!inPickupRange(player.position, entity.position)) continue
          const d = player.position.distanceTo(entity.position)
          if (d < bestDist) {
            best = player
            bestDist = d
          }
        }
        if (best) collect(serv, best, entity, Item)
      }
    })
  },
}
export default plugin
