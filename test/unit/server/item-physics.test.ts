/**
 * Tossed-item physics of the embedded server under load: flying-squid's tick hands the item step the time since its
 * last tick, which is a few hundred ms on a busy machine. A toss at a player's feet from 2 blocks away must land on
 * the ground surface within their pickup box however coarse the ticks are (one big step used to bury it a block
 * deep in the ground, out of reach — a CI run's give test failed that way).
 */
import { describe, expect, it } from 'vitest'
import { Vec3 } from 'vec3'
import { moveItem, type Solid, tossFrom } from '../../../src/server/plugins/drops-items.js'
import { inPickupRange } from '../../../src/util/vec.js'
import type { SquidPlayer } from '../../../src/server/squid.js'

/** Flat ground: blocks at y ≤ 63 are solid, the surface players stand on is y = 64. */
const flat: Solid = async (_x, y) => Math.floor(y) <= 63

/** A thrower at the origin looking at the feet of a player 2 blocks along +z (flying-squid's 1/256-turn angles). */
function throwAtFeet(): { start: Vec3; velocity: Vec3; feet: Vec3 } {
  const feet = new Vec3(0.5, 64, 2.5)
  const eye = new Vec3(0.5, 64 + 1.62, 0.5)
  const pitch = Math.atan2(eye.y - feet.y, feet.z - eye.z) // looking down
  const player = { position: new Vec3(0.5, 64, 0.5), yaw: 0, pitch: (pitch * 256) / (2 * Math.PI) }
  const t = tossFrom(player as unknown as SquidPlayer)
  return { start: t.position, velocity: t.velocity, feet }
}

async function landAfter(tickS: number): Promise<Vec3> {
  const { start, velocity } = throwAtFeet()
  let p = start
  for (let t = 0; t < 3; t += tickS) p = (await moveItem(flat, velocity, p, tickS)).position
  return p
}

describe('tossed item physics', () => {
  it.each([0.05, 0.25, 0.5, 0.9])('lands on the surface in the pickup box with server ticks of %s s', async (tickS) => {
    const landed = await landAfter(tickS)
    expect(landed.y).toBe(64)
    expect(inPickupRange(throwAtFeet().feet, landed)).toBe(true)
  })

  it('lands where it lands with normal ticks, whatever the tick length', async () => {
    const fine = await landAfter(0.05)
    const coarse = await landAfter(0.5)
    expect(coarse.distanceTo(fine)).toBeLessThan(0.2)
  })
})
