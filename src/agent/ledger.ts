/**
 * The delivery ledger: items the bot holds that are set aside for a player (obtained for them, not yet handed
 * over — the player was away, offline or unreachable). An obtain for a player is fulfilled from its own delta: it
 * sees the inventory minus everything set aside (`view`), so one player's items never count as another's, and
 * its result is set aside for its player until it is handed over (asked for, or when the player is next near: see
 * courier.ts). Players are keyed case-insensitively. With a `KeptStore` (src/memory/ledger-store.ts) every change
 * is written through and `load` restores the ledger after a restart, so nothing set aside is lost.
 */
import { logger } from '../util/log.js'

const log = logger('ledger')

/** One row of the ledger as it is stored: `count` of `item` set aside for `player` (lower case). */
export interface HeldRow {
  player: string
  item: string
  count: number
}

/** What the bot keeps for players across restarts (implemented in src/memory/ledger-store.ts). */
export interface KeptStore {
  loadHeld(): Promise<HeldRow[]>
  /** Write one row's new count (0 deletes it). */
  saveHeld(row: HeldRow): Promise<void>
  loadQuiet(): Promise<string[]>
  saveQuiet(player: string, quiet: boolean): Promise<void>
}

/** Runs a store write in order after the previous ones; a failed write is reported to `onError`, never thrown. */
export function writeQueue(onError: (err: unknown) => void): (write: () => Promise<void>) => Promise<void> {
  let last: Promise<void> = Promise.resolve()
  return (write) => {
    last = last.then(write).catch(onError)
    return last
  }
}

export class Ledger {
  private readonly held = new Map<string, Map<string, number>>()
  private readonly write: ((w: () => Promise<void>) => Promise<void>) | null

  constructor(private readonly store: KeptStore | null = null) {
    this.write = store ? writeQueue((err) => log.warn('could not save the ledger', { err: String(err) })) : null
  }

  /** Restore what was set aside before a restart (adds to anything reserved meanwhile). */
  async load(): Promise<void> {
    if (!this.store) return
    for (const r of await this.store.loadHeld()) this.add(r.player, r.item, r.count)
  }

  /** Resolves once every change so far has been written (tests, shutdown). */
  flushed(): Promise<void> {
    return this.write ? this.write(async () => {}) : Promise.resolve()
  }

  private key(player: string): string {
    return player.toLowerCase()
  }

  private add(player: string, item: string, count: number): number {
    const m = this.held.get(this.key(player)) ?? new Map<string, number>()
    const n = (m.get(item) ?? 0) + count
    if (n > 0) m.set(item, n)
    else m.delete(item)
    if (m.size > 0) this.held.set(this.key(player), m)
    else this.held.delete(this.key(player))
    return Math.max(0, n)
  }

  private persist(player: string, item: string, count: number): void {
    const store = this.store
    if (store && this.write) void this.write(() => store.saveHeld({ player: this.key(player), item, count }))
  }

  reserve(player: string, item: string, count: number): void {
    if (count <= 0) return
    this.persist(player, item, this.add(player, item, count))
  }

  /** Release up to `count` of a player's reserved item; returns how many were released. */
  release(player: string, item: string, count: number): number {
    const have = this.held.get(this.key(player))?.get(item) ?? 0
    const n = Math.min(have, count)
    if (n <= 0) return 0
    this.persist(player, item, this.add(player, item, -n))
    return n
  }

  /** What is set aside for one player. */
  heldFor(player: string): Record<string, number> {
    return Object.fromEntries(this.held.get(this.key(player)) ?? [])
  }

  /** Players who have something set aside (lower case). */
  players(): string[] {
    return [...this.held.keys()]
  }

  /** Total set aside per item, except for `exceptPlayer` when given. */
  reserved(exceptPlayer?: string): Record<string, number> {
    const out: Record<string, number> = {}
    for (const [p, m] of this.held) {
      if (exceptPlayer && p === this.key(exceptPlayer)) continue
      for (const [item, n] of m) out[item] = (out[item] ?? 0) + n
    }
    return out
  }

  /** The inventory as a request sees it: minus what is set aside (for everyone, or everyone but one player). */
  view(inventory: Record<string, number>, exceptPlayer?: string): Record<string, number> {
    const r = this.reserved(exceptPlayer)
    const out: Record<string, number> = {}
    for (const [item, n] of Object.entries(inventory)) {
      const free = n - (r[item] ?? 0)
      if (free > 0) out[item] = free
    }
    return out
  }
}
