/**
 * A token bucket: `burst` actions at once, then one more every `intervalMs` (0 = unlimited). Used to pace the bot's
 * chat (src/io/outbox.ts) and to rate-limit WebSocket clients (src/io/ws/client.ts).
 */
export class TokenBucket {
  private tokens: number
  private refilledAt: number

  constructor(
    private readonly burst: number,
    private readonly intervalMs: number,
    now = Date.now(),
  ) {
    this.tokens = burst
    this.refilledAt = now
  }

  private refill(now: number): void {
    this.tokens =
      this.intervalMs <= 0 ? this.burst : Math.min(this.burst, this.tokens + (now - this.refilledAt) / this.intervalMs)
    this.refilledAt = now
  }

  /** Spend one token if there is one. */
  take(now = Date.now()): boolean {
    this.refill(now)
    if (this.tokens < 1) return false
    this.tokens -= 1
    return true
  }

  /** Milliseconds until a token is available (0 when one is). */
  waitMs(now = Date.now()): number {
    this.refill(now)
    return this.tokens >= 1 ? 0 : Math.ceil((1 - this.tokens) * this.intervalMs)
  }
}
