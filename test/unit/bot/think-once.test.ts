/**
 * src/bot/think-once.ts over a stand-in bot: after the first physics tick of a frame the search under way gets no
 * thinking time for the frame's catch-up ticks, and its own again once the frame is done; a search that starts
 * later is handled the same way, with its own thinking time.
 */
import { EventEmitter } from 'node:events'
import type { Bot } from 'mineflayer'
import { describe, expect, it } from 'vitest'
import { thinkOncePerFrame } from '../../../src/bot/think-once.js'

describe('thinkOncePerFrame', () => {
  it('gives a search no thinking time on catch-up ticks, and its own on the next frame', async () => {
    const bot = new EventEmitter() as unknown as Bot & EventEmitter
    thinkOncePerFrame(bot)
    bot.emit('physicsTick') // no search yet: nothing to do
    const search = { tickTimeout: 40 }
    bot.emit('path_update', { status: 'partial', path: [], context: search })
    // one frame of three ticks, back to back (the physics plugin catching up): the pathfinder thought on the first
    const thought: number[] = []
    for (let i = 0; i < 3; i++) {
      thought.push(search.tickTimeout)
      bot.emit('physicsTick')
    }
    expect(thought).toEqual([40, 0, 0])
    await Promise.resolve()
    expect(search.tickTimeout).toBe(40)
    // a new search with its own time
    const next = { tickTimeout: 25 }
    bot.emit('path_update', { status: 'partial', path: [], context: next })
    bot.emit('physicsTick')
    expect(next.tickTimeout).toBe(0)
    await Promise.resolve()
    expect(next.tickTimeout).toBe(25)
  })
})
