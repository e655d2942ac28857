/**
 * Progress lines in chat: which players said "quiet" (no progress lines for them until they say "keep me posted"),
 * and the pacing of progress lines — at most one per task every `intervalMs` (30 s by default), at milestones only
 * (a sub-goal done, a re-plan). In memory only.
 */
export const PROGRESS_INTERVAL_MS = 30_000

export class Chatter {
  private readonly quietPlayers = new Set<string>()
  private readonly lastLine = new Map<string, number>()
  constructor(private readonly intervalMs = PROGRESS_INTERVAL_MS) {}

  setQuiet(player: string, quiet: boolean): void {
    if (quiet) this.quietPlayers.add(player.toLowerCase())
    else this.quietPlayers.delete(player.toLowerCase())
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
