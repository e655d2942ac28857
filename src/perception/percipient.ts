/**
 * The percipient (after MP5): one query API over what the bot can perceive, without x-ray — blocks in sight (first
 * block hit by rays cast from the eyes, nearest distance and direction per type), entities in sight (type, distance,
 * hostile or not), the biome it stands in, time of day (day, dusk, night), weather (clear, rain, thunder), light
 * level and brightness, y-level and surface/underground, water or lava nearby. Answers are JSON (`Percept`) and
 * compact text (`describePercept`); `createSenses` adapts it to the patroller's Senses port.
 */
import type { Bot } from 'mineflayer'
import { Vec3 } from 'vec3'
import { z } from 'zod'
import type { Senses } from '../agent/ports.js'
import { dayTime } from '../util/daytime.js'
import { Brightness, NEAR_BLOCKS, TimeOfDay, Weather, type Conditions } from '../schemas/goal.js'
import { leftStationNear } from './own-stations.js'
import { biomeAt, canSeeEntity, eyes, isUnderground, VIEW_DISTANCE, visibleBlocks, visibleEntities } from './vision.js'
import { findBlocksFast } from './find.js'
import { inBiome, resolveTarget } from '../actions/names.js'
import { searchIds } from '../actions/ore-band.js'
import { hostilesNear, isHostileMob } from '../actions/threats.js'

export const Percept = z.object({
  position: z.object({ x: z.number(), y: z.number(), z: z.number() }),
  y: z.number(),
  underground: z.boolean(),
  biome: z.string(),
  time: z.object({ phase: TimeOfDay, timeOfDay: z.number() }),
  weather: Weather,
  light: z.object({ level: z.number(), brightness: Brightness }),
  blocks: z.array(z.object({ name: z.string(), distance: z.number(), direction: z.string(), count: z.number() })),
  entities: z.array(z.object({ name: z.string(), distance: z.number(), direction: z.string(), hostile: z.boolean() })),
  water: z.number().nullable(),
  lava: z.number().nullable(),
})
export type Percept = z.infer<typeof Percept>

const IGNORED = new Set(['air', 'cave_air', 'void_air'])
const DIRS = ['south', 'south-west', 'west', 'north-west', 'north', 'north-east', 'east', 'south-east']

function direction(from: Vec3, to: Vec3): string {
  const dx = to.x - from.x,
    dz = to.z - from.z,
    dy = to.y - from.y
  if (Math.abs(dx) < 1 && Math.abs(dz) < 1) return dy > 0 ? 'above' : 'below'
  const angle = Math.atan2(-dx, dz) // 0 = south (+z), clockwise toward west
  const i = ((Math.round(angle / (Math.PI / 4)) % 8) + 8) % 8
  return DIRS[i]!
}

export function phaseOf(timeOfDay: number): TimeOfDay {
  const t = dayTime(timeOfDay)
  if (t < 12000 || t >= 23500) return 'day'
  if (t < 13000 || t >= 22500) return 'dusk'
  return 'night'
}

export function weatherOf(bot: Bot): Weather {
  if (bot.thunderState > 0.5) return 'thunder'
  return bot.isRaining ? 'rain' : 'clear'
}

/** Rays from the eyes on a sphere of directions; the first solid block each ray hits is in sight. */
function blocksInSight(bot: Bot, radius: number): Map<string, { distance: number; at: Vec3; count: number }> {
  const from = eyes(bot)
  const seen = new Map<string, { distance: number; at: Vec3; count: number }>()
  const world = bot.world as unknown as {
    raycast(from: Vec3, dir: Vec3, range: number): { name: string; position: Vec3 } | null
  }
  for (let pitchStep = -6; pitchStep <= 6; pitchStep++) {
    const pitch = (pitchStep / 6) * (Math.PI / 2) * 0.95
    const n = Math.max(4, Math.round(32 * Math.cos(pitch)))
    for (let i = 0; i < n; i++) {
      const yaw = (i / n) * Math.PI * 2
      const dir = new Vec3(-Math.sin(yaw) * Math.cos(pitch), Math.sin(pitch), Math.cos(yaw) * Math.cos(pitch))
      const hit = world.raycast(from, dir, radius)
      if (!hit || IGNORED.has(hit.name)) continue
      const d = hit.position.offset(0.5, 0.5, 0.5).distanceTo(from)
      const cur = seen.get(hit.name)
      if (!cur) seen.set(hit.name, { distance: d, at: hit.position, count: 1 })
      else {
        cur.count += 1
        if (d < cur.distance) {
          cur.distance = d
          cur.at = hit.position
        }
      }
    }
  }
  return seen
}

