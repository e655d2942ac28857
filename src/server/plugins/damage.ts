/**
 * Environmental damage for players, as vanilla: fall damage on landing (⌈fall distance − 3⌉, none into water, the
 * distance accumulated from the client's position packets and reset by teleports), lava (4 per 0.5 s while in it,
 * then burning for 15 s), fire blocks (1 and 8 s of burning), burning (1 per second until it ends or water puts it
 * out), drowning (300 ticks of air shown through the air-supply metadata, then 2 damage per second) and
 * suffocation (1 per 0.5 s while the head is inside a full solid block). Damage goes through `hurtPlayer`.
 */
import { Vec3 } from 'vec3'
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid.js'
import { hurtPlayer, isDead } from './health.js'

const MAX_AIR = 300
const LAVA_BURN_MS = 15_000
const FIRE_BURN_MS = 8_000
/** Entity metadata index 1 = air supply (varint), 1.20.2. */
const AIR_INDEX = 1

interface EnvState {
  fallDistance: number
  lastY?: number
  air: number
  burnUntil: number
  lastBurnAt: number
  lastWallAt: number
  lastDrownAt: number
  busy: boolean
}

function state(player: SquidPlayer): EnvState {
  let s = player.practiceEnv as EnvState | undefined
  if (!s) {
    s = { fallDistance: 0, air: MAX_AIR, burnUntil: 0, lastBurnAt: 0, lastWallAt: 0, lastDrownAt: 0, busy: false }
    player.practiceEnv = s
  }
  return s
}

/** Forget any fall in progress (teleports, respawn). */
export function resetFall(player: SquidPlayer): void {
  const s = state(player)
  s.fallDistance = 0
  s.lastY = undefined
}

async function kindAt(serv: SquidServer, player: SquidPlayer, p: Vec3): Promise<{ name: string; solid: boolean }> {
  const type = await (player.world as unknown as { getBlockType(p: Vec3): Promise<number> }).getBlockType(p.floored())
  const b = serv.registry.blocks[type] as { name: string; boundingBox: string } | undefined
  return { name: b?.name ?? 'air', solid: b?.boundingBox === 'block' }
}

async function onPosition(
  serv: SquidServer,
  player: SquidPlayer,
  packet: { x: number; y: number; z: number; onGround: boolean },
): Promise<void> {
  const s = state(player)
  if (isDead(player) || player.gameMode === 1 || player.gameMode === 3) {
    resetFall(player)
    return
  }
  const last = s.lastY
  s.lastY = packet.y
  if (last === undefined) return
  const dy = packet.y - last
  if (Math.abs(dy) > 10) {
    s.fallDistance = 0
    return
  } // teleported
  const feet = await kindAt(serv, player, new Vec3(packet.x, packet.y + 0.1, packet.z))
  if (
    feet.name === 'water' ||
    feet.name === 'lava' ||
    feet.name === 'cobweb' ||
    feet.name === 'ladder' ||
    feet.name === 'vine'
  ) {
    s.fallDistance = 0
    return
  }
  if (dy < 0) s.fallDistance -= dy
  if (packet.onGround) {
    const damage = Math.ceil(s.fallDistance - 3)
    s.fallDistance = 0
    if (damage > 0) hurtPlayer(serv, player, damage, 'fall')
  }
}

function sendAir(player: SquidPlayer, air: number): void {
  const entry = { key: AIR_INDEX, type: 'int', value: air }
  player._client.write('entity_metadata', { entityId: player.id, metadata: [entry] })
}

async function tickPlayer(serv: SquidServer, player: SquidPlayer, tick: number): Promise<void> {
  const s = state(player)
  if (isDead(player) || player.gameMode === 1 || player.gameMode === 3) {
    s.burnUntil = 0
    return
  }
  const now = Date.now()
  const feet = await kindAt(serv, player, player.position.offset(0, 0.1, 0))
  const body = await kindAt(serv, player, player.position.offset(0, 1, 0))
  const eyes = await kindAt(serv, player, player.position.offset(0, 1.62, 0))
  const inLava = feet.name === 'lava' || body.name === 'lava'
  const inWater = feet.name === 'water' || body.name === 'water'
  player.practiceInWater = inWater
  if (inLava) {
    hurtPlayer(serv, player, 4, 'lava')
    s.burnUntil = now + LAVA_BURN_MS
  } else if (feet.name === 'fire' || body.name === 'fire') {
    hurtPlayer(serv, player, 1, 'in_fire')
    s.burnUntil = Math.max(s.burnUntil, now + FIRE_BURN_MS)
  }
  if (inWater) s.burnUntil = 0
  if (s.burnUntil > now && !inLava && now - s.lastBurnAt >= 1000) {
    s.lastBurnAt = now
    hurtPlayer(serv, player, 1, 'on_fire')
  }
  // drowning: air goes down a tick at a time under water, comes back 4 per tick outside
  const before = s.air
  if (eyes.name === 'water') {
    s.air -= 1
    if (s.air <= -20) {
      s.air = 0
      hurtPlayer(serv, player, 2, 'drown')
    }
  } else s.air = Math.min(MAX_AIR, s.air + 4)
  if (s.air !== before && (tick % 5 === 0 || s.air === MAX_AIR)) sendAir(player, Math.max(0, s.air))
  // suffocation: head inside a full block
  if (eyes.solid && now - s.lastWallAt >= 500) {
    s.lastWallAt = now
    hurtPlayer(serv, player, 1, 'in_wall')
  }
}

const plugin: SquidPlugin = {
  name: 'damage',
  server(serv) {
    serv.on('tick', (_delta: number, count: number) => {
      for (const p of serv.players) {
        const s = state(p)
        if (s.busy) continue
        s.busy = true
        tickPlayer(serv, p, count)
          .catch(() => {
            /* chunk gone (player left) */
          })
          .finally(() => {
            s.busy = false
          })
      }
    })
    serv.on('practicePlayerRespawned', (p: SquidPlayer) => {
      resetFall(p)
      const s = state(p)
      s.air = MAX_AIR
      s.burnUntil = 0
    })
  },
  player(player, serv) {
    let chain = Promise.resolve()
    const onMove = (packet: { x: number; y: number; z: number; onGround: boolean }): void => {
      // keep packets in order: each landing must see the fall accumulated before it
      chain = chain
        .then(() => onPosition(serv, player, packet))
        .catch(() => {
          /* chunk gone */
        })
    }
    player._client.on('position', onMove)
    player._client.on('position_look', onMove)
    player._client.on('teleport_confirm', () => {
      chain = chain.then(() => resetFall(player))
    })
    player._client.on('flying', (packet: { onGround: boolean }) => {
      const y = state(player).lastY
      if (y !== undefined) onMove({ x: player.position.x, y, z: player.position.z, onGround: packet.onGround })
    })
  },
}
export default plugin
