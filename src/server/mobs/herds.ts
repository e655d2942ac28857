/**
 * Herds placed at chunk generation, as vanilla places farm animals when it generates a chunk: while a seeded draw is
 * under `creature_spawn_probability` (0.1) the chunk gets a group of four of one kind (vanilla's farm-animal weights),
 * each on grass within the chunk. A chunk is decided once, from the world seed and its coordinates, the first time it
 * is loaded within HERD_CHUNKS chunks of a player; its animals then rest as records while no player is near (so a
 * plain keeps its animals without flying-squid holding hundreds of entities), wake as creatures when a player comes
 * within WAKE_DISTANCE, and go back to rest where they stood when every player is far (../plugins/animals.ts forgets
 * them). A killed animal does not come back. Pure decisions (`herdsOf`) apart from the world reads (`placeHerds`).
 */
import { Vec3 } from 'vec3'
import { hash, mulberry32 } from '../worldgen/noise.js'
import type { SquidServer } from '../squid.js'
import { surfaceInColumn, type SpawnColumn } from './spawning.js'

/** Vanilla's farm animals and their spawn weights (BiomeDefaultFeatures.farmAnimals, the kinds we have). */
export const ANIMAL_WEIGHTS = { sheep: 12, pig: 10, chicken: 10, cow: 8 } as const
export type AnimalKind = keyof typeof ANIMAL_WEIGHTS
export const ANIMALS = Object.keys(ANIMAL_WEIGHTS) as AnimalKind[]
/** Whether an entity or creature name is one of the farm animals. */
export const isAnimalName = (name: string | undefined): name is AnimalKind =>
  name !== undefined && Object.hasOwn(ANIMAL_WEIGHTS, name)

/** Vanilla's default `creature_spawn_probability`: the chance of each further group at chunk generation. */
const HERD_PROBABILITY = 0.1
/** Vanilla's farm-animal group size (min and max count 4). */
const HERD_SIZE = 4
/** Tries per animal to find grass, each a few blocks from the last spot (vanilla tries 4 times). */
const PLACE_TRIES = 4
/** Chunks this many from a player's chunk (each axis) are decided once they are loaded. */
export const HERD_CHUNKS = 4
/** Resting animals this near a player (blocks) wake as creatures. */
export const WAKE_DISTANCE = 64
const SALT = 0x68e7d5

/** A weighted pick of an animal kind from a number in [0, 1). */
export function animalKind(r: number): AnimalKind {
  const total = ANIMALS.reduce((n, k) => n + ANIMAL_WEIGHTS[k], 0)
  let x = r * total
  for (const k of ANIMALS) {
    x -= ANIMAL_WEIGHTS[k]
    if (x < 0) return k
  }
  return ANIMALS[ANIMALS.length - 1]!
}

/** One group planned in a chunk before the world is read: its kind and, per animal, the block columns to try. */
export interface HerdPlan {
  kind: AnimalKind
  /** Candidate columns for each animal, tried in order until one is grass. */
  spots: { x: number; z: number }[][]
}

/** The groups vanilla-like generation gives chunk cx/cz of the world `seed` (none in 9 chunks of 10). */
export function herdsOf(seed: number, cx: number, cz: number): HerdPlan[] {
  const rng = mulberry32(hash(seed, cx, cz, SALT))
  const plans: HerdPlan[] = []
  const x0 = cx * 16
  const z0 = cz * 16
  const inChunk = (v: number): number => Math.min(15, Math.max(0, v))
  while (rng() < HERD_PROBABILITY && plans.length < 3) {
    const kind = animalKind(rng())
    let x = Math.floor(rng() * 16)
    let z = Math.floor(rng() * 16)
    const spots: { x: number; z: number }[][] = []
    for (let i = 0; i < HERD_SIZE; i++) {
      const tries: { x: number; z: number }[] = []
      for (let t = 0; t < PLACE_TRIES; t++) {
        x = inChunk(x + Math.floor(rng() * 5) - Math.floor(rng() * 5))
        z = inChunk(z + Math.floor(rng() * 5) - Math.floor(rng() * 5))
        tries.push({ x: x0 + x, z: z0 + z })
      }
      spots.push(tries)
    }
    plans.push({ kind, spots })
  }
  return plans
}

/** An animal at rest: no entity, only where it stands. */
export interface Resting {
  kind: AnimalKind
  world: unknown
  pos: Vec3
}

/** The resting animals of `plans` that find grass in the loaded column data (none where the chunk is sand or rock). */
export function placeHerds(serv: SquidServer, world: unknown, column: SpawnColumn, plans: HerdPlan[]): Resting[] {
  const out: Resting[] = []
  for (const plan of plans)
    for (const tries of plan.spots) {
      for (const s of tries) {
        const spot = surfaceInColumn(serv, column, s.x, s.z)
        if (spot?.ground !== 'grass_block') continue
        out.push({ kind: plan.kind, world, pos: spot.pos })
        break
      }
    }
  return out
}

/** The chunks decided so far and the animals resting, per server. */
export interface HerdBook {
  decided: Set<string>
  resting: Resting[]
}

const books = new WeakMap<SquidServer, HerdBook>()
export function herdBook(serv: SquidServer): HerdBook {
  let b = books.get(serv)
  if (!b) {
    b = { decided: new Set(), resting: [] }
    books.set(serv, b)
  }
  return b
}

/** Decide every loaded, undecided chunk within HERD_CHUNKS of `at` in `world` (seed: the world's). */
export function decideAround(serv: SquidServer, seed: number, world: unknown, at: Vec3): void {
  const book = herdBook(serv)
  const w = world as { getLoadedColumn(x: number, z: number): SpawnColumn | null | undefined }
  const pcx = Math.floor(at.x / 16)
  const pcz = Math.floor(at.z / 16)
  for (let cx = pcx - HERD_CHUNKS; cx <= pcx + HERD_CHUNKS; cx++)
    for (let cz = pcz - HERD_CHUNKS; cz <= pcz + HERD_CHUNKS; cz++) {
      const key = `${cx},${cz}`
      if (book.decided.has(key)) continue
      const column = w.getLoadedColumn(cx, cz)
      if (!column) continue
      book.decided.add(key)
      const plans = herdsOf(seed, cx, cz)
      if (plans.length > 0) book.resting.push(...placeHerds(serv, world, column, plans))
    }
}

/** Take out of the book the resting animals within WAKE_DISTANCE of one of `near` (same world), nearest first, to be spawned. */
export function wakeNear(serv: SquidServer, near: { world: unknown; position: Vec3 }[], max: number): Resting[] {
  const book = herdBook(serv)
  const distance = (r: Resting): number =>
    Math.min(...near.filter((p) => p.world === r.world).map((p) => p.position.distanceTo(r.pos)))
  const woken = book.resting
    .map((r) => ({ r, d: distance(r) }))
    .filter((c) => c.d <= WAKE_DISTANCE)
    .sort((a, b) => a.d - b.d)
    .slice(0, Math.max(0, max))
    .map((c) => c.r)
  if (woken.length > 0) {
    const taken = new Set(woken)
    book.resting = book.resting.filter((r) => !taken.has(r))
  }
  return woken
}

/** Put an animal back to rest where it stands. */
export function rest(serv: SquidServer, kind: AnimalKind, world: unknown, pos: Vec3): void {
  herdBook(serv).resting.push({ kind, world, pos: new Vec3(Math.floor(pos.x) + 0.5, pos.y, Math.floor(pos.z) + 0.5) })
}
