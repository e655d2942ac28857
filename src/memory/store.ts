/**
 * MemoryStore: what the bot learns, shared by every player and bot process of a host (SQLite file) or of a network
 * (PostgreSQL), after GITM's memory. Records executed plans with their goal-text embeddings, retrieves a reference
 * plan for a sub-goal (exact goal key first, else the nearest goals by cosine similarity above a threshold),
 * summarises every 5 new successful plans of a goal into its reference plan (once, whichever process gets there),
 * and keeps failure lessons and knowledge chunks. Input is validated with the zod schemas of src/schemas/memory.ts;
 * storage is a MemoryBackend (./backend.ts), so nothing here knows the engine. When the engine is unreachable the
 * store degrades instead of failing requests (./availability.ts): reads return nothing, writes wait in a bounded
 * outbox, `health()` says so, and a timer reconnects and flushes the outbox.
 */
import { z } from 'zod'
import { Action } from '../schemas/action.js'
import type { Goal } from '../schemas/goal.js'
import {
  KnowledgeChunk,
  Lesson,
  MemoryStats,
  NamedPlace,
  PlanRun,
  type GoalSummary,
  type KnowledgeChunkInput,
  type LessonInput,
  type PlanRunInput,
  type ReferencePlan,
  type RetrievedPlan,
  type StoredKnowledge,
  type StoredLesson,
  type StoredPlan,
} from '../schemas/memory.js'
import { GhostError } from '../util/errors.js'
import { logger } from '../util/log.js'
import { Availability, DEFAULT_RECONNECT_MS } from './availability.js'
import { isUnavailable, unavailableReason, type MemoryBackend, type Neighbour, type Scope } from './backend.js'
import { localEmbedder, type Embedder } from './embedder.js'
import { offlineMerge, SUMMARY_BATCH, type Summariser } from './summarise.js'

const log = logger('memory')
export { OUTBOX_LIMIT, DEFAULT_RECONNECT_MS } from './availability.js'
const Actions = z.array(Action).min(1)

export const DEFAULT_MIN_SIMILARITY = 0.6
export const DEFAULT_K = 3

export interface MemoryOptions {
  /** GHOST_DB: a file path, or a postgres:// / postgresql:// URL. */
  path: string
  /** Embedder for goal texts and knowledge; default the local one. `null` opens without vectors (CLI inspection). */
  embedder?: Embedder | null
  summariser?: Summariser
  /** Cosine similarity a neighbour needs to count as a similar goal. */
  minSimilarity?: number
  /** Only `reembed` opens a database whose vectors come from another embedder. */
  allowEmbedderMismatch?: boolean
  /** SQLite busy_timeout (default 10 s); writes retry with backoff after it. */
  busyTimeoutMs?: number
  /** PostgreSQL connections per process (default 4). */
  poolSize?: number
  /** How often to try again while the engine is unreachable. */
  reconnectMs?: number
  /**
   * GHOST_MEMORY_SHARE: the server (`host:port`) whose plans and summaries retrieval reads ('server'), or null for
   * every server's ('network'; also the default for tools that inspect a whole memory). Writes always record theirs.
   */
  scope?: Scope
}

export interface GoalDetail {
  goalKey: string
  reference: ReferencePlan | null
  plans: StoredPlan[]
  lessons: StoredLesson[]
}

/** Words a goal is embedded and searched by: count, object, tool, materials and short info. */
export function describeGoal(goal: Goal): string {
  const parts = [`obtain ${goal.count} ${goal.object.replace(/_/g, ' ')}`]
  if (goal.tool) parts.push(`with ${goal.tool.replace(/_/g, ' ')}`)
  const mats = Object.keys(goal.material)
  if (mats.length > 0) parts.push(`from ${mats.map((m) => m.replace(/_/g, ' ')).join(', ')}`)
  if (goal.info) parts.push(goal.info)
  return parts.join(' ')
}

export function badInput(what: string, err: z.ZodError): GhostError {
  const issue = err.issues[0]
  return new GhostError(
    'bad_input',
    `invalid ${what}: ${issue ? `${issue.path.join('.')} ${issue.message}` : err.message}`,
  )
}

