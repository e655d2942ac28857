/**
 * MemoryStore: what the bot learns, shared by every player and bot process on the host (after GITM's memory).
 * Records executed plans with their goal-text embeddings, retrieves a reference plan for a sub-goal (exact goal key
 * first, else the nearest goals by cosine similarity above a threshold), summarises every 5 new successful plans of a
 * goal into its reference plan, and keeps failure lessons and knowledge chunks. Rows are validated with the zod
 * schemas in src/schemas/memory.ts on write and read. The database itself is owned by ./db.ts.
 */
import { statSync } from 'node:fs'
import { z } from 'zod'
import { Action } from '../schemas/action.js'
import type { Goal } from '../schemas/goal.js'
import {
  GoalSummary, KnowledgeChunk, Lesson, MemoryStats, PlanRun, ReferencePlan, type KnowledgeChunkInput, type LessonInput,
  type PlanRunInput, type RetrievedPlan, type StoredKnowledge, type StoredLesson, type StoredPlan,
} from '../schemas/memory.js'
import { GhostError } from '../util/errors.js'
import { logger } from '../util/log.js'
import { openMemoryDb, vecBlob, writeTx, SCHEMA_VERSION, type Db, type MemoryDb } from './db.js'
import { localEmbedder, type Embedder } from './embedder.js'
import { offlineMerge, SUMMARY_BATCH, type Summariser } from './summarise.js'

const log = logger('memory')
const Actions = z.array(Action).min(1)

export const DEFAULT_MIN_SIMILARITY = 0.6
export const DEFAULT_K = 3

export interface MemoryOptions {
  /** File path (GHOST_DB). */
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
}

export interface GoalDetail {
  goalKey: string
  reference: ReferencePlan | null
  plans: StoredPlan[]
  lessons: StoredLesson[]
}

interface PlanRow {
  id: number; goal_key: string; goal_text: string; state: string; actions: string; outcome: string
  duration_ms: number; llm_calls: number; player: string | null; bot: string | null; server: string | null
  created_at: number; summarised: number
}
interface RefRow { goal_key: string; goal_text: string; actions: string; source_count: number; summariser: string; updated_at: number }
interface LessonRow { id: number; goal_key: string; cause: string; suggestions: string; player: string | null; bot: string | null; created_at: number }

/** Parse stored actions; a row that no longer validates is skipped with a warning rather than poisoning a plan. */
function readActions(json: string, where: string): Action[] | null {
  try {
    const r = Actions.safeParse(JSON.parse(json))
    if (r.success) return r.data
    log.warn('stored actions do not validate; skipped', { where, issue: r.error.issues[0]?.message })
  } catch (err) {
    log.warn('stored actions are not JSON; skipped', { where, err: err as Error })
  }
  return null
}

export function planFromRow(r: PlanRow): StoredPlan | null {
  const actions = readActions(r.actions, `plan ${r.id}`)
  if (!actions) return null
  return {
    id: r.id, goalKey: r.goal_key, goalText: r.goal_text, state: r.state, actions, outcome: r.outcome as StoredPlan['outcome'],
    durationMs: r.duration_ms, llmCalls: r.llm_calls, player: r.player, bot: r.bot, server: r.server,
    createdAt: r.created_at, summarised: r.summarised === 1,
  }
}

export function referenceFromRow(r: RefRow): ReferencePlan | null {
  const actions = readActions(r.actions, `reference ${r.goal_key}`)
  if (!actions) return null
  return { goalKey: r.goal_key, goalText: r.goal_text, actions, sourceCount: r.source_count, summariser: r.summariser, updatedAt: r.updated_at }
}

