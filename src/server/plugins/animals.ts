/**
 * Farm animals: cows, pigs, sheep and chickens. Brains for the creature tick (idle, then wander to a random spot a
 * few blocks away; panic — run faster away from the attacker — for a few seconds after being hurt), the herds that
 * vanilla places at chunk generation (../mobs/herds.ts: woken near players, put back to rest when they are far),
 * natural spawning of vanilla-like groups (2–4 of one kind) on grass 24–64 blocks from players while fewer than
 * `ANIMAL_CAP` animals are within 64 blocks (switch both off with `practice: { naturalSpawning: false }`, the herds
 * alone with `practice: { herds: false }`), shearing
 * sheep with shears (1–3 white wool, sheep shown sheared) and milking cows with a bucket (bucket → milk_bucket),
 * both from the client's `use_entity` interact. Loot and death are in ../mobs/creature.ts.
 */
import { Vec3 } from 'vec3'
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid.js'
import { exchangeOne, inventory, spawnItemEntity } from '../items.js'
import { registerBrain, startCreatureAI } from '../mobs/ai.js'
import { creatures, isCreature, playSound, removeCreature, spawnCreature, type Creature } from '../mobs/creature.js'
import { naturalSpawning, practiceOptions } from '../mobs/practice.js'
import { creaturesNear, findSurface, randomColumnAround } from '../mobs/spawning.js'
import { ANIMALS, animalKind, decideAround, isAnimalName, rest, wakeNear } from '../mobs/herds.js'

/**
 * Spawned animals allowed within 64 blocks of a player before natural spawning stops (vanilla's creature cap is
 * 10/chunk area). Herd animals are not counted: counted, they kept the spawns off a desert's grassy edge, where a
 * cow seen from the desert stands (bench mp5 c33, 2-3 "a cow in the desert": 1/3, against 3/3 before the herds).
 */
export const ANIMAL_CAP = 10
const SPAWN_EVERY_TICKS = 40
/** Natural spawning stops when this many creatures exist in total (flying-squid refuses entities past 200). */
export const NATURAL_CREATURE_LIMIT = 80
/**
 * Herd animals awake at once, all players together: the rest of NATURAL_CREATURE_LIMIT stays free for the night's
 * zombies (vanilla counts animals and monsters against separate caps) and for the animals spawned near players.
 */
const HERD_AWAKE_LIMIT = 48
/** Naturally spawned animals this far from every player are removed, so travelling does not pile them up. */
const FORGET_DISTANCE = 128
const PANIC_MS = 4000
/** Sheep metadata: index 17 holds colour (low 4 bits) and the sheared flag 0x10 (1.20.2 entity metadata). */
const SHEEP_WOOL_INDEX = 17

interface AnimalMind {
  panicUntil: number
  fleeFrom?: Vec3
}
function mind(e: Creature): AnimalMind {
  let m = e.animalMind as AnimalMind | undefined
  if (!m) {
    m = { panicUntil: 0 }
    e.animalMind = m
  }
  return m
}

function wander(_serv: SquidServer, e: Creature, now: number): { speed: number } {
  const c = e.creature
  const m = mind(e)
  if (now < m.panicUntil) {
    if (!c.goal || c.nextThinkAt <= now) {
      const away = m.fleeFrom ? e.position.minus(m.fleeFrom) : new Vec3(Math.random() - 0.5, 0, Math.random() - 0.5)
      const len = Math.hypot(away.x, away.z) || 1
      const jitter = (Math.random() - 0.5) * 0.8
      const ax = away.x / len
      const az = away.z / len
      c.goal = e.position.offset(
        (ax * Math.cos(jitter) - az * Math.sin(jitter)) * 6,
        0,
        (az * Math.cos(jitter) + ax * Math.sin(jitter)) * 6,
      )
      c.nextThinkAt = now + 1000
    }
    return { speed: c.info.walkSpeed * 2 }
  }
  if (c.nextThinkAt <= now) {
    c.nextThinkAt = now + 3000 + Math.random() * 5000
    if (Math.random() < 0.6) {
      const angle = Math.random() * Math.PI * 2
      const d = 3 + Math.random() * 5
      c.goal = e.position.offset(Math.cos(angle) * d, 0, Math.sin(angle) * d)
    } else c.goal = undefined
  }
  return { speed: c.info.walkSpeed }
}

function setSheared(e: Creature): void {
  e.creature.sheared = true
  const entry = { key: SHEEP_WOOL_INDEX, type: 'byte', value: 0x10 }
  e.metadata = [entry]
  ;(e._writeOthersNearby as (n: string, p: Record<string, unknown>) => void)('entity_metadata', {
    entityId: e.id,
    metadata: [entry],
  })
}

async function spawnGroupNear(serv: SquidServer, player: SquidPlayer): Promise<void> {
  const col = randomColumnAround(player)
  const spot = await findSurface(serv, player.world, col.x, col.z, player.position.y)
  if (spot?.ground !== 'grass_block') return
  const kind = animalKind(Math.random())
  const size = 2 + Math.floor(Math.random() * 3)
  for (let i = 0; i < size; i++) {
    const x = col.x + Math.floor(Math.random() * 5) - 2
    const z = col.z + Math.floor(Math.random() * 5) - 2
    const s = await findSurface(serv, player.world, x, z, spot.pos.y, 4)
    if (s?.ground !== 'grass_block') continue
    const animal = spawnCreature(serv, kind, player.world, s.pos)
    if (animal) animal.practiceNatural = true
  }
}