export class MemoryStore {
  readonly embedder: Embedder | null
  readonly summariser: Summariser
  readonly minSimilarity: number
  readonly scope: Scope
  private readonly link: Availability

  constructor(
    readonly backend: MemoryBackend,
    opts: Omit<MemoryOptions, 'path'>,
    startDown: string | null = null,
  ) {
    this.embedder = opts.embedder === undefined ? localEmbedder() : opts.embedder
    this.summariser = opts.summariser ?? offlineMerge
    this.minSimilarity = opts.minSimilarity ?? DEFAULT_MIN_SIMILARITY
    this.scope = opts.scope ?? null
    this.link = new Availability(backend, opts.reconnectMs ?? DEFAULT_RECONNECT_MS, startDown)
  }

  /** Where the memory lives, safe to print (passwords redacted). */
  get location(): string {
    return this.backend.location
  }
  get kind(): 'sqlite' | 'postgres' {
    return this.backend.kind
  }

  async close(): Promise<void> {
    await this.link.close()
    await this.backend.close()
  }

  /** One line for `status` when memory is degraded, else null. */
  health(): string | null {
    return this.link.health()
  }

  get available(): boolean {
    return this.link.up
  }

  /** Try the engine again; on success flush the writes that waited. Returns true when memory is up. */
  reconnect(): Promise<boolean> {
    return this.link.reconnect()
  }

  private needEmbedder(): Embedder {
    if (!this.embedder) throw new GhostError('memory', 'this memory handle was opened without an embedder')
    return this.embedder
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const e = this.needEmbedder()
    const vs = await e.embed(texts)
    if (vs.length !== texts.length || vs.some((v) => v.length !== e.dim)) {
      throw new GhostError(
        'memory',
        `embedder ${e.model} returned ${vs.length} vectors of length ${vs[0]?.length ?? 0} for ${texts.length} texts (expected ${e.dim})`,
      )
    }
    return vs
  }

  /** Store one executed plan; summarises the goal when it has 5 new successful plans. `id` is null while memory is down. */
  async recordPlan(run: PlanRunInput): Promise<{ id: number | null; summarised: boolean }> {
    const [id] = await this.recordPlans([run], { summarise: false })
    const parsed = PlanRun.parse(run)
    const summarised =
      id !== null && parsed.outcome === 'success'
        ? await this.summariseGoal(parsed.goalKey, parsed.server ?? '')
        : false
    return { id: id ?? null, summarised }
  }

  /** Store several plans in one short transaction (import, bench). Returns their ids in order (none while memory is down). */
  async recordPlans(
    runs: Array<PlanRunInput & { summarised?: boolean }>,
    opts: { summarise?: boolean; vectors?: Float32Array[] } = {},
  ): Promise<number[]> {
    const parsed = runs.map((r) => {
      const p = PlanRun.safeParse(r)
      if (!p.success) throw badInput('plan', p.error)
      return { ...p.data, createdAt: p.data.createdAt ?? Date.now(), summarised: r.summarised ?? false }
    })
    if (parsed.length === 0) return []
    const e = this.needEmbedder()
    const vectors = opts.vectors ?? (await this.embed(parsed.map((p) => p.goalText)))
    const ids = await this.link.write(`${parsed.length} plans`, () =>
      this.backend.insertPlans(parsed, vectors, e.model),
    )
    if (ids && (opts.summarise ?? true)) {
      const done = new Set<string>()
      for (const p of parsed.filter((r) => r.outcome === 'success')) {
        const server = p.server ?? ''
        if (done.has(`${server}\n${p.goalKey}`)) continue
        done.add(`${server}\n${p.goalKey}`)
        await this.summariseGoal(p.goalKey, server)
      }
    }
    return ids ?? []
  }

  /**
   * Summarise the goal's oldest new successful plans, SUMMARY_BATCH at a time, into its reference plan. The summariser
   * runs outside any transaction; the write re-checks that no other process summarised the same plans meanwhile.
   * Summaries are per server (`server`: the plans' server, '' for plans without one); without it the goal's plans of
   * every server are merged into an unscoped summary (an import).
   */
  async summariseGoal(goalKey: string, server?: string): Promise<boolean> {
    try {
      return await this.summariseBatches(goalKey, server)
    } catch (err) {
      // The plans stay pending; the goal's next success (in any process) summarises them.
      if (!isUnavailable(err)) throw err
      this.link.markDown(unavailableReason(err))
      return false
    }
  }

