/**
 * The bridge's read-only views (the `view` message of src/schemas/ws.ts), which the web page polls and any script
 * may ask for: the task queue, the last requests with the replies each got, memory (counts, goals, search, one
 * goal's reference plan as its list of actions and its lessons), LLM calls and tokens per player against the
 * budget, and the audit log tail. Each view has a minimum role (WS_VIEW_MIN_ROLE, checked with the router's own
 * `atLeast`); the bridge answers `forbidden` below it. Views change nothing, so they are not written to the audit
 * log; everything that acts goes through the router as a request. Memory and usage come in through narrow,
 * structural ports so this file depends on no store or client implementation (memory may answer sync or async).
 */
import { formatAction } from '../../memory/format.js'
import type { ReplyRecord, Router } from '../../router/router.js'
import type { Action } from '../../schemas/action.js'
import type {
  GoalSummary,
  MemoryStats,
  ReferencePlan,
  RetrievedPlan,
  StoredLesson,
  StoredPlan,
} from '../../schemas/memory.js'
import { atLeast, type Role } from '../../schemas/role.js'
import { WS_VIEW_MIN_ROLE, type WsViewData, type WsViewName } from '../../schemas/ws.js'

type Awaitable<T> = T | Promise<T>

/** What the views need from the plan memory (src/memory/store.ts fits it). */
export interface MemoryViewSource {
  stats(): Awaitable<MemoryStats>
  list(limit: number): Awaitable<GoalSummary[]>
  show(
    goalKey: string,
    limit?: number,
  ): Awaitable<{ reference: ReferencePlan | null; plans: StoredPlan[]; lessons: StoredLesson[] } | null>
  retrieve(query: { goalText: string }, opts?: { k?: number; minSimilarity?: number }): Promise<RetrievedPlan[]>
}

interface Totals {
  calls: number
  promptTokens: number
  completionTokens: number
  totalTokens: number
}
/** What the views need from the LLM client (src/llm/client.ts fits it). */
export interface UsageViewSource {
  model: string
  usage: {
    snapshot(): { total: Totals; budgetPerPlayer: number; players: Record<string, Totals & { remaining: number }> }
  }
}

export interface ViewSources {
  memory?: MemoryViewSource | null
  llm?: UsageViewSource | null
  /** GHOST_PLAYER_TOKEN_BUDGET, shown when no LLM is configured. */
  budgetPerPlayer?: number
}

export type ViewAnswer = { ok: true; data: WsViewData } | { ok: false; code: 'forbidden' | 'invalid'; message: string }

const RECENT = 30
const KEPT_REPLIES = 200
const lines = (actions: Action[]): string[] => actions.map(formatAction)
const zero: Totals = { calls: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0 }

export class Views {
  private readonly replies: ReplyRecord[] = []
  private readonly unsubscribe: () => void

  constructor(
    private readonly router: Router,
    private readonly sources: ViewSources = {},
  ) {
    this.unsubscribe = router.onReply((r) => {
      this.replies.push(r)
      if (this.replies.length > KEPT_REPLIES) this.replies.shift()
    })
  }

  close(): void {
    this.unsubscribe()
  }

  async answer(role: Role, view: WsViewName, q: string | undefined): Promise<ViewAnswer> {
    const min = WS_VIEW_MIN_ROLE[view]
    if (!atLeast(role, min))
      return { ok: false, code: 'forbidden', message: `the ${view} view needs the ${min} role and you are ${role}` }
    switch (view) {
      case 'queue':
        return { ok: true, data: { view, current: this.router.queue.current(), pending: this.router.queue.pending() } }
      case 'recent':
        return { ok: true, data: { view, entries: this.recent() } }
      case 'audit':
        return { ok: true, data: { view, entries: this.router.audit.recent.slice(-RECENT) } }
      case 'usage':
        return { ok: true, data: this.usage() }
      case 'memory':
      case 'memory_search':
      case 'memory_goal':
        return this.memory(view, q)
    }
  }

  private recent(): Extract<WsViewData, { view: 'recent' }>['entries'] {
    return this.router.audit.recent.slice(-RECENT).map((e) => ({
      ...e,
      replies: this.replies
        .filter((r) => r.requestId === e.requestId)
        .map((r) => ({ text: r.text, private: r.private, at: r.at })),
    }))
  }

  private usage(): WsViewData {
    const llm = this.sources.llm
    if (!llm)
      return {
        view: 'usage',
        model: null,
        budgetPerPlayer: this.sources.budgetPerPlayer ?? 0,
        total: { ...zero },
        players: [],
      }
    const s = llm.usage.snapshot()
    const players = Object.entries(s.players)
      .map(([player, t]) => ({ player, ...t }))
      .sort((a, b) => b.totalTokens - a.totalTokens)
    return { view: 'usage', model: llm.model, budgetPerPlayer: s.budgetPerPlayer, total: s.total, players }
  }

  private async memory(view: 'memory' | 'memory_search' | 'memory_goal', q: string | undefined): Promise<ViewAnswer> {
    const m = this.sources.memory
    if (!m) return { ok: false, code: 'invalid', message: 'this bot has no memory attached' }
    if (view === 'memory') {
      const s = await m.stats()
      const goals = (await m.list(50)).map((g) => ({
        goalKey: g.goalKey,
        goalText: g.goalText,
        plans: g.plans,
        successes: g.successes,
        hasReference: g.hasReference,
      }))
      const stats = {
        plans: s.plans,
        successes: s.successes,
        failures: s.failures,
        goals: s.goals,
        references: s.references,
        lessons: s.lessons,
        knowledge: s.knowledge,
      }
      return { ok: true, data: { view, stats, goals } }
    }
    const text = (q ?? '').trim()
    if (text.length === 0) return { ok: false, code: 'invalid', message: `the ${view} view needs "q"` }
    if (view === 'memory_search') {
      const found = await m.retrieve({ goalText: text }, { k: 8, minSimilarity: 0 })
      const results = found.map((r) => ({
        goalKey: r.goalKey,
        goalText: r.goalText,
        match: r.match,
        similarity: Math.round(r.similarity * 1000) / 1000,
        source: r.source,
        actions: lines(r.actions),
      }))
      return { ok: true, data: { view, query: text, results } }
    }
    const d = await m.show(text, 5)
    return {
      ok: true,
      data: {
        view,
        goalKey: text,
        found: d !== null,
        reference: d?.reference
          ? {
              source: `summary of ${d.reference.sourceCount} plan(s) by ${d.reference.summariser}`,
              actions: lines(d.reference.actions),
            }
          : null,
        lessons: (d?.lessons ?? []).map((l) => ({
          cause: l.cause,
          suggestions: l.suggestions,
          player: l.player,
          createdAt: l.createdAt,
        })),
        plans: (d?.plans ?? []).map((p) => ({
          id: p.id,
          outcome: p.outcome,
          player: p.player,
          durationMs: p.durationMs,
          actions: lines(p.actions),
        })),
      },
    }
  }
}
