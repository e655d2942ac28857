/**
 * Circuit breaker for the model server. After `failuresToOpen` calls in a row failed for a server-side reason
 * (timeout, connection, 5xx, rate limit, rejected credentials), the breaker opens for `openMs`: calls then fail at
 * once with LlmError('unavailable'), so every caller (planner, analyser, intent, summariser) takes its offline path
 * without paying timeouts and retries again for each sub-goal. When `openMs` has passed, one call is let through;
 * its success closes the breaker, its failure opens it again. Answers that arrive but do not validate count as the
 * server being reachable. `openMs` 0 disables the breaker.
 */
import type { LlmFailureKind } from './errors.js'

/** Failures that say the server is unreachable or unusable rather than that one request was wrong. */
const SERVER_SIDE: ReadonlySet<LlmFailureKind> = new Set(['timeout', 'connection', 'server', 'rate_limit', 'auth'])

export interface BreakerState {
  open: boolean
  failures: number
  retryInMs: number
}

export class Breaker {
  private failures = 0
  private openUntil = 0
  /** opened and not closed by a success since: the next failure re-opens at once */
  private tripped = false

  constructor(
    private readonly failuresToOpen: number,
    private readonly openMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds until a call may be tried again (0: try now). */
  blockedForMs(): number {
    return this.openMs > 0 ? Math.max(0, this.openUntil - this.now()) : 0
  }

  success(): void {
    this.failures = 0
    this.openUntil = 0
    this.tripped = false
  }

  /** Record a failed call; true when this failure opened the breaker. */
  failure(kind: LlmFailureKind): boolean {
    if (!SERVER_SIDE.has(kind) || this.openMs <= 0) return false
    this.failures++
    if (this.failures < this.failuresToOpen && !this.tripped) return false
    this.failures = 0
    this.tripped = true
    this.openUntil = this.now() + this.openMs
    return true
  }

  state(): BreakerState {
    const retryInMs = this.blockedForMs()
    return { open: retryInMs > 0, failures: this.failures, retryInMs }
  }
}
