/**
 * Progress lines in chat: which players said "quiet" (no progress lines for them until they say "keep me posted"),
 * and the pacing of progress lines — at most one per task every `intervalMs` (30 s by default), at milestones only
 * (a sub-goal done, a re-plan). With a `KeptStore` (src/memory/ledger-store.ts) "quiet" is written through and
 * `load` restores it after a restart; the pacing is in memory only.
 */
import { logger } from '../util/log.js'
import { writeQueue, type KeptStore } from './ledger.js'

const log = logger('chatter')

export const PROGRESS_INTERVAL_MS = 30_000

export class Chatter {
  private readonly quietPlayers = new Set<string>()
  private readonly lastLine = new Map<string, number>()
  private readonly write = writeQueue((err) => log.warn('could not save quiet', { err: String(err) }))

  constructor(
    private readonly intervalMs = PROGRESS_INTERVAL_MS,
    private readonly store: KeptStore | null = null,
  ) {}

  /** Restore who said "quiet" before a restart. */
  async load(): Promise<void> {
    for (const p of (await this.store?.loadQuiet()) ?? []) this.quietPlayers.add(p.toLowerCase())
  }

  /** Resolves once every change so far has been written. */
  flushed(): Promise<void> {
    return this.write(async () => {})
  }

  setQuiet(player: string, quiet: boolean): void {
    const key = player.toLowerCase()
    if (quiet) this.quietPlayers.add(key)
    else this.quietPlayers.delete(key)
    const store = this.store
    if (store) void this.write(() => store.saveQuiet(key, quiet))
  }

  isQuiet(player: string): boolean {
    return this.quietPlayers.has(player.toLowerCase())
  }

  /** Whether a progress line for this task may be said now (and if so, counts it). */
  mayTell(player: string, taskId: string, now = Date.now()): boolean {
    if (this.isQuiet(player)) return false
    const last = this.lastLine.get(taskId)
    if (last !== undefined && now - last < this.intervalMs) return false
    this.lastLine.set(taskId, now)
    if (this.lastLine.size > 500) this.lastLine.delete(this.lastLine.keys().next().value!)
    return true
  }
}
