/**
 * bench/lib/loop-lag.ts: a loop held busy shows up as lateness (the worst of the last seconds, and the run's
 * maximum), and an idle loop as none to speak of.
 */
import { describe, expect, it } from 'vitest'
import { lagNote, LoopLag } from '../../../bench/lib/loop-lag.js'

/** Hold the event loop for `ms`. */
function block(ms: number): void {
  const until = performance.now() + ms
  while (performance.now() < until) {
    /* busy */
  }
}

const tick = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

describe('LoopLag', () => {
  it('sees a loop held busy, in the recent maximum and in the summary', async () => {
    const lag = new LoopLag()
    await tick(250)
    block(400)
    await tick(250)
    expect(lag.recentMaxMs()).toBeGreaterThanOrEqual(250)
    const s = lag.summary()
    lag.stop()
    expect(s.maxMs).toBeGreaterThanOrEqual(250)
    expect(s.p50Ms).toBeLessThanOrEqual(s.p99Ms)
    expect(s.p99Ms).toBeLessThanOrEqual(s.maxMs)
    expect(lagNote(s)).toMatch(/^ \(event loop late p50\/p99\/max \d+\/\d+\/\d+ ms\)$/)
    expect(lagNote(null)).toBe('')
  })
})
