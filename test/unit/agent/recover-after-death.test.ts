/**
 * The executor's death handling against the sim world with the offline planner: after a death it asks the hands to
 * go back for the drops (src/actions/recover.ts on the real bot), says what came of it, and then decomposes the goal
 * again from what is held, so whatever was regained is counted and the goal still ends done.
 */
import { describe, expect, it } from 'vitest'
import { createKnowledge } from '../../../src/knowledge/index.js'
import type { ActionResult } from '../../../src/schemas/action.js'
import { setLogLevel } from '../../../src/util/log.js'
import { runOfflineGoal } from '../../helpers/offline-goal.js'
import { createSimWorld } from '../../helpers/sim-world.js'

setLogLevel('error')
const kb = createKnowledge('1.20.2')

describe('recovery after a death', () => {
  it('goes back for the drops once per death, reports it, then finishes the goal', async () => {
    const world = createSimWorld(kb, {
      faults: [{ type: 'mine', nth: 1, reason: 'died', message: 'I died while mining.' }],
    })
    let recoveries = 0
    const recoverDrops = async (): Promise<ActionResult> => {
      recoveries++
      const message = 'I went back to where I died and picked up 0 items.'
      return { ok: false, reason: 'not_found', message, inventoryDelta: {}, durationMs: 0 }
    }
    const { out, events } = await runOfflineGoal(
      kb,
      world,
      { object: 'crafting_table', count: 1 },
      {
        hands: Object.assign(world, { recoverDrops }),
      },
    )
    expect(out.ok).toBe(true)
    expect(recoveries).toBe(1)
    const said = events.flatMap((e) => (e.kind === 'progress' ? [e.message] : []))
    expect(said).toContain('I went back to where I died and picked up 0 items.')
  })
})
