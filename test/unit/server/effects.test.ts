/**
 * Effects last in server ticks (src/server/plugins/effects.ts) on flying-squid's own effect code: an effect given
 * for N ticks ends at the Nth server tick however much wall time passes, so a loaded server whose tick loop falls
 * behind still runs the whole effect (a hunger effect takes all its food).
 */
import { EventEmitter } from 'node:events'
import { afterEach, describe, expect, it, vi } from 'vitest'
// @ts-expect-error -- flying-squid's plugin files are untyped CommonJS
import squidEffects from 'flying-squid/src/lib/plugins/effects.js'
import plugin from '../../../src/server/plugins/effects.js'
import type { SquidEntity, SquidServer } from '../../../src/server/squid.js'

const HUNGER = 17

function world(): { serv: SquidServer & EventEmitter; entity: SquidEntity; tick(): void } {
  const serv = Object.assign(new EventEmitter(), {
    tickCount: 0,
    entities: {} as Record<number, SquidEntity>,
    players: [],
    getNearby: () => [],
    _writeArray: () => {},
  }) as unknown as SquidServer & EventEmitter
  const entity = { id: 1, type: 'mob' } as unknown as SquidEntity
  ;(squidEffects as { entity(e: unknown, s: unknown): void }).entity(entity, serv)
  serv.entities[1] = entity
  plugin.server!(serv, {})
  serv.emit('newEntity', entity) // as flying-squid's initEntity does
  const tick = (): void => {
    const clock = serv as unknown as { tickCount: number }
    clock.tickCount += 1
    serv.emit('tick', 0.05, clock.tickCount)
  }
  return { serv, entity, tick }
}

const active = (e: SquidEntity): boolean => Boolean((e.effects as Record<number, unknown>)[HUNGER])

afterEach(() => {
  vi.useRealTimers()
})

describe('effects in server ticks', () => {
  it('ends at the tick its duration runs out, not by the wall clock', () => {
    vi.useFakeTimers()
    const { entity, tick } = world()
    const add = entity.addEffect as (id: number, opt: Record<string, unknown>) => boolean
    expect(add(HUNGER, { amplifier: 127, duration: 120 })).toBe(true)
    vi.advanceTimersByTime(60_000) // a minute of wall time without a tick: flying-squid's timer would have ended it
    expect(active(entity)).toBe(true)
    for (let i = 0; i < 119; i++) tick()
    expect(active(entity)).toBe(true)
    tick()
    expect(active(entity)).toBe(false)
  })
  it("ends a player's effect by ticks too (players are wrapped at join, not as new entities)", () => {
    vi.useFakeTimers()
    const { serv, tick } = world()
    const player = { id: 2, type: 'player' } as unknown as SquidEntity
    ;(squidEffects as { entity(e: unknown, s: unknown): void }).entity(player, serv)
    serv.entities[2] = player
    plugin.player!(player as never, serv)
    const add = player.addEffect as (id: number, opt: Record<string, unknown>) => boolean
    expect(add(HUNGER, { amplifier: 127, duration: 40 })).toBe(true)
    vi.advanceTimersByTime(60_000)
    for (let i = 0; i < 39; i++) tick()
    expect(active(player)).toBe(true)
    tick()
    expect(active(player)).toBe(false)
  })
})
