/**
 * The courier: hands a player what the bot set aside for them (the delivery ledger, ledger.ts) when that player is
 * next near, without being asked. It is told when a player comes within reach (`near`), leaves again (`leave`) and
 * when the bot is between tasks (`between`: a task ended, or the bot is idle). It never interrupts a running task:
 * a player who comes near during one is served when it ends, if still near. Each hand-over runs as a short
 * interactive task in the queue (ahead of long ones, like `come`). One try per approach: after a try (handed over
 * or not) the player is not tried again until they have left and come back, so an unreachable player is not
 * chased in a loop. Pure logic: the app wires it to the bot's view (src/actions/nearby.ts) and the router's queue.
 */
import type { Ledger } from './ledger.js'

export interface CourierDeps {
  ledger: Ledger
  /** Online players (server spelling) within reach of the bot now. */
  near(): string[]
  /** Whether a task is running now (the courier then waits for `between`). */
  busy(): boolean
  /** Queue the hand-over to `player` as a short interactive task. */
  handOver(player: string): void
}

export class Courier {
  /** Players (lower case) tried since they last came near. */
  private readonly tried = new Set<string>()
  constructor(private readonly deps: CourierDeps) {}

  /** A player came within reach. */
  near(player: string): void {
    this.consider([player])
  }

  /** A player went out of reach (or out of sight, or off the server): the next approach may try again. */
  leave(player: string): void {
    this.tried.delete(player.toLowerCase())
  }

  /** The bot is between tasks or idle: serve whoever is near and waiting for something. */
  between(): void {
    this.consider(this.deps.near())
  }

  private consider(players: string[]): void {
    if (this.deps.busy()) return
    for (const p of players) {
      const key = p.toLowerCase()
      if (this.tried.has(key) || Object.keys(this.deps.ledger.heldFor(p)).length === 0) continue
      this.tried.add(key)
      this.deps.handOver(p)
    }
  }
}
