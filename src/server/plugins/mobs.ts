/**
 * Hostile mobs: zombies. At night (and only with natural spawning on) zombies spawn on the surface 24–64 blocks
 * from players while fewer than `ZOMBIE_CAP` are within 64 blocks; any zombie (summoned ones too) walks straight
 * toward the nearest survival player within 35 blocks, hits for vanilla damage by difficulty (easy 2, normal 3,
 * hard 4.5) at most once a second when within reach, and burns in daylight (on fire, 1 damage per second) — or
 * is simply removed at day when no player is within 32 blocks. Movement and physics come from ../mobs/ai.ts.
 */
import type { SquidPlugin, SquidServer } from '../squid.js'
import { registerBrain, startCreatureAI } from '../mobs/ai.js'
import {
  alivePlayers,
  creatures,
  DAMAGE_TYPE,
  hurtCreature,
  removeCreature,
  spawnCreature,
  type Creature,
} from '../mobs/creature.js'
import { naturalSpawning } from '../mobs/practice.js'
import { creaturesNear, findSurface, randomColumnAround } from '../mobs/spawning.js'
import { NATURAL_CREATURE_LIMIT } from './animals.js'
import { hurtPlayer } from './health.js'
import { isNight } from './time.js'

export const ZOMBIE_CAP = 6
const FOLLOW_RANGE = 35
const ATTACK_COOLDOWN_MS = 1000
const SPAWN_EVERY_TICKS = 20
/** Entity flags (metadata index 0): 0x01 = on fire. */
const FLAGS_INDEX = 0

export function zombieDamage(serv: SquidServer): number {
  const d = Number(serv.difficulty ?? 1)
  return d >= 3 ? 4.5 : d === 2 ? 3 : d === 1 ? 2 : 0
}

function setBurning(e: Creature, burning: boolean): void {
  if (Boolean(e.practiceBurning) === burning) return
  e.practiceBurning = burning
  const entry = { key: FLAGS_INDEX, type: 'byte', value: burning ? 0x01 : 0 }
  ;(e._writeOthersNearby as (n: string, p: Record<string, unknown>) => void)('entity_metadata', {
    entityId: e.id,
    metadata: [entry],
  })
}

function zombieBrain(serv: SquidServer, e: Creature, now: number): { speed: number } {
  const c = e.creature
  const day = !isNight(serv)
  if (day) {
    const watched = alivePlayers(serv).some((p) => p.world === e.world && p.position.distanceTo(e.position) < 32)
    if (!watched && e.practiceNatural) {
      removeCreature(serv, e)
      return { speed: 0 }
    }
    setBurning(e, true)
    if (now - (c.lastBurnAt ?? 0) >= 1000) {
      c.lastBurnAt = now
      hurtCreature(serv, e, 1, DAMAGE_TYPE.on_fire!)
    }
  } else setBurning(e, false)
  let target
  let best = FOLLOW_RANGE
  for (const p of alivePlayers(serv)) {
    if (p.world !== e.world) continue
    const d = p.position.distanceTo(e.position)
    if (d < best) {
      best = d
      target = p
    }
  }
  if (!target) {
    if (c.nextThinkAt <= now) {
      c.nextThinkAt = now + 4000 + Math.random() * 4000
      const a = Math.random() * Math.PI * 2
      c.goal = Math.random() < 0.5 ? e.position.offset(Math.cos(a) * 5, 0, Math.sin(a) * 5) : undefined
    }
    return { speed: c.info.walkSpeed * 0.6 }
  }
  const horizontal = Math.hypot(target.position.x - e.position.x, target.position.z - e.position.z)
  c.goal = horizontal > 0.8 ? target.position.clone() : undefined
  const reach = horizontal < 1.6 && Math.abs(target.position.y - e.position.y) < 1.5
  if (reach && now >= c.attackReadyAt) {
    c.attackReadyAt = now + ATTACK_COOLDOWN_MS
    ;(e._writeOthersNearby as (n: string, p: Record<string, unknown>) => void)('animation', {
      entityId: e.id,
      animation: 0,
    })
    const dmg = zombieDamage(serv)
    if (dmg > 0) hurtPlayer(serv, target, dmg, 'mob_attack', e)
  }
  return { speed: c.info.walkSpeed }
}

const plugin: SquidPlugin = {
  name: 'mobs',
  server(serv) {
    startCreatureAI(serv)
    registerBrain('zombie', zombieBrain)
    let spawning = false
    serv.on('tick', (_delta: number, count: number) => {
      if (count % SPAWN_EVERY_TICKS !== 0 || spawning || !isNight(serv) || !naturalSpawning(serv, plugin.name)) return
      if (Number(serv.difficulty ?? 1) <= 0 || creatures(serv).length >= NATURAL_CREATURE_LIMIT) return
      const candidates = alivePlayers(serv).filter(
        (p) => creaturesNear(serv, p.position, 64, (e) => e.creature.info.hostile).length < ZOMBIE_CAP,
      )
      if (candidates.length === 0 || Math.random() > 0.5) return
      const player = candidates[Math.floor(Math.random() * candidates.length)]!
      spawning = true
      const col = randomColumnAround(player)
      findSurface(serv, player.world, col.x, col.z, player.position.y)
        .then((spot) => {
          if (!spot) return
          const z = spawnCreature(serv, 'zombie', player.world, spot.pos)
          if (z) z.practiceNatural = true
        })
        .catch(() => {
          /* chunk not available */
        })
        .finally(() => {
          spawning = false
        })
    })
  },
}
export default plugin
