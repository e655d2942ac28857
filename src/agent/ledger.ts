/**
 * The delivery ledger: items the bot holds that are set aside for a player (obtained for them, not yet handed
 * over — the player was away, offline or unreachable). An obtain for a player is fulfilled from its own delta: it
 * sees the inventory minus everything set aside (`view`), so one player's items never count as another's, and
 * its result is set aside for its player until `give` hands it over. In memory only: a restart forgets it.
 */
export class Ledger {
  private readonly held = new Map<string, Map<string, number>>()

  private key(player: string): string {
    return player.toLowerCase()
  }

  reserve(player: string, item: string, count: number): void {
    if (count <= 0) return
    const m = this.held.get(this.key(player)) ?? new Map<string, number>()
    m.set(item, (m.get(item) ?? 0) + count)
    this.held.set(this.key(player), m)
  }

  /** Release up to `count` of a player's reserved item; returns how many were released. */
  release(player: string, item: string, count: number): number {
    const m = this.held.get(this.key(player))
    const have = m?.get(item) ?? 0
    const n = Math.min(have, count)
    if (!m || n <= 0) return 0
    if (have - n > 0) m.set(item, have - n)
    else m.delete(item)
    if (m.size === 0) this.held.delete(this.key(player))
    return n
  }

  /** What is set aside for one player. */
  heldFor(player: string): Record<string, number> {
    return Object.fromEntries(this.held.get(this.key(player)) ?? [])
  }

  /** Players who have something set aside. */
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
