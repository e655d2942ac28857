/**
 * The audit log: one JSON line per request (time, source, player, command, role, allowed/denied, reason), appended
 * to GHOST_AUDIT_LOG. Kept in memory too (last 500) so `status`, tests and the ws bridge can read recent entries.
 * Request text is stored truncated; it is data, not instructions.
 */
import { appendFile } from 'node:fs/promises'
import { logger } from '../util/log.js'

const log = logger('audit')

export interface AuditEntry {
  t: string
  requestId: string
  source: string
  player: string
  command: string
  role: string
  allowed: boolean
  reason?: string
  text: string
}

export class AuditLog {
  readonly recent: AuditEntry[] = []
  private chain: Promise<void> = Promise.resolve()
  constructor(private readonly file: string | null) {}

  record(entry: Omit<AuditEntry, 't'>): void {
    const full: AuditEntry = { t: new Date().toISOString(), ...entry, text: entry.text.slice(0, 200) }
    this.recent.push(full)
    if (this.recent.length > 500) this.recent.shift()
    if (!this.file) return
    const line = `${JSON.stringify(full)}\n`
    const file = this.file
    this.chain = this.chain
      .then(() => appendFile(file, line))
      .catch((err: Error) => log.error('audit write failed', { err: err.message }))
  }

  /** Resolves when every line recorded so far is on disk. */
  flush(): Promise<void> {
    return this.chain
  }
}
