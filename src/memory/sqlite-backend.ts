/**
 * The SQLite backend of memory: every MemoryBackend operation as SQL on one memory.db opened by ./db.ts (WAL, shared
 * by all bot processes of a host). Writes are short BEGIN IMMEDIATE transactions (`writeTx`, retried on
 * SQLITE_BUSY); the vector searches (plan k-NN with its sign-code pre-filter, knowledge) are in ./sqlite-knn.ts.
 */
import { statSync } from 'node:fs'
import type Database from 'better-sqlite3'
import type { NamedPlace, ReferencePlan, StoredKnowledge } from '../schemas/memory.js'
import { GhostError } from '../util/errors.js'
import {
  goalSummaryFromRow,
  lessonFromRow,
  notNull,
  placeFromRow,
  planFromRow,
  referenceFromRow,
  type Everything,
  type PlaceRow,
  type LessonRow,
  type MemoryBackend,
  type Neighbour,
  type NewChunk,
  type NewLesson,
  type NewPlan,
  type PlanRow,
  type RefRow,
  type Scope,
  type SummaryWrite,
} from './backend.js'
import { resetVectors, SCHEMA_VERSION, shardOf, vecBlob, writeTx, type Db, type MemoryDb } from './db.js'
import { signCode } from './quantize.js'
import { nearestExact, nearestKnowledge, nearestPlans } from './sqlite-knn.js'

const UPSERT_REF = `INSERT INTO reference_plans (goal_key, goal_text, actions, source_count, summariser, updated_at, server) VALUES (?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (server, goal_key) DO UPDATE SET goal_text = excluded.goal_text, actions = excluded.actions, source_count = excluded.source_count,
  summariser = excluded.summariser, updated_at = excluded.updated_at`

export class SqliteBackend implements MemoryBackend {
  readonly kind = 'sqlite'
  readonly location: string
  constructor(readonly mdb: MemoryDb) {
    this.location = mdb.path
  }

  get db(): Db {
    return this.mdb.db
  }

  private readonly statements = new Map<string, Database.Statement>()
  /** A prepared statement, compiled once per handle (SQLite recompiles it itself after a schema change). */
  private st(sql: string): Database.Statement {
    let s = this.statements.get(sql)
    if (!s) {
      s = this.db.prepare(sql)
      this.statements.set(sql, s)
    }
    return s
  }
  embedModel(): string | null {
    return this.mdb.embedModel
  }
  embedDim(): number | null {
    return this.mdb.embedDim
  }

