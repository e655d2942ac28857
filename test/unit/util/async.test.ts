/**
 * Unit tests of `cutSignal` (src/util/async.ts), the signal a goal's action and a hunt run under: it fires with the
 * parent's reason on a stop, with its own reason at the time limit or once the condition holds, and after `done()`
 * neither its timer nor its poll fires any more (waits on vitest's fake timers, no real sleeps).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { cutSignal } from '../../../src/util/async.js'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('cutSignal', () => {
  it('fires at the time limit with the time-out reason', () => {
    const cut = cutSignal(new AbortController().signal, 1000, 'budget')
    vi.advanceTimersByTime(999)
    expect(cut.signal.aborted).toBe(false)
    vi.advanceTimersByTime(1)
    expect(cut.signal.reason).toBe('budget')
    cut.done()
  })

  it('fires at the first poll after the condition holds, with its reason; ms null sets no time limit', () => {
    // (setTimeout(Infinity) would fire at once)
    let fed = false
    const cut = cutSignal(new AbortController().signal, null, 'budget', {
      check: () => fed,
      everyMs: 500,
      reason: 'fed',
    })
    vi.advanceTimersByTime(3_600_000)
    expect(cut.signal.aborted).toBe(false)
    fed = true
    vi.advanceTimersByTime(500)
    expect(cut.signal.reason).toBe('fed')
    cut.done()
  })

  it('fires with the parent reason on a stop, also when the parent was stopped already', () => {
    const parent = new AbortController()
    const cut = cutSignal(parent.signal, 1000, 'budget')
    parent.abort('stop')
    expect(cut.signal.reason).toBe('stop')
    cut.done()
    const late = cutSignal(parent.signal, 1000, 'budget')
    expect(late.signal.reason).toBe('stop')
    late.done()
  })

  it('fires no more after done(): no timer, no poll, no listener left', () => {
    const parent = new AbortController()
    const cut = cutSignal(parent.signal, 1000, 'budget', { check: () => true, everyMs: 100, reason: 'held' })
    cut.done()
    expect(vi.getTimerCount()).toBe(0)
    vi.advanceTimersByTime(2000)
    parent.abort('stop')
    expect(cut.signal.aborted).toBe(false)
  })
})