  private async summariseBatches(goalKey: string, server?: string): Promise<boolean> {
    let did = false
    for (;;) {
      if (!this.link.up) return did
      const plans = await this.backend.pendingSuccesses(goalKey, SUMMARY_BATCH, server)
      if (plans.length < SUMMARY_BATCH) return did
      const previous = await this.backend.referencePlan(goalKey, server ?? '')
      const goalText = plans[plans.length - 1]!.goalText
      let actions: Action[]
      try {
        const r = Actions.safeParse(
          await this.summariser.summarise({
            goalKey,
            goalText,
            plans: plans.map((p) => p.actions),
            previous: previous?.actions ?? null,
          }),
        )
        if (!r.success) throw badInput('summary', r.error)
        actions = r.data
      } catch (err) {
        log.warn('summariser failed; plans stay pending', {
          goalKey,
          summariser: this.summariser.name,
          err: err as Error,
        })
        return did
      }
      const planIds = plans.map((p) => p.id)
      const wrote = await this.backend.commitSummary({
        goalKey,
        server: server ?? '',
        planIds,
        goalText,
        actions,
        summariser: this.summariser.name,
        updatedAt: Date.now(),
      })
      if (!wrote) continue // another process summarised these plans meanwhile: look again
      did = true
      log.info('reference plan updated', { goalKey, from: planIds.length })
    }
  }

  /** The goal's summary in this store's scope, or null. */
  async referencePlan(goalKey: string): Promise<ReferencePlan | null> {
    return this.link.read(() => this.backend.referencePlan(goalKey, this.scope), null)
  }

  /** The plan to follow for a goal key: its summary when there is one, else its first successful plan. */
  async reference(goalKey: string): Promise<Omit<RetrievedPlan, 'match' | 'similarity'> | null> {
    const ref = await this.referencePlan(goalKey)
    if (ref) return { goalKey, goalText: ref.goalText, source: 'summary', planId: null, actions: ref.actions }
    const first = (
      await this.link.read(
        () => this.backend.plans(goalKey, { limit: 1, successesOnly: true, newestFirst: false, scope: this.scope }),
        [],
      )
    )[0]
    return first
      ? { goalKey, goalText: first.goalText, source: 'first_success', planId: first.id, actions: first.actions }
      : null
  }

  /**
   * Reference plans for a sub-goal: the exact goal key when memory has one (a single result), otherwise up to `k`
   * other goals whose text is nearest by cosine similarity (at least `minSimilarity`), best first. Empty while
   * memory is down.
   */
  async retrieve(
    query: { goalKey?: string; goalText: string },
    opts: { k?: number; minSimilarity?: number } = {},
  ): Promise<RetrievedPlan[]> {
    if (query.goalKey) {
      const exact = await this.reference(query.goalKey)
      if (exact) return [{ match: 'exact', similarity: 1, ...exact }]
    }
    if (!this.link.up) return []
    const k = opts.k ?? DEFAULT_K
    const minSim = opts.minSimilarity ?? this.minSimilarity
    const [qv] = await this.embed([query.goalText])
    // Several plans share a goal, so ask for more neighbours than goals wanted (more still when other servers'
    // plans are skipped: a server sees its own and unscoped ones).
    const neighbours = (await this.nearestPlans(qv!, Math.min(256, k * (this.scope === null ? 4 : 16)))).filter(
      (n) => this.scope === null || !n.server || n.server === this.scope,
    )
    const best = new Map<string, number>()
    for (const n of neighbours) {
      const sim = 1 - n.distance
      if (sim < minSim || n.goalKey === query.goalKey) continue
      if (!best.has(n.goalKey)) best.set(n.goalKey, sim)
    }
    const out: RetrievedPlan[] = []
    for (const [goalKey, similarity] of best) {
      if (out.length >= k) break
      const ref = await this.reference(goalKey)
      if (ref) out.push({ match: 'similar', similarity, ...ref })
    }
    return out
  }

