/**
 * Memory's availability (split out of ./store.ts): whether the engine answers, and what the store does when it does
 * not — reads answer a fallback instead of failing the request, writes wait in a bounded outbox (the oldest dropped
 * and counted beyond OUTBOX_LIMIT), `health()` says so in one line, and a timer tries the engine again every
 * `reconnectMs` and flushes the outbox in order once it answers.
 */
import { GhostError } from '../util/errors.js'
import { logger } from '../util/log.js'
import { isUnavailable, unavailableReason } from './backend.js'

const log = logger('memory')

/** Writes kept while the engine is unreachable; older ones are dropped beyond this (and counted). */
export const OUTBOX_LIMIT = 1000
export const DEFAULT_RECONNECT_MS = 5000

/** The little of a backend this needs. */
export interface Engine {
  readonly kind: string
  readonly location: string
  ping(): Promise<void>
}

export class Availability {
  private down: { since: number; reason: string } | null = null
  private outbox: Array<{ what: string; write: () => Promise<unknown> }> = []
  private dropped = 0
  private timer: NodeJS.Timeout | null = null
  private closed = false

  constructor(
    private readonly engine: Engine,
    readonly reconnectMs: number,
    startDown: string | null = null,
  ) {
    if (startDown !== null) this.markDown(startDown)
  }

  /** Flush what waits if the engine answers, stop the timer, and say what is lost. */
  async close(): Promise<void> {
    if (this.outbox.length > 0) await this.reconnect()
    this.closed = true
    if (this.timer) clearTimeout(this.timer)
    if (this.outbox.length > 0)
      log.warn('closing memory with writes still waiting for the engine; they are lost', { writes: this.outbox.length })
  }

  /** Throw the "try again later" error while the engine is unreachable (writes that must not wait). */
  needUp(): void {
    if (this.down)
      throw new GhostError(
        'memory',
        this.health() ?? 'memory is unavailable',
        'my memory is unavailable right now; try again later',
      )
  }

  /** One line for `status` when memory is degraded, else null. */
  health(): string | null {
    if (!this.down) return null
    const secs = Math.round((Date.now() - this.down.since) / 1000)
    const waiting =
      this.outbox.length > 0
        ? `, ${this.outbox.length} writes waiting${this.dropped ? ` (${this.dropped} dropped)` : ''}`
        : ''
    return `Memory (${this.engine.kind}) unreachable for ${secs}s: ${this.down.reason}; planning without memory${waiting}, retrying every ${Math.round(this.reconnectMs / 1000)}s.`
  }

  get up(): boolean {
    return this.down === null
  }

  /** Mark the engine unreachable (a read or write just failed on it) and schedule a reconnect. */
  markDown(reason: string): void {
    if (!this.down) {
      this.down = { since: Date.now(), reason }
      log.warn('memory unreachable; planning without it', { where: this.engine.location, reason })
    } else this.down.reason = reason
    this.schedule()
  }

  private schedule(): void {
    if (this.timer || this.closed) return
    this.timer = setTimeout(() => {
      this.timer = null
      void this.reconnect()
    }, this.reconnectMs)
    this.timer.unref()
  }

  /** Try the engine again; on success flush the outbox in order. Returns true when memory is up. */
  async reconnect(): Promise<boolean> {
    try {
      await this.engine.ping()
      while (this.outbox.length > 0) {
        const next = this.outbox[0]!
        // A write the engine refuses for another reason than being down would block the outbox forever: drop it.
        await next.write().catch((err: unknown) => {
          if (isUnavailable(err)) throw err
          log.warn('a waiting memory write failed; dropped', { what: next.what, err: err as Error })
        })
        this.outbox.shift()
      }
      if (this.down)
        log.info('memory reachable again', { where: this.engine.location, downMs: Date.now() - this.down.since })
      this.down = null
      this.dropped = 0
      return true
    } catch (err) {
      this.markDown(unavailableReason(err))
      return false
    }
  }

  /** Run a read; when the engine is down (or goes down now) answer `fallback` instead of failing the request. */
  async read<T>(op: () => Promise<T>, fallback: T): Promise<T> {
    if (this.down) return fallback
    try {
      return await op()
    } catch (err) {
      if (!isUnavailable(err)) throw err
      this.markDown(unavailableReason(err))
      return fallback
    }
  }

  /** Run a write; when the engine is down, keep it in the outbox for the reconnect and answer null. */
  async write<T>(what: string, op: () => Promise<T>): Promise<T | null> {
    if (!this.down) {
      try {
        return await op()
      } catch (err) {
        if (!isUnavailable(err)) throw err
        this.markDown(unavailableReason(err))
      }
    }
    this.outbox.push({ what, write: op })
    if (this.outbox.length > OUTBOX_LIMIT) {
      this.outbox.shift()
      this.dropped++
    }
    return null
  }
}
