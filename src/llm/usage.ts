/**
 * Usage accounting: calls and tokens per request, per goal and per player, in memory (reset on restart), with a
 * JSON-friendly `snapshot()` for the `status` command, and the per-player token budget (GHOST_PLAYER_TOKEN_BUDGET;
 * 0 disables LLM use for players). Calls without a player (system work such as embeddings) are counted but never
 * budgeted. The budget is checked before a call; a call already under way may overshoot it once.
 */
import { LlmBudgetError } from './errors.js'

export interface TokenUsage {
  promptTokens: number
  completionTokens: number
}
export interface UsageTotals {
  calls: number
  promptTokens: number
  completionTokens: number
  totalTokens: number
}
export interface UsageMeta {
  player: string | null
  goalKey?: string | null
  requestId?: string | null
}

export interface UsageSnapshot {
  total: UsageTotals
  budgetPerPlayer: number
  players: Record<string, UsageTotals & { remaining: number }>
  goals: Record<string, UsageTotals>
  /** Most recent requests only (bounded), newest last. */
  requests: Record<string, UsageTotals>
}

const MAX_REQUESTS_KEPT = 200
const zero = (): UsageTotals => ({ calls: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0 })

function add(t: UsageTotals, u: TokenUsage): void {
  t.calls += 1
  t.promptTokens += u.promptTokens
  t.completionTokens += u.completionTokens
  t.totalTokens += u.promptTokens + u.completionTokens
}

export class UsageLedger {
  private readonly total = zero()
  private readonly players = new Map<string, UsageTotals>()
  private readonly goals = new Map<string, UsageTotals>()
  private readonly requests = new Map<string, UsageTotals>()

  constructor(readonly budgetPerPlayer: number) {}

  /** Throws LlmBudgetError when `player` has no tokens left. */
  check(player: string | null): void {
    if (player === null) return
    const used = this.players.get(player)?.totalTokens ?? 0
    if (this.budgetPerPlayer <= 0 || used >= this.budgetPerPlayer)
      throw new LlmBudgetError(player, used, this.budgetPerPlayer)
  }

  remaining(player: string): number {
    return Math.max(0, this.budgetPerPlayer - (this.players.get(player)?.totalTokens ?? 0))
  }

  /** Record one HTTP call's usage under every key in `meta`. */
  record(meta: UsageMeta, usage: TokenUsage): void {
    add(this.total, usage)
    if (meta.player !== null) add(bucket(this.players, meta.player), usage)
    if (meta.goalKey) add(bucket(this.goals, meta.goalKey), usage)
    if (meta.requestId) {
      add(bucket(this.requests, meta.requestId), usage)
      if (this.requests.size > MAX_REQUESTS_KEPT) this.requests.delete(this.requests.keys().next().value as string)
    }
  }

  forPlayer(player: string): UsageTotals {
    return { ...(this.players.get(player) ?? zero()) }
  }
  forGoal(goalKey: string): UsageTotals {
    return { ...(this.goals.get(goalKey) ?? zero()) }
  }
  forRequest(requestId: string): UsageTotals {
    return { ...(this.requests.get(requestId) ?? zero()) }
  }

  snapshot(): UsageSnapshot {
    const players: UsageSnapshot['players'] = {}
    for (const [k, v] of this.players) players[k] = { ...v, remaining: this.remaining(k) }
    return {
      total: { ...this.total },
      budgetPerPlayer: this.budgetPerPlayer,
      players,
      goals: Object.fromEntries([...this.goals].map(([k, v]) => [k, { ...v }])),
      requests: Object.fromEntries([...this.requests].map(([k, v]) => [k, { ...v }])),
    }
  }
}

function bucket(m: Map<string, UsageTotals>, key: string): UsageTotals {
  let t = m.get(key)
  if (!t) {
    t = zero()
    m.set(key, t)
  }
  return t
}

/** Rough token estimate for servers that do not report usage (about 4 characters a token). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4)
}
