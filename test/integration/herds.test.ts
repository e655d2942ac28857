/**
 * The herds of chunk generation on a real practice server (src/server/mobs/herds.ts through the animals plugin): a
 * player who comes to a chunk the seed gives a herd sees its animals spawn where the generator, run here in the
 * test, puts them; once the player is far they rest, and they come back where they stood when the player returns;
 * a herd killed does not come back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Bot } from 'mineflayer'
import type { Vec3 } from 'vec3'
import { command, joinPlayer, quit, startServer, syncWithServer, VERSION } from '../helpers/world.js'
import { waitFor } from '../../src/util/async.js'
import type { ServerHandle } from '../../src/server/process.js'
import { herdsOf, isAnimalName, placeHerds, WAKE_DISTANCE, type Resting } from '../../src/server/mobs/herds.js'
import type { SpawnColumn } from '../../src/server/mobs/spawning.js'
import { PracticeWorld } from '../../src/server/worldgen/generator.js'
import type { SquidServer } from '../../src/server/squid.js'

const SEED = 7
const gen = PracticeWorld.forVersion(SEED, VERSION)
const genServ = { registry: gen.registry } as unknown as SquidServer

/** The animals the generator rests in chunk cx/cz (one group only, so a site is one kind). */
function siteAt(cx: number, cz: number): Resting[] | null {
  const plans = herdsOf(SEED, cx, cz)
  if (plans.length !== 1) return null
  const column = gen.toChunk(gen.generate(cx, cz)) as unknown as SpawnColumn
  const animals = placeHerds(genServ, null, column, plans)
  return animals.length >= 3 ? animals : null
}

/** The first one-group site with 3+ animals on a line of chunks going east from chunk x `fromCx` (z chunk `cz`). */
function siteFrom(fromCx: number, cz: number): Resting[] {
  for (let cx = fromCx; cx < fromCx + 200; cx++) {
    const s = siteAt(cx, cz)
    if (s) return s
  }
  throw new Error(`no herd site east of chunk ${fromCx}, ${cz} for seed ${SEED}`)
}

let server: ServerHandle
let bot: Bot
const spawns: { id: number; name: string; pos: Vec3 }[] = []

beforeAll(async () => {
  server = await startServer({ seed: SEED })
  bot = await joinPlayer(server, 'Rancher')
  bot.on('entitySpawn', (e) => {
    if (isAnimalName(e.name)) spawns.push({ id: e.id, name: e.name, pos: e.position.clone() })
  })
  await command(bot, '/time set 1000')
})
afterAll(async () => {
  quit(bot)
  await server?.stop()
})

/** Teleport onto the first animal's spot of `site` and note the spawns from then on. */
async function goTo(site: Resting[]): Promise<number> {
  const from = spawns.length
  const p = site[0]!.pos
  await command(bot, `/tp ${bot.username} ${p.x} ${p.y} ${p.z}`)
  return from
}

/** Spawns seen since `from` of `kind` within `d` blocks of `at`. */
const spawnedNear = (from: number, kind: string, at: Vec3, d: number): { id: number; pos: Vec3 }[] =>
  spawns.slice(from).filter((s) => s.name === kind && s.pos.distanceTo(at) <= d)

describe('herds placed at chunk generation', () => {
  it('stand where the seed puts them, rest while nobody is near and come back where they stood; killed, they do not', async () => {
    const a = siteFrom(20, 0) // 320+ blocks east of spawn
    const b = siteFrom(Math.floor(a[0]!.pos.x / 16) + 20, 0) // 320+ blocks further: both beyond the forget distance
    expect(b[0]!.pos.distanceTo(a[0]!.pos)).toBeGreaterThan(300)

    // A: every animal of the herd spawns on its spot
    let from = await goTo(a)
    await waitFor(
      () => a.every((r) => spawnedNear(from, r.kind, r.pos, 1.5).length > 0),
      30_000,
      `the ${a.length} ${a[0]!.kind} of chunk ${Math.floor(a[0]!.pos.x / 16)}, 0 on their spots`,
    )
    const herdA = a.map((r) => spawnedNear(from, r.kind, r.pos, 1.5)[0]!.id)
    await syncWithServer(bot)
    const restA = herdA.map((id) => bot.entities[id]?.position.clone() ?? null)
    expect(restA.every((p) => p !== null)).toBe(true)

    // B: its herd spawns too (so the server has swept since the player left A, 320 blocks behind)
    from = await goTo(b)
    await waitFor(() => b.every((r) => spawnedNear(from, r.kind, r.pos, 1.5).length > 0), 30_000, 'the herd of B')
    // B's herd is killed where it stands (A's rests: it has no entities to kill)
    await syncWithServer(bot)
    const killedAt = b
      .map((r) => spawnedNear(from, r.kind, r.pos, 1.5)[0]!.id)
      .map((id) => bot.entities[id]!.position.clone())
    await command(bot, `/kill @e[type=${b[0]!.kind}]`)
    await waitFor(() => Object.values(bot.entities).every((e) => e.name !== b[0]!.kind), 10_000, 'B killed')

    // back at A: the same kind comes back within a few blocks of where each stood when the player left
    from = await goTo(a)
    await waitFor(
      () => restA.every((p) => spawnedNear(from, a[0]!.kind, p!, 5).some((s) => !herdA.includes(s.id))),
      30_000,
      "A's herd back where it rested",
    )

    // back at B: other animals wake round it (natural spawning, other chunks' herds), none of the kind where the
    // killed herd stood
    const bWake = spawns.length
    await goTo(b)
    await waitFor(
      () => spawns.slice(bWake).some((s) => s.pos.distanceTo(b[0]!.pos) <= WAKE_DISTANCE),
      30_000,
      'the animals round B waking',
    )
    await syncWithServer(bot)
    for (const p of killedAt) expect(spawnedNear(bWake, b[0]!.kind, p, 2)).toEqual([])
  })
})
