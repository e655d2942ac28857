/**
 * The creature tick: every server tick each live creature asks its brain (registered per entity name by the
 * animals/mobs plugins) where to go, then moves with simple vanilla-like physics — gravity 0.08 blocks/tick² with
 * 0.98 drag, solid-block collision against the world, a jump up one-block steps, floating in water, fall damage
 * (distance − 3) and lava damage — and the result is sent with flying-squid's `sendPosition` (relative moves) plus
 * look/head-rotation packets when the heading changes. Knockback stored in `creature.motion` decays with ground
 * friction. Creatures that fall out of the world are removed.
 */
import { Vec3 } from 'vec3'
import type { SquidServer } from '../squid.js'
import { creatures, DAMAGE_TYPE, hurtCreature, removeCreature, type Creature } from './creature.js'

/** A brain decides `creature.goal` (and may act, e.g. attack); `speed` is blocks per tick toward the goal. */
export type Brain = (serv: SquidServer, e: Creature, now: number) => { speed: number } | undefined

const brains = new Map<string, Brain>()
export function registerBrain(name: string, brain: Brain): void {
  brains.set(name, brain)
}

/** Creatures farther than this from every player stand still (and cost nothing). */
const ACTIVE_DISTANCE = 96

type BlockKind = 'air' | 'solid' | 'water' | 'lava'

async function blockKind(serv: SquidServer, e: Creature, x: number, y: number, z: number): Promise<BlockKind> {
  const world = e.world as unknown as { getBlockType(p: Vec3): Promise<number> }
  const type = await world.getBlockType(new Vec3(Math.floor(x), Math.floor(y), Math.floor(z)))
  const block = serv.registry.blocks[type] as { name: string; boundingBox: string } | undefined
  if (!block) return 'air'
  if (block.name === 'water') return 'water'
  if (block.name === 'lava') return 'lava'
  return block.boundingBox === 'block' ? 'solid' : 'air'
}

function toAngleByte(deg: number): number {
  let b = Math.floor(((((deg % 360) + 360) % 360) * 256) / 360)
  if (b > 127) b -= 256
  return b
}