  async insertPlans(plans: NewPlan[], vectors: Float32Array[], model: string): Promise<number[]> {
    const db = this.db
    const insPlan =
      db.prepare(`INSERT INTO plans (goal_key, goal_text, state, actions, outcome, duration_ms, llm_calls, player, bot, server, created_at, summarised)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    const insVec = db.prepare('INSERT INTO plan_vec (plan_id, embedding, ok, model, dim) VALUES (?, ?, ?, ?, ?)')
    const insCode = db.prepare('INSERT INTO plan_bits (plan_id, ok, shard, code) VALUES (?, ?, ?, vec_bit(?))')
    return writeTx(db, () =>
      plans.map((p, i) => {
        const id = BigInt(
          insPlan.run(
            p.goalKey,
            p.goalText,
            p.state,
            JSON.stringify(p.actions),
            p.outcome,
            p.durationMs,
            p.llmCalls,
            p.player,
            p.bot,
            p.server,
            p.createdAt,
            p.summarised ? 1 : 0,
          ).lastInsertRowid,
        )
        const ok = p.outcome === 'success' ? 1n : 0n
        insVec.run(id, vecBlob(vectors[i]!), ok, model, BigInt(vectors[i]!.length))
        insCode.run(id, ok, shardOf(id), signCode(vectors[i]!))
        return Number(id)
      }),
    )
  }

  async pendingSuccesses(goalKey: string, limit: number, server?: string) {
    const of = server === undefined ? '' : " AND coalesce(server, '') = ?"
    return (
      this.db
        .prepare(
          `SELECT * FROM plans WHERE goal_key = ? AND outcome = 'success' AND summarised = 0${of} ORDER BY id LIMIT ?`,
        )
        .all(goalKey, ...(server === undefined ? [] : [server]), limit) as PlanRow[]
    )
      .map(planFromRow)
      .filter(notNull)
  }

  async commitSummary(s: SummaryWrite): Promise<boolean> {
    const db = this.db
    const marks = s.planIds.map(() => '?').join(',')
    return writeTx(db, () => {
      // Re-check inside the write lock: another process may have summarised these plans meanwhile.
      const marked = db
        .prepare(`UPDATE plans SET summarised = 1 WHERE id IN (${marks}) AND summarised = 0`)
        .run(...s.planIds).changes
      if (marked !== s.planIds.length) throw new Rollback()
      const prev =
        (
          db
            .prepare('SELECT source_count FROM reference_plans WHERE goal_key = ? AND server = ?')
            .get(s.goalKey, s.server) as { source_count: number } | undefined
        )?.source_count ?? 0
      db.prepare(UPSERT_REF).run(
        s.goalKey,
        s.goalText,
        JSON.stringify(s.actions),
        prev + s.planIds.length,
        s.summariser,
        s.updatedAt,
        s.server,
      )
      return true
    }).catch((err: unknown) => {
      if (err instanceof Rollback) return false
      throw err
    })
  }

  async referencePlan(goalKey: string, scope: Scope = null): Promise<ReferencePlan | null> {
    const row = (
      scope === null
        ? this.st('SELECT * FROM reference_plans WHERE goal_key = ? ORDER BY updated_at DESC LIMIT 1').get(goalKey)
        : this.st(
            "SELECT * FROM reference_plans WHERE goal_key = ? AND server IN (?, '') ORDER BY server = '', updated_at DESC LIMIT 1",
          ).get(goalKey, scope)
    ) as RefRow | undefined
    return row ? referenceFromRow(row) : null
  }

  async plans(goalKey: string, opts: { limit: number; successesOnly: boolean; newestFirst: boolean; scope?: Scope }) {
    const scoped = typeof opts.scope === 'string'
    const sql = `SELECT * FROM plans WHERE goal_key = ?${opts.successesOnly ? " AND outcome = 'success'" : ''}${scoped ? " AND coalesce(server, '') IN (?, '')" : ''} ORDER BY id ${opts.newestFirst ? 'DESC' : ''} LIMIT ?`
    const args = scoped ? [goalKey, opts.scope, opts.limit] : [goalKey, opts.limit]
    return (this.st(sql).all(...args) as PlanRow[]).map(planFromRow).filter(notNull)
  }

  async plan(id: number) {
    const row = this.st('SELECT * FROM plans WHERE id = ?').get(id) as PlanRow | undefined
    return row ? planFromRow(row) : null
  }

  async nearestPlans(v: Float32Array, k: number): Promise<Neighbour[]> {
    return this.nearestSync(v, k)
  }

  /** The plan k-NN (./sqlite-knn.ts): sign-code pre-filter and exact re-rank, or exact search while small. */
  nearestSync(v: Float32Array, k: number, mode: 'auto' | 'codes' = 'auto'): Neighbour[] {
    return nearestPlans((sql) => this.st(sql), v, k, mode)
  }

  /** The plain sqlite-vec brute-force k-NN (exact; for the benchmark's comparison). */
  nearestExactSync(v: Float32Array, k: number): Neighbour[] {
    return nearestExact((sql) => this.st(sql), v, k)
  }

  async insertLesson(l: NewLesson): Promise<number> {
    return writeTx(this.db, () =>
      Number(
        this.db
          .prepare(
            'INSERT INTO lessons (goal_key, cause, suggestions, player, bot, created_at) VALUES (?, ?, ?, ?, ?, ?)',
          )
          .run(l.goalKey, l.cause, JSON.stringify(l.suggestions), l.player, l.bot, l.createdAt).lastInsertRowid,
      ),
    )
  }

  async lessons(goalKey: string, limit: number) {
    return (
      this.st('SELECT * FROM lessons WHERE goal_key = ? ORDER BY id DESC LIMIT ?').all(goalKey, limit) as LessonRow[]
    )
      .map(lessonFromRow)
      .filter(notNull)
  }

  async insertKnowledge(chunks: NewChunk[], vectors: Float32Array[], model: string): Promise<number[]> {
    const ins = this.db.prepare('INSERT INTO knowledge (source, text, created_at) VALUES (?, ?, ?)')
    const insVec = this.db.prepare('INSERT INTO knowledge_vec (chunk_id, embedding, model, dim) VALUES (?, ?, ?, ?)')
    return writeTx(this.db, () =>
      chunks.map((c, i) => {
        const id = BigInt(ins.run(c.source, c.text, c.createdAt).lastInsertRowid)
        insVec.run(id, vecBlob(vectors[i]!), model, BigInt(vectors[i]!.length))
        return Number(id)
      }),
    )
  }

  async searchKnowledge(v: Float32Array, k: number): Promise<Array<StoredKnowledge & { similarity: number }>> {
    return nearestKnowledge((sql) => this.st(sql), v, k)
  }

  async stats() {
    const one = (sql: string): number => (this.db.prepare(sql).get() as { n: number }).n
    let fileBytes = 0
    for (const f of [this.location, `${this.location}-wal`]) {
      try {
        fileBytes += statSync(f).size
      } catch {
        /* absent WAL file */
      }
    }
    return {
      schemaVersion: SCHEMA_VERSION,
      embedModel: this.mdb.embedModel,
      embedDim: this.mdb.embedDim,
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
    }
  }

  async list(limit: number) {
    const rows = this.db
      .prepare(`SELECT p.goal_key AS goalKey, (SELECT goal_text FROM plans q WHERE q.goal_key = p.goal_key ORDER BY id DESC LIMIT 1) AS goalText,
      count(*) AS plans, sum(p.outcome = 'success') AS successes, max(p.created_at) AS lastAt,
      EXISTS (SELECT 1 FROM reference_plans r WHERE r.goal_key = p.goal_key) AS hasReference
      FROM plans p GROUP BY p.goal_key ORDER BY lastAt DESC, goalKey LIMIT ?`)
      .all(limit) as Array<Record<string, unknown>>
    return rows.map(goalSummaryFromRow).filter(notNull)
  }

  async forget(goalKey: string) {
    const db = this.db
    return writeTx(db, () => {
      const ids = (db.prepare('SELECT id FROM plans WHERE goal_key = ?').all(goalKey) as Array<{ id: number }>).map(
        (r) => r.id,
      )
      if (this.mdb.embedDim !== null) {
        const delVec = db.prepare('DELETE FROM plan_vec WHERE plan_id = ?')
        const delCode = db.prepare('DELETE FROM plan_bits WHERE plan_id = ?')
        for (const id of ids) {
          delVec.run(BigInt(id))
          delCode.run(BigInt(id))
        }
      }
      const plans = db.prepare('DELETE FROM plans WHERE goal_key = ?').run(goalKey).changes
      const references = db.prepare('DELETE FROM reference_plans WHERE goal_key = ?').run(goalKey).changes
      const lessons = db.prepare('DELETE FROM lessons WHERE goal_key = ?').run(goalKey).changes
      return { plans, references, lessons }
    })
  }

  async everything(): Promise<Everything> {
    const db = this.db
    // One read transaction: a consistent snapshot.
    return db.transaction(() => ({
      plans: (db.prepare('SELECT * FROM plans ORDER BY id').all() as PlanRow[]).map(planFromRow).filter(notNull),
      references: (db.prepare('SELECT * FROM reference_plans ORDER BY goal_key').all() as RefRow[])
        .map(referenceFromRow)
        .filter(notNull),
      lessons: (db.prepare('SELECT * FROM lessons ORDER BY id').all() as LessonRow[])
        .map(lessonFromRow)
        .filter(notNull),
      knowledge: (
        db.prepare('SELECT id, source, text, created_at FROM knowledge ORDER BY id').all() as Array<{
          id: number
          source: string
          text: string
          created_at: number
        }>
      ).map((k) => ({ id: k.id, source: k.source, text: k.text, createdAt: k.created_at })),
    }))()
  }

  async hasPlan(p: NewPlan): Promise<boolean> {
    return (
      this.db
        .prepare(
          'SELECT 1 FROM plans WHERE goal_key = ? AND created_at = ? AND actions = ? AND player IS ? AND bot IS ? LIMIT 1',
        )
        .get(p.goalKey, p.createdAt, JSON.stringify(p.actions), p.player, p.bot) !== undefined
    )
  }

  async hasLesson(l: NewLesson): Promise<boolean> {
    return (
      this.db
        .prepare('SELECT 1 FROM lessons WHERE goal_key = ? AND cause = ? AND created_at = ? LIMIT 1')
        .get(l.goalKey, l.cause, l.createdAt) !== undefined
    )
  }

  async hasChunk(c: NewChunk): Promise<boolean> {
    return (
      this.db.prepare('SELECT 1 FROM knowledge WHERE source = ? AND text = ? LIMIT 1').get(c.source, c.text) !==
      undefined
    )
  }

  async upsertReferenceIfNewer(r: ReferencePlan): Promise<boolean> {
    const db = this.db
    return writeTx(db, () => {
      const have = db
        .prepare("SELECT updated_at FROM reference_plans WHERE goal_key = ? AND server = ''")
        .get(r.goalKey) as { updated_at: number } | undefined
      if (have && have.updated_at >= r.updatedAt) return false
      db.prepare(UPSERT_REF).run(
        r.goalKey,
        r.goalText,
        JSON.stringify(r.actions),
        r.sourceCount,
        r.summariser,
        r.updatedAt,
        '',
      )
      return true
    })
  }

  async replaceVectors(
    model: string,
    dim: number,
    plans: Array<{ id: number; ok: boolean; v: Float32Array }>,
    chunks: Array<{ id: number; v: Float32Array }>,
  ): Promise<void> {
    const db = this.db
    await writeTx(db, () => {
      const now = db
        .prepare('SELECT (SELECT count(*) FROM plans) AS p, (SELECT count(*) FROM knowledge) AS k')
        .get() as { p: number; k: number }
      if (now.p !== plans.length || now.k !== chunks.length)
        throw new GhostError('busy', 'memory changed while re-embedding; stop the bots and run reembed again')
      resetVectors(db, { model, dim, embed: () => Promise.reject(new Error('unused')) })
      const insP = db.prepare('INSERT INTO plan_vec (plan_id, embedding, ok, model, dim) VALUES (?, ?, ?, ?, ?)')
      const insC = db.prepare('INSERT INTO plan_bits (plan_id, ok, shard, code) VALUES (?, ?, ?, vec_bit(?))')
      for (const p of plans) {
        insP.run(BigInt(p.id), vecBlob(p.v), p.ok ? 1n : 0n, model, BigInt(dim))
        insC.run(BigInt(p.id), p.ok ? 1n : 0n, shardOf(p.id), signCode(p.v))
      }
      const insK = db.prepare('INSERT INTO knowledge_vec (chunk_id, embedding, model, dim) VALUES (?, ?, ?, ?)')
      for (const c of chunks) insK.run(BigInt(c.id), vecBlob(c.v), model, BigInt(dim))
    })
    this.mdb.embedModel = model
    this.mdb.embedDim = dim
  }

  async savePlace(p: NamedPlace): Promise<void> {
    const st =
      this.st(`INSERT INTO places (server, name, x, y, z, dimension, owner, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (server, name) DO UPDATE SET x = excluded.x, y = excluded.y, z = excluded.z, dimension = excluded.dimension, owner = excluded.owner, created_at = excluded.created_at`)
    writeTx(this.db, () => st.run(p.server, p.name, p.x, p.y, p.z, p.dimension, p.owner, p.createdAt))
  }

  async place(server: string, name: string): Promise<NamedPlace | null> {
    const r = this.st('SELECT * FROM places WHERE server = ? AND name = ?').get(server, name) as PlaceRow | undefined
    return r ? placeFromRow(r) : null
  }

  async places(server: string | null): Promise<NamedPlace[]> {
    const st = this.st('SELECT * FROM places WHERE ? IS NULL OR server = ? ORDER BY server, name')
    return (st.all(server, server) as PlaceRow[]).map(placeFromRow).filter(notNull)
  }

  async deletePlace(server: string, name: string): Promise<boolean> {
    const st = this.st('DELETE FROM places WHERE server = ? AND name = ?')
    return writeTx(this.db, () => st.run(server, name).changes > 0)
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get()
  }

  async close(): Promise<void> {
    this.mdb.close()
  }
}

/** Thrown inside a write transaction to roll it back without an error. */
class Rollback extends Error {}
