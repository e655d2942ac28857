/**
 * The request runner's hands (each request sees the inventory minus what is set aside for players): every port of
 * the bot's hands reaches the executor through them — recoverDrops too, so after a death a request waits for the
 * respawn and goes back for the drops before it decomposes again (bench:diamond seed 7 re-planned from the iron
 * pickaxe it had just lost in lava, and spent 3 minutes searching for diamonds without it).
 */
import { describe, expect, it } from 'vitest'
import type { Hands } from '../../../src/agent/ports.js'
import { viewedHands } from '../../../src/agent/request-runner.js'
import type { ActionResult, BotState } from '../../../src/schemas/action.js'

const result = (message: string): ActionResult => ({
  ok: true,
  reason: null,
  message,
  inventoryDelta: {},
  durationMs: 0,
})

function fakeHands(withRecover: boolean): Hands & { calls: string[] } {
  const calls: string[] = []
  const hands: Hands & { calls: string[] } = {
    calls,
    execute: async (a) => {
      calls.push(`execute ${a.type}`)
      return result('done')
    },
    state: () => ({ inventory: { cobblestone: 10, iron_pickaxe: 1 } }) as unknown as BotState,
    nearbyBlocks: () => {
      calls.push('nearbyBlocks')
      return ['stone']
    },
    lastTrace: () => null,
    identity: () => ({ bot: 'Ghost', server: 'local' }),
  }
  if (withRecover)
    hands.recoverDrops = async () => {
      calls.push('recoverDrops')
      return result('picked up 3 items')
    }
  return hands
}

describe('viewedHands', () => {
  it('shows the inventory through the view and passes every other port on, recoverDrops included', async () => {
    const inner = fakeHands(true)
    const hands = viewedHands(inner, (inv) => ({ ...inv, cobblestone: (inv.cobblestone ?? 0) - 4 }))
    expect(hands.state().inventory).toEqual({ cobblestone: 6, iron_pickaxe: 1 })
    expect(hands.recoverDrops).toBeTypeOf('function')
    expect((await hands.recoverDrops!(new AbortController().signal)).message).toBe('picked up 3 items')
    await hands.execute({ type: 'go_up' } as Parameters<Hands['execute']>[0], new AbortController().signal)
    expect(hands.nearbyBlocks()).toEqual(['stone'])
    expect(hands.identity()).toEqual({ bot: 'Ghost', server: 'local' })
    expect(inner.calls).toEqual(['recoverDrops', 'execute go_up', 'nearbyBlocks'])
  })

  it('has no recoverDrops when the hands have none', () => {
    expect(viewedHands(fakeHands(false), (inv) => inv).recoverDrops).toBeUndefined()
  })
})
