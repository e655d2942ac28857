/**
 * How late this process's event loop runs while a benchmark run is under way. Every bot of a bench shares one Node
 * process (2 or 4 runs at a time), and each bot's pathfinder thinks up to 40 ms a physics tick: when the loop is
 * late, a bot's physics ticks come late, its walks and flights slow down, while the zombies on the server children
 * walk on at full speed. `LoopLag` samples a timer's lateness every SAMPLE_MS; a run reports its p50, p99 and maximum
 * (`summary`), and a death the worst lateness of the seconds before it (`recentMaxMs`), so that a death or a slow run
 * can be told apart from a machine that could not keep up.
 */

import { percentile } from './stats.js'

const SAMPLE_MS = 100
/** How far back `recentMaxMs` looks. */
const RECENT_MS = 10_000

export interface LagSummary {
  p50Ms: number
  p99Ms: number
  maxMs: number
}

export class LoopLag {
  private readonly samples: Array<{ at: number; lateMs: number }> = []
  private last = performance.now()
  private readonly timer: NodeJS.Timeout

  constructor() {
    this.timer = setInterval(() => {
      const now = performance.now()
      this.samples.push({ at: now, lateMs: Math.max(0, now - this.last - SAMPLE_MS) })
      this.last = now
    }, SAMPLE_MS)
    this.timer.unref()
  }

  /** The worst lateness within the last RECENT_MS. */
  recentMaxMs(): number {
    const since = performance.now() - RECENT_MS
    let worst = 0
    for (let i = this.samples.length - 1; i >= 0 && this.samples[i]!.at >= since; i--)
      worst = Math.max(worst, this.samples[i]!.lateMs)
    return Math.round(worst)
  }

  /** The whole run so far. */
  summary(): LagSummary {
    const late = this.samples.map((s) => s.lateMs)
    const at = (q: number): number => Math.round(late.length ? percentile(late, q) : 0)
    return { p50Ms: at(0.5), p99Ms: at(0.99), maxMs: Math.round(late.reduce((m, x) => Math.max(m, x), 0)) }
  }

  /** Stop sampling. */
  stop(): void {
    clearInterval(this.timer)
  }
}

/** ` (event loop late p50/p99/max 3/40/180 ms)` for a run's line, or nothing. */
export function lagNote(lag: LagSummary | null): string {
  return lag ? ` (event loop late p50/p99/max ${lag.p50Ms}/${lag.p99Ms}/${lag.maxMs} ms)` : ''
}