/** Where and when: the biome, time, weather and light at the bot (what a context condition is checked against). */
function situation(bot: Bot): Pick<Percept, 'biome' | 'time' | 'weather' | 'light'> {
  const pos = bot.entity.position
  const here = bot.blockAt(pos.offset(0, 1, 0).floored())
  const timeOfDay = bot.time.timeOfDay
  const phase = phaseOf(timeOfDay)
  const weather = weatherOf(bot)
  const sky =
    (here?.skyLight ?? 0) - (phase === 'night' ? 11 : phase === 'dusk' ? 4 : 0) - (weather === 'clear' ? 0 : 3)
  const level = Math.max(here?.light ?? 0, sky, 0)
  return {
    biome: biomeAt(bot, pos),
    time: { phase, timeOfDay },
    weather,
    light: { level, brightness: level >= 8 ? 'sufficient' : 'dark' },
  }
}

export function perceive(bot: Bot, radius = 24): Percept {
  const pos = bot.entity.position
  const from = eyes(bot)
  const blocks = blocksInSight(bot, radius)
  const entities = Object.values(bot.entities)
    .filter((e) => e !== bot.entity && e.position.distanceTo(pos) <= radius && canSeeEntity(bot, e, radius))
    .map((e) => ({
      name: e.type === 'player' ? `player:${e.username ?? '?'}` : (e.name ?? 'unknown'),
      distance: Math.round(e.position.distanceTo(pos) * 10) / 10,
      direction: direction(pos, e.position),
      hostile: isHostileMob(bot, e),
    }))
    .sort((a, b) => a.distance - b.distance)
  const liquid = (name: string): number | null => {
    const [at] = findBlocksFast(bot, new Set([bot.registry.blocksByName[name]!.id]), 16, 1)
    return at ? Math.round(at.distanceTo(pos) * 10) / 10 : null
  }
  return {
    position: { x: Math.floor(pos.x), y: Math.floor(pos.y), z: Math.floor(pos.z) },
    y: Math.floor(pos.y),
    underground: isUnderground(bot),
    ...situation(bot),
    blocks: [...blocks]
      .map(([name, v]) => ({
        name,
        distance: Math.round(v.distance * 10) / 10,
        direction: direction(from, v.at),
        count: v.count,
      }))
      .sort((a, b) => a.distance - b.distance),
    entities,
    water: liquid('water'),
    lava: liquid('lava'),
  }
}

export function describePercept(p: Percept, what: 'look' | 'where'): string {
  if (what === 'where') {
    return `At ${p.position.x} ${p.position.y} ${p.position.z} (${p.underground ? 'underground' : 'on the surface'}) in ${p.biome}; ${p.time.phase}, ${p.weather}, light ${p.light.level} (${p.light.brightness}).`
  }
  const blocks = p.blocks
    .slice(0, 8)
    .map((b) => `${b.name} ${b.distance}m ${b.direction}`)
    .join(', ')
  const ents = p.entities
    .slice(0, 6)
    .map((e) => `${e.hostile ? '!' : ''}${e.name} ${e.distance}m ${e.direction}`)
    .join(', ')
  const liquids = [p.water !== null ? `water ${p.water}m` : '', p.lava !== null ? `LAVA ${p.lava}m` : '']
    .filter(Boolean)
    .join(', ')
  return `I see: ${blocks || 'nothing'}.${ents ? ` Creatures: ${ents}.` : ''}${liquids ? ` Nearby: ${liquids}.` : ''}`
}

interface Sighting {
  /** Distance from the bot (a block's from its centre; a biome's is 0). */
  distance: number
  /** Where: an entity's feet, a block's position, the bot's own position for a biome. */
  at: Vec3
}

interface Around {
  point: Vec3
  radius: number
}
/** Up to `count` visible instances, nearest the bot first; `around` keeps those within `radius` of a point. */
type Sightings = (count: number, around?: Around) => Sighting[]

/**
 * A lookup of the visible instances of a block, entity or biome name, the name resolved once (a pair check looks
 * around up to 16 instances, every 250 ms while exploring). For a block every variant counts, as for explore
 * (deepslate_diamond_ore for diamond_ore). An unknown name is never seen.
 */