const isAnimal = (e: Creature): boolean => isAnimalName(e.creature.name)

/** Decide the herds of the chunks round every player, wake the resting animals near one (up to the creature limit). */
function tendHerds(serv: SquidServer, seed: number): void {
  const players = serv.players.filter((p) => p.health > 0)
  for (const p of players) decideAround(serv, seed, p.world, p.position)
  const all = creatures(serv)
  const awake = all.filter((e) => e.practiceHerd && !e.creature.dead).length
  const room = Math.min(NATURAL_CREATURE_LIMIT - all.length, HERD_AWAKE_LIMIT - awake)
  if (room <= 0) return
  for (const r of wakeNear(serv, players, room)) {
    const animal = spawnCreature(serv, r.kind, r.world, r.pos)
    if (!animal) {
      rest(serv, r.kind, r.world, r.pos) // the world is full: it waits
      continue
    }
    animal.practiceNatural = true
    animal.practiceHerd = true
  }
}

const plugin: SquidPlugin = {
  name: 'animals',
  server(serv) {
    startCreatureAI(serv)
    for (const a of ANIMALS) registerBrain(a, wander)
    serv.on('practiceCreatureHurt', (e: Creature, _amount: number, attacker?: { position: Vec3 }) => {
      if (!isAnimal(e)) return
      const m = mind(e)
      m.panicUntil = Date.now() + PANIC_MS
      m.fleeFrom = attacker?.position.clone()
      e.creature.nextThinkAt = 0
    })
    // sheared sheep keep looking sheared for players who come into range later
    serv.on('practiceCreatureSpawned', (e: Creature) => {
      e.sendMetadata = () => {
        if ((e.metadata as unknown[]).length)
          (e._writeOthersNearby as (n: string, p: Record<string, unknown>) => void)('entity_metadata', {
            entityId: e.id,
            metadata: e.metadata,
          })
      }
    })

    const options = practiceOptions(serv, plugin.name)
    const seed = Number(options.seed ?? 1)
    const herds = options.herds !== false
    let spawning = false
    serv.on('tick', (_delta: number, count: number) => {
      if (count % SPAWN_EVERY_TICKS !== 0 || spawning || !naturalSpawning(serv, plugin.name)) return
      for (const e of creatures(serv)) {
        if (!e.practiceNatural || e.creature.info.hostile || e.creature.dead) continue
        if (serv.players.some((p) => p.world === e.world && p.position.distanceTo(e.position) < FORGET_DISTANCE))
          continue
        // a herd animal rests where it stood (it comes back when a player does); a spawned one is gone
        const name = e.creature.name
        if (e.practiceHerd && isAnimalName(name)) rest(serv, name, e.world, e.position)
        removeCreature(serv, e)
      }
      if (herds) tendHerds(serv, seed)
      if (creatures(serv).length >= NATURAL_CREATURE_LIMIT) return
      const candidates = serv.players.filter(
        (p) =>
          p.health > 0 &&
          creaturesNear(serv, p.position, 64, (e) => isAnimal(e) && !e.practiceHerd).length < ANIMAL_CAP,
      )
      if (candidates.length === 0) return
      spawning = true
      const player = candidates[Math.floor(Math.random() * candidates.length)]!
      spawnGroupNear(serv, player)
        .catch(() => {
          /* chunk not available: try again later */
        })
        .finally(() => {
          spawning = false
        })
    })
  },
  player(player, serv) {
    player._client.on('use_entity', (packet: { target: number; mouse: number; hand?: number }) => {
      if (packet.mouse !== 0) return // 0 = interact (the client also sends 2 = interact_at first)
      const e = serv.entities[packet.target]
      if (!isCreature(e) || e.creature.dead || player.health <= 0) return
      if (e.position.distanceTo(player.position) > 6) return
      const slot = packet.hand === 1 ? 45 : 36 + Number(player.heldItemSlot ?? 0)
      const held = inventory(player).slots[slot]
      const heldName = held ? (serv.registry.items[held.type] as { name: string } | undefined)?.name : undefined
      if (e.creature.name === 'sheep' && heldName === 'shears' && !e.creature.sheared) {
        setSheared(e)
        const wool = serv.registry.itemsByName.white_wool.id as number
        spawnItemEntity(serv, e.world, e.position.offset(0, 1, 0), wool, 1 + Math.floor(Math.random() * 3))
        playSound(serv, 'entity.sheep.shear', e.world, e.position, 'player')
      } else if (e.creature.name === 'cow' && heldName === 'bucket') {
        exchangeOne(serv, player, slot, serv.registry.itemsByName.milk_bucket.id as number)
        playSound(serv, 'entity.cow.milk', e.world, e.position, 'player')
      }
    })
  },
}
export default plugin
