/**
 * The herds placed at chunk generation (src/server/mobs/herds.ts), on the practice world's own generated chunks: the
 * decision is a pure function of seed and chunk, about one group of four in nine chunks with vanilla's farm-animal
 * weights, every animal on grass under open sky within its chunk, none on a desert's sand; the book decides a chunk
 * once, wakes only what is near, and takes back what rests.
 */
import { describe, expect, it } from 'vitest'
import { Vec3 } from 'vec3'
import { chunkOffset } from '../../../src/util/vec.js'
import {
  ANIMAL_WEIGHTS,
  ANIMALS,
  animalKind,
  decideAround,
  herdBook,
  herdsOf,
  placeHerds,
  rest,
  wakeNear,
  WAKE_DISTANCE,
} from '../../../src/server/mobs/herds.js'
import type { SpawnColumn } from '../../../src/server/mobs/spawning.js'
import { PracticeWorld } from '../../../src/server/worldgen/generator.js'
import type { SquidServer } from '../../../src/server/squid.js'

const world = PracticeWorld.forVersion(7, '1.20.2')
const serv = { registry: world.registry } as unknown as SquidServer
const columns = new Map<string, SpawnColumn>()
const columnAt = (cx: number, cz: number): SpawnColumn => {
  const key = `${cx},${cz}`
  let c = columns.get(key)
  if (!c) {
    c = world.toChunk(world.generate(cx, cz)) as unknown as SpawnColumn
    columns.set(key, c)
  }
  return c
}
const local = (x: number, y: number, z: number): Vec3 => new Vec3(chunkOffset(x), y, chunkOffset(z))
const nameAt = (c: SpawnColumn, p: Vec3): string =>
  (world.registry as unknown as { blocks: Record<number, { name: string }> }).blocks[c.getBlockType(p)]?.name ?? '?'

describe('herds at chunk generation', () => {
  it('decides each chunk from the seed alone: about one group in nine chunks, of four, with vanilla weights', () => {
    expect(herdsOf(7, 3, -5)).toEqual(herdsOf(7, 3, -5))
    let groups = 0
    const kinds: Record<string, number> = {}
    const N = 40_000
    for (let i = 0; i < N; i++) {
      const cx = (i % 200) - 100
      const cz = Math.floor(i / 200) - 100
      for (const g of herdsOf(7, cx, cz)) {
        groups++
        kinds[g.kind] = (kinds[g.kind] ?? 0) + 1
        expect(g.spots).toHaveLength(4)
        for (const tries of g.spots)
          for (const s of tries) {
            expect(Math.floor(s.x / 16)).toBe(cx)
            expect(Math.floor(s.z / 16)).toBe(cz)
          }
      }
    }
    // vanilla draws groups while a float is under 0.1: 0.1 / 0.9 groups per chunk
    expect(groups / N).toBeGreaterThan(0.1)
    expect(groups / N).toBeLessThan(0.122)
    const total = Object.values(ANIMAL_WEIGHTS).reduce((a, b) => a + b, 0)
    for (const k of ANIMALS) expect(Math.abs((kinds[k] ?? 0) / groups - ANIMAL_WEIGHTS[k] / total)).toBeLessThan(0.02)
    expect(animalKind(0)).toBe(ANIMALS[0])
    expect(animalKind(0.999999)).toBe(ANIMALS[ANIMALS.length - 1])
  })

  it('stands every animal on grass under open sky in its chunk, and none on sand', () => {
    let placed = 0
    let planned = 0
    for (let cx = -12; cx < 12; cx++)
      for (let cz = -12; cz < 12; cz++) {
        const plans = herdsOf(7, cx, cz)
        if (plans.length === 0) continue
        planned += plans.length * 4
        const column = columnAt(cx, cz)
        for (const r of placeHerds(serv, 'overworld', column, plans)) {
          placed++
          const feet = r.pos.floored()
          expect(Math.floor(feet.x / 16)).toBe(cx)
          expect(Math.floor(feet.z / 16)).toBe(cz)
          expect(nameAt(column, local(feet.x, feet.y - 1, feet.z))).toBe('grass_block')
          expect(nameAt(column, local(feet.x, feet.y, feet.z))).not.toMatch(/water|lava|stone|log|leaves|dirt|sand/)
          expect(nameAt(column, local(feet.x, feet.y + 1, feet.z))).not.toMatch(/water|lava|stone|log|dirt|sand/)
        }
      }
    expect(planned).toBeGreaterThan(0)
    expect(placed).toBeGreaterThan(0)
    expect(placed).toBeLessThanOrEqual(planned)
  })

  it('decides a loaded chunk once, wakes only the animals near a player, and takes back what rests', () => {
    const book = herdBook(serv)
    const loaded = {
      getLoadedColumn: (cx: number, cz: number) => (Math.abs(cx) <= 6 && Math.abs(cz) <= 6 ? columnAt(cx, cz) : null),
    }
    decideAround(serv, 7, loaded, new Vec3(8, 70, 8))
    const decided = book.decided.size
    const resting = book.resting.length
    expect(decided).toBe(81) // 9×9 chunks round the player's, all loaded
    decideAround(serv, 7, loaded, new Vec3(8, 70, 8))
    expect(book.decided.size).toBe(decided)
    expect(book.resting.length).toBe(resting)
    const player = { world: loaded, position: new Vec3(8, 70, 8) }
    const woken = wakeNear(serv, [player], 1000)
    for (const r of woken) expect(r.pos.distanceTo(player.position)).toBeLessThanOrEqual(WAKE_DISTANCE)
    for (const r of book.resting)
      expect(r.world !== loaded || r.pos.distanceTo(player.position) > WAKE_DISTANCE).toBe(true)
    expect(woken.length + book.resting.length).toBe(resting)
    expect(wakeNear(serv, [{ world: 'elsewhere', position: player.position }], 1000)).toEqual([])
    const before = book.resting.length
    rest(serv, 'cow', loaded, new Vec3(3.2, 70, -4.7))
    expect(book.resting).toHaveLength(before + 1)
    expect(wakeNear(serv, [player], 1000)).toEqual([{ kind: 'cow', world: loaded, pos: new Vec3(3.5, 70, -4.5) }])
  })
})