  /** k nearest successful plans by cosine distance. */
  async nearestPlans(v: Float32Array, k: number): Promise<Neighbour[]> {
    return this.link.read(() => this.backend.nearestPlans(v, k), [])
  }

  /** Store a failure lesson; null while memory is down (it is written on reconnect). */
  async addLesson(lesson: LessonInput): Promise<number | null> {
    const p = Lesson.safeParse(lesson)
    if (!p.success) throw badInput('lesson', p.error)
    const l = { ...p.data, createdAt: p.data.createdAt ?? Date.now() }
    return this.link.write('lesson', () => this.backend.insertLesson(l))
  }

  /** Newest lessons for a goal first (rows that no longer validate are skipped). */
  async lessons(goalKey: string, limit = 5): Promise<StoredLesson[]> {
    return this.link.read(() => this.backend.lessons(goalKey, limit), [])
  }

  async addKnowledge(chunks: KnowledgeChunkInput[]): Promise<number[]> {
    const parsed = chunks.map((c) => {
      const p = KnowledgeChunk.safeParse(c)
      if (!p.success) throw badInput('knowledge chunk', p.error)
      return p.data
    })
    if (parsed.length === 0) return []
    const e = this.needEmbedder()
    const vectors = await this.embed(parsed.map((c) => c.text))
    const now = Date.now()
    const rows = parsed.map((c) => ({ source: c.source, text: c.text, createdAt: c.createdAt ?? now }))
    return (await this.link.write('knowledge', () => this.backend.insertKnowledge(rows, vectors, e.model))) ?? []
  }

  /** Knowledge chunks nearest to a text, best first. */
  async searchKnowledge(text: string, k = 5): Promise<Array<StoredKnowledge & { similarity: number }>> {
    if (!this.link.up) return []
    const [qv] = await this.embed([text])
    return this.link.read(() => this.backend.searchKnowledge(qv!, k), [])
  }

  async plan(id: number): Promise<StoredPlan | null> {
    return this.link.read(() => this.backend.plan(id), null)
  }

  /** Counts; throws a MemoryUnavailable-style GhostError while memory is down (the CLI and chat command say so). */
  async stats(): Promise<MemoryStats> {
    if (!this.link.up) throw new GhostError('memory', this.health() ?? 'memory is unavailable')
    return MemoryStats.parse({ path: this.location, ...(await this.backend.stats()) })
  }

  /** Goals memory knows, most recently used first. */
  async list(limit = 20): Promise<GoalSummary[]> {
    return this.link.read(() => this.backend.list(limit), [])
  }

  /** Everything memory holds for one goal key (newest plans first), or null when it knows nothing. */
  async show(goalKey: string, limit = 10): Promise<GoalDetail | null> {
    const reference = await this.referencePlan(goalKey)
    const plans = await this.link.read(
      () => this.backend.plans(goalKey, { limit, successesOnly: false, newestFirst: true, scope: this.scope }),
      [],
    )
    const lessons = await this.lessons(goalKey, limit)
    if (!reference && plans.length === 0 && lessons.length === 0) return null
    return { goalKey, reference, plans, lessons }
  }

  /** Named places of a server (issue 17). Saving and forgetting need the engine up; lookups answer "none" while it is down. */
  async savePlace(p: NamedPlace): Promise<void> {
    this.link.needUp()
    await this.backend.savePlace(NamedPlace.parse(p))
  }
  async place(server: string, name: string): Promise<NamedPlace | null> {
    return this.link.read(() => this.backend.place(server, name), null)
  }
  async places(server: string): Promise<NamedPlace[]> {
    return this.link.read(() => this.backend.places(server), [])
  }
  async deletePlace(server: string, name: string): Promise<boolean> {
    this.link.needUp()
    return this.backend.deletePlace(server, name)
  }

  /** Delete a goal's plans (and their vectors), reference plan and lessons. */
  async forget(goalKey: string): Promise<{ plans: number; references: number; lessons: number }> {
    this.link.needUp()
    return this.backend.forget(goalKey)
  }
}