function sightingsOf(bot: Bot, name: string): Sightings {
  let target
  try {
    target = resolveTarget(bot, name)
  } catch {
    return () => []
  }
  const pos = (): Vec3 => bot.entity.position
  if (target.kind === 'entity') {
    const { names } = target
    return (count, around) =>
      visibleEntities(bot, names)
        .filter((e) => !around || e.position.distanceTo(around.point) <= around.radius)
        .slice(0, count)
        .map((e) => ({ distance: e.position.distanceTo(pos()), at: e.position }))
  }
  if (target.kind === 'biome') {
    const { names } = target
    return (_count, around) =>
      names.includes(biomeAt(bot, around?.point ?? pos())) ? [{ distance: 0, at: pos().clone() }] : []
  }
  const ids = searchIds(bot, target.block.blockNames).ids
  return (count, around) =>
    visibleBlocks(bot, ids, around?.radius ?? VIEW_DISTANCE, count, around?.point).map((b) => ({
      distance: b.position.offset(0.5, 0.5, 0.5).distanceTo(pos()),
      at: b.position,
    }))
}

/** Targets (and things to be near) looked at per check for a visible pair. */
const PAIR_CANDIDATES = 8

/**
 * The nearest visible instance of a block, entity or biome name (null when none is in sight). With `near`, only an
 * instance with a visible `near` within NEAR_BLOCKS of it counts (a pig with grass next to it): each of the nearest
 * targets is checked for a `near` around it, then each of the nearest `near`s for a target around it, so a pair
 * further off is found behind targets or `near`s that stand alone.
 */
export function nearestVisible(bot: Bot, name: string, near: string | null = null): Sighting | null {
  const target = sightingsOf(bot, name)
  if (near === null) return target(1)[0] ?? null
  const other = sightingsOf(bot, near)
  for (const t of target(PAIR_CANDIDATES)) if (other(1, { point: t.at, radius: NEAR_BLOCKS }).length > 0) return t
  for (const n of other(PAIR_CANDIDATES)) {
    const [t] = target(1, { point: n.at, radius: NEAR_BLOCKS })
    if (t) return t
  }
  return null
}

export function checkConditions(
  bot: Bot,
  c: Conditions,
  target: string,
): { met: boolean; unmet: string[]; observed: string } {
  const p = situation(bot)
  const unmet: string[] = []
  if (c.biome && !inBiome(bot, c.biome, p.biome)) unmet.push(`biome ${c.biome} (I am in ${p.biome})`)
  if (c.time && p.time.phase !== c.time) unmet.push(`time ${c.time} (it is ${p.time.phase})`)
  if (c.weather && p.weather !== c.weather) unmet.push(`weather ${c.weather} (it is ${p.weather})`)
  if (c.brightness && p.light.brightness !== c.brightness)
    unmet.push(`brightness ${c.brightness} (it is ${p.light.brightness})`)
  if (c.near && nearestVisible(bot, target, c.near) === null) unmet.push(`${c.near} near the ${target}`)
  const observed = `biome ${p.biome}, ${p.time.phase}, ${p.weather}, light ${p.light.level}`
  return { met: unmet.length === 0, unmet, observed }
}

/** The patroller's Senses over the supervisor's current bot. */
export function createSenses(getBot: () => Bot | null): Senses {
  const left = (bot: Bot, name: string): number | null => {
    const own = leftStationNear(bot, name, VIEW_DISTANCE)
    return own ? bot.entity.position.distanceTo(own.position.offset(0.5, 0.5, 0.5)) : null
  }
  return {
    nearestVisible(name, near = null) {
      const bot = getBot()
      if (!bot?.entity) return null
      const seen = nearestVisible(bot, name, near)?.distance ?? null
      // a station the bot left standing itself counts as seen: it knows where it stands (a furnace may hide it)
      const mine = near === null ? left(bot, name) : null
      return mine !== null && (seen === null || mine < seen) ? mine : seen
    },
    leftStation(name) {
      const bot = getBot()
      return bot?.entity ? left(bot, name) : null
    },
    held() {
      return getBot()?.heldItem?.name ?? null
    },
    position() {
      const bot = getBot()
      return bot?.entity ? bot.entity.position.clone() : null
    },
    locate(name) {
      const bot = getBot()
      if (!bot?.entity) return null
      return nearestVisible(bot, name)?.at ?? null
    },
    playerNear(name) {
      return getBot()?.players[name]?.entity !== undefined
    },
    hostilesNear(radius) {
      const bot = getBot()
      return bot?.entity ? hostilesNear(bot, bot.entity.position, radius).length : 0
    },
    blockCountNear(name, radius) {
      const bot = getBot()
      const b = bot?.registry.blocksByName[name]
      if (!bot || !b) return 0
      return findBlocksFast(bot, new Set([b.id]), radius, 4096).length
    },
    checkConditions(c, target) {
      const bot = getBot()
      if (!bot?.entity) return { met: false, unmet: ['connected to the server'], observed: 'not connected' }
      return checkConditions(bot, c, target)
    },
  }
}