export function lessonFromRow(r: LessonRow): StoredLesson {
  return { id: r.id, goalKey: r.goal_key, cause: r.cause, suggestions: JSON.parse(r.suggestions) as string[], player: r.player, bot: r.bot, createdAt: r.created_at }
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

function badInput(what: string, err: z.ZodError): GhostError {
  const issue = err.issues[0]
  return new GhostError('bad_input', `invalid ${what}: ${issue ? `${issue.path.join('.')} ${issue.message}` : err.message}`)
}

export class MemoryStore {
  readonly path: string
  readonly embedder: Embedder | null
  readonly summariser: Summariser
  readonly minSimilarity: number
  /** The underlying database; for ./maintenance.ts and tests. */
  readonly mdb: MemoryDb

  constructor(opts: MemoryOptions) {
    this.path = opts.path
    this.embedder = opts.embedder === undefined ? localEmbedder() : opts.embedder
    this.summariser = opts.summariser ?? offlineMerge
    this.minSimilarity = opts.minSimilarity ?? DEFAULT_MIN_SIMILARITY
    this.mdb = openMemoryDb(opts.path, { embedder: this.embedder ?? undefined, allowEmbedderMismatch: opts.allowEmbedderMismatch ?? false, busyTimeoutMs: opts.busyTimeoutMs })
  }

  get db(): Db { return this.mdb.db }

  close(): void { this.mdb.close() }

  private needEmbedder(): Embedder {
    if (!this.embedder) throw new GhostError('memory', 'this memory handle was opened without an embedder')
    return this.embedder
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const e = this.needEmbedder()
    const vs = await e.embed(texts)
    if (vs.length !== texts.length || vs.some((v) => v.length !== e.dim)) {
      throw new GhostError('memory', `embedder ${e.model} returned ${vs.length} vectors of length ${vs[0]?.length ?? 0} for ${texts.length} texts (expected ${e.dim})`)
    }
    return vs
  }

  /** Store one executed plan; summarises the goal when it has 5 new successful plans. */
  async recordPlan(run: PlanRunInput): Promise<{ id: number; summarised: boolean }> {
    const [id] = await this.recordPlans([run], { summarise: false })
    const parsed = PlanRun.parse(run)
    const summarised = parsed.outcome === 'success' ? await this.summariseGoal(parsed.goalKey) : false
    return { id: id!, summarised }
  }

  /** Store several plans in one short transaction (import, bench). Returns their ids in order. */
  async recordPlans(runs: PlanRunInput[], opts: { summarise?: boolean; vectors?: Float32Array[] } = {}): Promise<number[]> {
    const parsed = runs.map((r) => {
      const p = PlanRun.safeParse(r)
      if (!p.success) throw badInput('plan', p.error)
      return p.data
    })
    if (parsed.length === 0) return []
    const e = this.needEmbedder()
    const vectors = opts.vectors ?? await this.embed(parsed.map((p) => p.goalText))
    const now = Date.now()
    const insPlan = this.db.prepare(`INSERT INTO plans (goal_key, goal_text, state, actions, outcome, duration_ms, llm_calls, player, bot, server, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    const insVec = this.db.prepare('INSERT INTO plan_vec (plan_id, embedding, ok, model, dim) VALUES (?, ?, ?, ?, ?)')
    const ids = await writeTx(this.db, () => parsed.map((p, i) => {
      const info = insPlan.run(p.goalKey, p.goalText, p.state, JSON.stringify(p.actions), p.outcome, p.durationMs, p.llmCalls,
        p.player, p.bot, p.server, p.createdAt ?? now)
      const id = BigInt(info.lastInsertRowid)
      insVec.run(id, vecBlob(vectors[i]!), p.outcome === 'success' ? 1n : 0n, e.model, BigInt(e.dim))
      return Number(id)
    }))
    if (opts.summarise ?? true) {
      for (const key of new Set(parsed.filter((p) => p.outcome === 'success').map((p) => p.goalKey))) await this.summariseGoal(key)
    }
    return ids
  }

  /**
   * Summarise the goal's oldest new successful plans, SUMMARY_BATCH at a time, into its reference plan. The summariser
   * runs outside any transaction; the write re-checks that no other process summarised the same plans meanwhile.
   */
  async summariseGoal(goalKey: string): Promise<boolean> {
    let did = false
    for (;;) {
      const rows = this.db.prepare(`SELECT * FROM plans WHERE goal_key = ? AND outcome = 'success' AND summarised = 0 ORDER BY id LIMIT ?`)
        .all(goalKey, SUMMARY_BATCH) as PlanRow[]
      if (rows.length < SUMMARY_BATCH) return did
      const plans = rows.map(planFromRow).filter((p): p is StoredPlan => p !== null)
      const previous = this.referencePlan(goalKey)
      let actions: Action[]
      try {
        const r = Actions.safeParse(await this.summariser.summarise({ goalKey, goalText: rows[rows.length - 1]!.goal_text, plans: plans.map((p) => p.actions), previous: previous?.actions ?? null }))
        if (!r.success) throw badInput('summary', r.error)
        actions = r.data
      } catch (err) {
        log.warn('summariser failed; plans stay pending', { goalKey, summariser: this.summariser.name, err: err as Error })
        return did
      }
      const ids = rows.map((r) => r.id)
      const marks = ids.map(() => '?').join(',')
      const wrote = await writeTx(this.db, () => {
        const still = this.db.prepare(`SELECT count(*) AS n FROM plans WHERE id IN (${marks}) AND summarised = 0`).get(...ids) as { n: number }
        if (still.n !== ids.length) return false
        const prevCount = (this.db.prepare('SELECT source_count FROM reference_plans WHERE goal_key = ?').get(goalKey) as { source_count: number } | undefined)?.source_count ?? 0
        this.db.prepare(`INSERT INTO reference_plans (goal_key, goal_text, actions, source_count, summariser, updated_at) VALUES (?, ?, ?, ?, ?, ?)
          ON CONFLICT (goal_key) DO UPDATE SET goal_text = excluded.goal_text, actions = excluded.actions, source_count = excluded.source_count,
          summariser = excluded.summariser, updated_at = excluded.updated_at`)
          .run(goalKey, rows[rows.length - 1]!.goal_text, JSON.stringify(actions), prevCount + ids.length, this.summariser.name, Date.now())
        this.db.prepare(`UPDATE plans SET summarised = 1 WHERE id IN (${marks})`).run(...ids)
        return true
      })
      if (!wrote) continue // another process summarised these plans meanwhile: look again
      did = true
      log.info('reference plan updated', { goalKey, from: ids.length })
    }
  }

  /** The goal's summary, or null. */
  referencePlan(goalKey: string): ReferencePlan | null {
    const row = this.db.prepare('SELECT * FROM reference_plans WHERE goal_key = ?').get(goalKey) as RefRow | undefined
    return row ? referenceFromRow(row) : null
  }

  /** The plan to follow for a goal key: its summary when there is one, else its first successful plan. */
  reference(goalKey: string): Omit<RetrievedPlan, 'match' | 'similarity'> | null {
    const ref = this.referencePlan(goalKey)
    if (ref) return { goalKey, goalText: ref.goalText, source: 'summary', planId: null, actions: ref.actions }
    const rows = this.db.prepare(`SELECT * FROM plans WHERE goal_key = ? AND outcome = 'success' ORDER BY id LIMIT 5`).all(goalKey) as PlanRow[]
    for (const row of rows) {
      const p = planFromRow(row)
      if (p) return { goalKey, goalText: p.goalText, source: 'first_success', planId: p.id, actions: p.actions }
    }
    return null
  }

  /**
   * Reference plans for a sub-goal: the exact goal key when memory has one (a single result), otherwise up to `k`
   * other goals whose text is nearest by cosine similarity (at least `minSimilarity`), best first.
   */
  async retrieve(query: { goalKey?: string; goalText: string }, opts: { k?: number; minSimilarity?: number } = {}): Promise<RetrievedPlan[]> {
    if (query.goalKey) {
      const exact = this.reference(query.goalKey)
      if (exact) return [{ match: 'exact', similarity: 1, ...exact }]
    }
    const k = opts.k ?? DEFAULT_K
    const minSim = opts.minSimilarity ?? this.minSimilarity
    const [qv] = await this.embed([query.goalText])
    // Several plans share a goal, so ask sqlite-vec for more neighbours than goals wanted.
    const neighbours = this.nearestPlans(qv!, Math.min(4096, k * 16))
    const best = new Map<string, number>()
    for (const n of neighbours) {
      const sim = 1 - n.distance
      if (sim < minSim || n.goalKey === query.goalKey) continue
      if (!best.has(n.goalKey)) best.set(n.goalKey, sim)
    }
    const out: RetrievedPlan[] = []
    for (const [goalKey, similarity] of best) {
      if (out.length >= k) break
      const ref = this.reference(goalKey)
      if (ref) out.push({ match: 'similar', similarity, ...ref })
    }
    return out
  }

  /** k nearest successful plans by cosine distance via sqlite-vec. */
  nearestPlans(v: Float32Array, k: number): Array<{ planId: number; goalKey: string; distance: number }> {
    const rows = this.db.prepare(`SELECT n.plan_id AS planId, p.goal_key AS goalKey, n.distance AS distance
      FROM (SELECT plan_id, distance FROM plan_vec WHERE embedding MATCH ? AND k = ? AND ok = 1) n
      JOIN plans p ON p.id = n.plan_id ORDER BY n.distance`).all(vecBlob(v), BigInt(k))
    return rows as Array<{ planId: number; goalKey: string; distance: number }>
  }

  async addLesson(lesson: LessonInput): Promise<number> {
    const p = Lesson.safeParse(lesson)
    if (!p.success) throw badInput('lesson', p.error)
    const l = p.data
    return writeTx(this.db, () => Number(this.db.prepare('INSERT INTO lessons (goal_key, cause, suggestions, player, bot, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(l.goalKey, l.cause, JSON.stringify(l.suggestions), l.player, l.bot, l.createdAt ?? Date.now()).lastInsertRowid))
  }

  /** Newest lessons for a goal first. */
  lessons(goalKey: string, limit = 5): StoredLesson[] {
    return (this.db.prepare('SELECT * FROM lessons WHERE goal_key = ? ORDER BY id DESC LIMIT ?').all(goalKey, limit) as LessonRow[]).map(lessonFromRow)
  }

  async addKnowledge(chunks: KnowledgeChunkInput[]): Promise<number[]> {
    const parsed = chunks.map((c) => { const p = KnowledgeChunk.safeParse(c); if (!p.success) throw badInput('knowledge chunk', p.error); return p.data })
    if (parsed.length === 0) return []
    const e = this.needEmbedder()
    const vectors = await this.embed(parsed.map((c) => c.text))
    const ins = this.db.prepare('INSERT INTO knowledge (source, text, created_at) VALUES (?, ?, ?)')
    const insVec = this.db.prepare('INSERT INTO knowledge_vec (chunk_id, embedding, model, dim) VALUES (?, ?, ?, ?)')
    const now = Date.now()
    return writeTx(this.db, () => parsed.map((c, i) => {
      const id = BigInt(ins.run(c.source, c.text, c.createdAt ?? now).lastInsertRowid)
      insVec.run(id, vecBlob(vectors[i]!), e.model, BigInt(e.dim))
      return Number(id)
    }))
  }

  /** Knowledge chunks nearest to a text, best first. */
  async searchKnowledge(text: string, k = 5): Promise<Array<StoredKnowledge & { similarity: number }>> {
    const [qv] = await this.embed([text])
    const rows = this.db.prepare(`SELECT c.id, c.source, c.text, c.created_at, n.distance FROM
      (SELECT chunk_id, distance FROM knowledge_vec WHERE embedding MATCH ? AND k = ?) n JOIN knowledge c ON c.id = n.chunk_id ORDER BY n.distance`)
      .all(vecBlob(qv!), BigInt(k)) as Array<{ id: number; source: string; text: string; created_at: number; distance: number }>
    return rows.map((r) => ({ id: r.id, source: r.source, text: r.text, createdAt: r.created_at, similarity: 1 - r.distance }))
  }

  plan(id: number): StoredPlan | null {
    const row = this.db.prepare('SELECT * FROM plans WHERE id = ?').get(id) as PlanRow | undefined
    return row ? planFromRow(row) : null
  }

  stats(): MemoryStats {
    const one = (sql: string): number => (this.db.prepare(sql).get() as { n: number }).n
    let fileBytes = 0
    for (const f of [this.path, `${this.path}-wal`]) { try { fileBytes += statSync(f).size } catch { /* absent WAL file */ } }
    return MemoryStats.parse({
      path: this.path, schemaVersion: SCHEMA_VERSION, embedModel: this.mdb.embedModel, embedDim: this.mdb.embedDim,
      plans: one('SELECT count(*) AS n FROM plans'),
      successes: one("SELECT count(*) AS n FROM plans WHERE outcome = 'success'"),
      failures: one("SELECT count(*) AS n FROM plans WHERE outcome = 'failure'"),
      goals: one('SELECT count(DISTINCT goal_key) AS n FROM plans'),
      references: one('SELECT count(*) AS n FROM reference_plans'),
      lessons: one('SELECT count(*) AS n FROM lessons'),
      knowledge: one('SELECT count(*) AS n FROM knowledge'),
      players: one('SELECT count(DISTINCT player) AS n FROM plans'),
      bots: one('SELECT count(DISTINCT bot) AS n FROM plans'),
      fileBytes,
    })
  }

  /** Goals memory knows, most recently used first. */
  list(limit = 20): GoalSummary[] {
    const rows = this.db.prepare(`SELECT p.goal_key AS goalKey, (SELECT goal_text FROM plans q WHERE q.goal_key = p.goal_key ORDER BY id DESC LIMIT 1) AS goalText,
      count(*) AS plans, sum(p.outcome = 'success') AS successes, max(p.created_at) AS lastAt,
      EXISTS (SELECT 1 FROM reference_plans r WHERE r.goal_key = p.goal_key) AS hasReference
      FROM plans p GROUP BY p.goal_key ORDER BY lastAt DESC, goalKey LIMIT ?`).all(limit) as Array<Record<string, unknown>>
    return rows.map((r) => GoalSummary.parse({ ...r, hasReference: r.hasReference === 1 }))
  }

  /** Everything memory holds for one goal key (newest plans first), or null when it knows nothing. */
  show(goalKey: string, limit = 10): GoalDetail | null {
    const reference = this.referencePlan(goalKey)
    const plans = (this.db.prepare('SELECT * FROM plans WHERE goal_key = ? ORDER BY id DESC LIMIT ?').all(goalKey, limit) as PlanRow[])
      .map(planFromRow).filter((p): p is StoredPlan => p !== null)
    const lessons = this.lessons(goalKey, limit)
    if (!reference && plans.length === 0 && lessons.length === 0) return null
    return { goalKey, reference, plans, lessons }
  }

  /** Delete a goal's plans (and their vectors), reference plan and lessons. */
  async forget(goalKey: string): Promise<{ plans: number; references: number; lessons: number }> {
    return writeTx(this.db, () => {
      const ids = (this.db.prepare('SELECT id FROM plans WHERE goal_key = ?').all(goalKey) as Array<{ id: number }>).map((r) => r.id)
      const delVec = this.db.prepare('DELETE FROM plan_vec WHERE plan_id = ?')
      if (this.mdb.embedDim !== null) for (const id of ids) delVec.run(BigInt(id))
      const plans = this.db.prepare('DELETE FROM plans WHERE goal_key = ?').run(goalKey).changes
      const references = this.db.prepare('DELETE FROM reference_plans WHERE goal_key = ?').run(goalKey).changes
      const lessons = this.db.prepare('DELETE FROM lessons WHERE goal_key = ?').run(goalKey).changes
      return { plans, references, lessons }
    })
  }
}

/** Open the shared memory at `opts.path` (see MemoryOptions). */
export function openMemory(opts: MemoryOptions): MemoryStore {
  return new MemoryStore(opts)
}