async function step(serv: SquidServer, e: Creature, now: number): Promise<void> {
  const c = e.creature
  if (c.dead) return
  const reg = serv.registry.entitiesByName[c.name] as { width: number; height: number } | undefined
  const half = (reg?.width ?? 0.9) / 2
  const height = reg?.height ?? 1.4
  const brain = brains.get(c.name)
  const plan = brain?.(serv, e, now)
  const speed = plan?.speed ?? c.info.walkSpeed
  const pos = e.position
  const feet = await blockKind(serv, e, pos.x, pos.y + 0.01, pos.z)
  const inFluid = feet === 'water' || feet === 'lava'

  // horizontal intent toward the goal, knockback decays by ground friction (0.546) or air drag (0.91)
  let wantX = 0
  let wantZ = 0
  if (c.goal) {
    const dx = c.goal.x - pos.x
    const dz = c.goal.z - pos.z
    const d = Math.hypot(dx, dz)
    if (d < 0.4) c.goal = undefined
    else {
      wantX = (dx / d) * speed
      wantZ = (dz / d) * speed
    }
  }
  const friction = c.onGround ? 0.546 : 0.91
  const kx = c.motion.x * friction
  const kz = c.motion.z * friction
  let mx = Math.abs(kx) > Math.abs(wantX) ? kx : wantX
  let mz = Math.abs(kz) > Math.abs(wantZ) ? kz : wantZ
  if (inFluid) {
    mx *= 0.5
    mz *= 0.5
  }
  let my = inFluid ? Math.min(c.motion.y + 0.06, 0.12) : (c.motion.y - 0.08) * 0.98

  // horizontal collisions (leading edge, feet and body), with a jump up one-block steps
  let nx = pos.x
  let nz = pos.z
  for (const axis of ['x', 'z'] as const) {
    const m = axis === 'x' ? mx : mz
    if (m === 0) continue
    const tx = axis === 'x' ? pos.x + m + Math.sign(m) * half : pos.x
    const tz = axis === 'z' ? pos.z + m + Math.sign(m) * half : pos.z
    let blocked = false
    for (let dy = 0; dy < Math.ceil(height); dy++)
      if ((await blockKind(serv, e, tx, pos.y + 0.01 + dy, tz)) === 'solid') {
        blocked = true
        break
      }
    if (!blocked) {
      if (axis === 'x') nx = pos.x + m
      else nz = pos.z + m
      continue
    }
    if (axis === 'x') mx = 0
    else mz = 0
    const stepFree =
      (await blockKind(serv, e, tx, pos.y + 1.01, tz)) !== 'solid' &&
      (await blockKind(serv, e, tx, pos.y + 1.01 + Math.ceil(height) - 1, tz)) !== 'solid'
    if ((c.onGround || inFluid) && stepFree && (await blockKind(serv, e, tx, pos.y + 0.01, tz)) === 'solid') my = 0.42
    else if (!stepFree) c.goal = undefined
  }

  // vertical: land on solid blocks, bump heads
  let ny = pos.y + my
  let onGround = false
  if (my <= 0) {
    if ((await blockKind(serv, e, nx, ny, nz)) === 'solid') {
      ny = Math.floor(ny) + 1
      my = 0
      onGround = true
    }
  } else if ((await blockKind(serv, e, nx, ny + height, nz)) === 'solid') {
    ny = pos.y
    my = 0
  }

  // fall damage like vanilla: blocks fallen − 3, none into fluids
  if (!onGround && !inFluid && c.fallStartY === undefined && my < 0) c.fallStartY = pos.y
  if (inFluid) c.fallStartY = undefined
  if (onGround && c.fallStartY !== undefined) {
    const fell = c.fallStartY - ny
    c.fallStartY = undefined
    if (fell > 3.5) hurtCreature(serv, e, Math.floor(fell - 3), DAMAGE_TYPE.fall!)
  }
  if (feet === 'lava') hurtCreature(serv, e, 4, DAMAGE_TYPE.lava!)

  c.motion = new Vec3(Math.abs(kx) > Math.abs(wantX) ? kx : 0, my, Math.abs(kz) > Math.abs(wantZ) ? kz : 0)
  c.onGround = onGround
  if (ny < -128) {
    removeCreature(serv, e)
    return
  }

  // the awaits above may have outlived the creature: never move a removed entity (the client would invent one)
  if (c.dead || serv.entities[e.id] !== e) return
  const moved = Math.hypot(nx - pos.x, nz - pos.z)
  if (moved > 0.01 && (wantX !== 0 || wantZ !== 0)) {
    const yaw = toAngleByte((Math.atan2(-wantX, wantZ) * 180) / Math.PI)
    if (yaw !== e.yaw) {
      e.yaw = yaw
      const others = e._writeOthersNearby as (n: string, p: Record<string, unknown>) => void
      others('entity_look', { entityId: e.id, yaw, pitch: 0, onGround })
      others('entity_head_rotation', { entityId: e.id, headYaw: yaw })
    }
  }
  const next = new Vec3(nx, ny, nz)
  if (!next.equals(pos) || e.onGround !== onGround)
    await (e.sendPosition as (p: Vec3, g: boolean) => Promise<unknown>)(next, onGround)
}

/** Start the creature tick once per server (idempotent). */
export function startCreatureAI(serv: SquidServer): void {
  if (serv.practiceCreatureAI) return
  serv.practiceCreatureAI = true
  // every mechanic plugin listens to the server tick: more than Node's default 10 listeners is expected, not a leak
  const emitter = serv as unknown as { getMaxListeners(): number; setMaxListeners(n: number): void }
  emitter.setMaxListeners(Math.max(emitter.getMaxListeners(), 50))
  let busy = false
  serv.on('tick', () => {
    if (busy) return
    busy = true
    const now = Date.now()
    // like vanilla, only creatures near a player are ticked
    const active = creatures(serv).filter((e) =>
      serv.players.some((p) => p.world === e.world && p.position.distanceTo(e.position) < ACTIVE_DISTANCE),
    )
    Promise.all(
      active.map((e) =>
        step(serv, e, now).catch((err: unknown) => {
          process.stderr.write(`creature ${e.id} step failed: ${err instanceof Error ? err.message : String(err)}\n`)
        }),
      ),
    ).finally(() => {
      busy = false
    })
  })
}
