/**
 * Issue 17, the survival shelter: on the practice world (default generator, seed 1: trees and stone near spawn, its
 * ground uneven), in survival, with Ghost's inventory empty, Alice (owner) asks "Ghost build a shelter here". The 55
 * cobblestone come through the normal goal pipeline (logs, planks, a wooden pickaxe, a shaft, mining — no /give),
 * Ghost climbs back to the site, levels it as needed and builds; the reply says all 55 blocks were checked, and
 * Alice's own client sees every block of the blueprint where the reply says the shelter stands.
 */
import { Vec3 } from 'vec3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadBlueprint, verifyBuild } from '../../src/actions/build.js'
import type { Bot } from 'mineflayer'
import { startPracticeApp, type PracticeApp } from '../helpers/app.js'
import { turnSeenBy, waitFor, waitForMessage } from '../helpers/world.js'

let scene: PracticeApp
let ghost: Bot
let alice: Bot

beforeAll(async () => {
  scene = await startPracticeApp({ seed: 1 })
  ;({ ghost, alice } = scene)
  await waitFor(() => ghost.entity?.onGround === true && !!ghost.players.Alice?.entity, 15_000, 'both landed')
}, 90_000)
afterAll(async () => {
  await scene?.stop()
})

describe('survival shelter', () => {
  it('builds the shelter where the player stands from an empty inventory, every block checked', async () => {
    expect(ghost.inventory.items()).toEqual([])
    await turnSeenBy(alice, ghost, 0) // yaw 0: looking towards -z; "here" is 2 blocks in front of her
    const done = waitForMessage(alice, /I built the shelter|could not|can't|not as planned/, {
      from: 'Ghost',
      timeoutMs: 420_000, // a hang guard: alone it takes about 200 s, under the full suite longer
    })
    alice.chat('Ghost build a shelter here')
    const reply = await done
    expect(reply).toMatch(/I built the shelter .*all 55 checked/)
    const [, x, y, z] = /checked\) at (-?\d+) (-?\d+) (-?\d+)/.exec(reply) ?? []
    const origin = new Vec3(Number(x), Number(y), Number(z))
    // Alice's own client: the shelter faces her (+z of the blueprint points along her look, -z)
    expect(verifyBuild(alice, loadBlueprint('shelter')!, { origin, fx: 0, fz: -1 })).toEqual([])
    expect(origin.distanceTo(alice.entity.position)).toBeLessThan(8)
  }, 450_000)
})
