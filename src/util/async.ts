/**
 * Small async helpers used everywhere: await an event with a timeout and an AbortSignal, always removing the
 * listeners (after mineflayer's onceWithCleanup), abortable sleep, a deadline wrapper for promises, and a signal cut
 * short by a time limit or a condition (`cutSignal`).
 */
import type { EventEmitter } from 'node:events'
import { AbortedError, TimeoutError } from './errors.js'

type Listener = (...args: unknown[]) => void
interface Emitterish {
  on(ev: string, l: Listener): unknown
  removeListener(ev: string, l: Listener): unknown
}

export function onceEvent<T extends unknown[] = unknown[]>(
  emitter: Emitterish | EventEmitter,
  event: string,
  opts: { timeoutMs?: number; signal?: AbortSignal; filter?: (...args: T) => boolean } = {},
): Promise<T> {
  const em = emitter as Emitterish
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined
    const cleanup = (): void => {
      em.removeListener(event, onEvent)
      if (timer) clearTimeout(timer)
      opts.signal?.removeEventListener('abort', onAbort)
    }
    const onEvent: Listener = (...args) => {
      if (opts.filter && !opts.filter(...(args as T))) return
      cleanup()
      resolve(args as T)
    }
    const onAbort = (): void => {
      cleanup()
      reject(new AbortedError(`waiting for ${event}`))
    }
    if (opts.signal?.aborted) {
      reject(new AbortedError(`waiting for ${event}`))
      return
    }
    em.on(event, onEvent)
    opts.signal?.addEventListener('abort', onAbort, { once: true })
    if (opts.timeoutMs !== undefined)
      timer = setTimeout(() => {
        cleanup()
        reject(new TimeoutError(`waiting for ${event}`, opts.timeoutMs!))
      }, opts.timeoutMs)
  })
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AbortedError('sleep'))
      return
    }
    const onAbort = (): void => {
      clearTimeout(t)
      reject(new AbortedError('sleep'))
    }
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

export async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new TimeoutError(what, ms)), ms)
      }),
    ])
  } finally {
    if (timer) clearTimeout(timer)
  }
}

/** Poll `check` every `intervalMs` until it returns true, or throw TimeoutError. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
  intervalMs = 100,
  signal?: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (await check()) return
    if (Date.now() > deadline) throw new TimeoutError(what, timeoutMs)
    await sleep(intervalMs, signal)
  }
}

/** A signal that also fires after a time limit or as soon as a condition holds; `done()` drops its timers. */
export interface Cut {
  signal: AbortSignal
  done: () => void
}

/**
 * A signal that fires when `parent` does (with its reason), after `ms` (with `timeoutReason`; null: no time limit —
 * `setTimeout(Infinity)` would fire at once), or as soon as `until.check` holds, asked every `until.everyMs` (with
 * `until.reason`). A plain controller and timers held until `done()` — call it in a finally — not
 * AbortSignal.any/timeout, whose signals Node 20 can garbage-collect before they fire (that let an explore overrun its
 * goal's budget by its own 120 s).
 */
export function cutSignal(
  parent: AbortSignal,
  ms: number | null,
  timeoutReason: unknown,
  until?: { check: () => boolean; everyMs: number; reason: unknown },
): Cut {
  const cut = new AbortController()
  const timer = ms === null ? undefined : setTimeout(() => cut.abort(timeoutReason), ms)
  const poll = until
    ? setInterval(() => {
        if (until.check()) cut.abort(until.reason)
      }, until.everyMs)
    : undefined
  const onStop = (): void => cut.abort(parent.reason)
  if (parent.aborted) onStop()
  parent.addEventListener('abort', onStop, { once: true })
  return {
    signal: cut.signal,
    done: () => {
      clearTimeout(timer)
      clearInterval(poll)
      parent.removeEventListener('abort', onStop)
    },
  }
}
