/**
 * The PostgreSQL backend of memory: every MemoryBackend operation as SQL over the pool of ./pgdb.ts, so the bots of
 * several servers share one memory. Vectors are pgvector `vector(dim)` columns; the plan k-NN goes through an HNSW
 * index (cosine, successful plans only). A summary is committed only when it can mark all its plans summarised
 * (`UPDATE … WHERE NOT summarised` under row locks), so racing processes summarise each batch once.
 */
import type pg from 'pg'
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
import { guarded, pgResetVectors, pgTx, PG_SCHEMA_VERSION, type PgDb } from './pgdb.js'

const UPSERT_REF = `INSERT INTO reference_plans (goal_key, goal_text, actions, source_count, summariser, updated_at, server) VALUES ($1, $2, $3, $4, $5, $6, $7)
  ON CONFLICT (server, goal_key) DO UPDATE SET goal_text = excluded.goal_text, actions = excluded.actions, source_count = excluded.source_count,
  summariser = excluded.summariser, updated_at = excluded.updated_at`

/** pgvector's text form of a vector. */
export function vecText(v: Float32Array): string {
  return `[${Array.from(v).join(',')}]`
}

export class PgBackend implements MemoryBackend {
  readonly kind = 'postgres'
  readonly location: string
  constructor(readonly pdb: PgDb) {
    this.location = pdb.location
  }

  embedModel(): string | null {
    return this.pdb.embedModel
  }
  embedDim(): number | null {
    return this.pdb.embedDim
  }

  private async q<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
    await this.pdb.ready()
    return (await guarded(() => this.pdb.pool.query<R>(sql, params))).rows
  }

  private async tx<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    await this.pdb.ready()
    return pgTx(this.pdb.pool, fn)
  }

  async insertPlans(plans: NewPlan[], vectors: Float32Array[]): Promise<number[]> {
    return this.tx(async (c) => {
      // Ids first (in order), then one multi-row insert per table.
      const ids = (
        await c.query<{ id: string }>("SELECT nextval('plans_id_seq') AS id FROM generate_series(1, $1)", [
          plans.length,
        ])
      ).rows.map((r) => Number(r.id))
      const cols = 13
      await c.query(
        `INSERT INTO plans (id, goal_key, goal_text, state, actions, outcome, duration_ms, llm_calls, player, bot, server, created_at, summarised)
        VALUES ${ids.map((_, i) => `(${Array.from({ length: cols }, (_, j) => `$${cols * i + j + 1}`).join(', ')})`).join(', ')}`,
        plans.flatMap((p, i) => [
          ids[i],
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
          p.summarised ?? false,
        ]),
      )
      await c.query(
        `INSERT INTO plan_vec (plan_id, ok, embedding) VALUES ${ids.map((_, i) => `($${3 * i + 1}, $${3 * i + 2}, $${3 * i + 3}::vector)`).join(', ')}`,
        ids.flatMap((id, i) => [id, plans[i]!.outcome === 'success', vecText(vectors[i]!)]),
      )
      return ids
    })
  }

  async pendingSuccesses(goalKey: string, limit: number, server?: string) {
    const of = server === undefined ? '' : " AND coalesce(server, '') = $3"
    return (
      await this.q<PlanRow>(
        `SELECT * FROM plans WHERE goal_key = $1 AND outcome = 'success' AND NOT summarised${of} ORDER BY id LIMIT $2`,
        server === undefined ? [goalKey, limit] : [goalKey, limit, server],
      )
    )
      .map(planFromRow)
      .filter(notNull)
  }

  async commitSummary(s: SummaryWrite): Promise<boolean> {
    return this.tx(async (c) => {
      // Row locks serialise racing summaries; the loser sees summarised = true, marks fewer rows and rolls back.
      const marked = await c.query(
        'UPDATE plans SET summarised = true WHERE id = ANY($1::bigint[]) AND NOT summarised',
        [s.planIds],
      )
      if (marked.rowCount !== s.planIds.length) throw new Lost()
      const prev = await c.query<{ source_count: number }>(
        'SELECT source_count FROM reference_plans WHERE goal_key = $1 AND server = $2 FOR UPDATE',
        [s.goalKey, s.server],
      )
      await c.query(UPSERT_REF, [
        s.goalKey,
        s.goalText,
        JSON.stringify(s.actions),
        (prev.rows[0]?.source_count ?? 0) + s.planIds.length,
        s.summariser,
        s.updatedAt,
        s.server,
      ])
      return true
    }).catch((err: unknown) => {
      if (err instanceof Lost) return false
      throw err
    })
  }

  async referencePlan(goalKey: string, scope: Scope = null): Promise<ReferencePlan | null> {
    const [row] =
      scope === null
        ? await this.q<RefRow>('SELECT * FROM reference_plans WHERE goal_key = $1 ORDER BY updated_at DESC LIMIT 1', [
            goalKey,
          ])
        : await this.q<RefRow>(
            "SELECT * FROM reference_plans WHERE goal_key = $1 AND server IN ($2, '') ORDER BY server = '', updated_at DESC LIMIT 1",
            [goalKey, scope],
          )
    return row ? referenceFromRow(row) : null
  }

  async plans(goalKey: string, opts: { limit: number; successesOnly: boolean; newestFirst: boolean; scope?: Scope }) {
    const scoped = typeof opts.scope === 'string'
    const sql = `SELECT * FROM plans WHERE goal_key = $1${opts.successesOnly ? " AND outcome = 'success'" : ''}${scoped ? " AND coalesce(server, '') IN ($3, '')" : ''} ORDER BY id ${opts.newestFirst ? 'DESC' : ''} LIMIT $2`
    const args = scoped ? [goalKey, opts.limit, opts.scope] : [goalKey, opts.limit]
    return (await this.q<PlanRow>(sql, args)).map(planFromRow).filter(notNull)
  }

  async plan(id: number) {
    const [row] = await this.q<PlanRow>('SELECT * FROM plans WHERE id = $1', [id])
    return row ? planFromRow(row) : null
  }

  async nearestPlans(v: Float32Array, k: number): Promise<Neighbour[]> {
    const rows = await this.q<{ plan_id: string; goal_key: string; distance: number; server: string | null }>(
      `SELECT n.plan_id, p.goal_key, n.distance, p.server FROM
      (SELECT plan_id, embedding <=> $1::vector AS distance FROM plan_vec WHERE ok ORDER BY embedding <=> $1::vector LIMIT $2) n
      JOIN plans p ON p.id = n.plan_id ORDER BY n.distance, n.plan_id`,
      [vecText(v), k],
    )
    return rows.map((r) => ({ planId: Number(r.plan_id), goalKey: r.goal_key, distance: r.distance, server: r.server }))
  }

  async insertLesson(l: NewLesson): Promise<number> {
    const [r] = await this.q<{ id: string }>(
      'INSERT INTO lessons (goal_key, cause, suggestions, player, bot, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id',
      [l.goalKey, l.cause, JSON.stringify(l.suggestions), l.player, l.bot, l.createdAt],
    )
    return Number(r!.id)
  }

  async lessons(goalKey: string, limit: number) {
    return (
      await this.q<LessonRow>('SELECT * FROM lessons WHERE goal_key = $1 ORDER BY id DESC LIMIT $2', [goalKey, limit])
    )
      .map(lessonFromRow)
      .filter(notNull)
  }

  async insertKnowledge(chunks: NewChunk[], vectors: Float32Array[]): Promise<number[]> {
    return this.tx(async (c) => {
      const ids: number[] = []
      for (let i = 0; i < chunks.length; i++) {
        const r = await c.query<{ id: string }>(
          'INSERT INTO knowledge (source, text, created_at) VALUES ($1, $2, $3) RETURNING id',
          [chunks[i]!.source, chunks[i]!.text, chunks[i]!.createdAt],
        )
        const id = Number(r.rows[0]!.id)
        await c.query('INSERT INTO knowledge_vec (chunk_id, embedding) VALUES ($1, $2::vector)', [
          id,
          vecText(vectors[i]!),
        ])
        ids.push(id)
      }
      return ids
    })
  }

  async searchKnowledge(v: Float32Array, k: number): Promise<Array<StoredKnowledge & { similarity: number }>> {
    const rows = await this.q<{ id: string; source: string; text: string; created_at: string; distance: number }>(
      `SELECT c.id, c.source, c.text, c.created_at, n.distance FROM
      (SELECT chunk_id, embedding <=> $1::vector AS distance FROM knowledge_vec ORDER BY embedding <=> $1::vector LIMIT $2) n JOIN knowledge c ON c.id = n.chunk_id ORDER BY n.distance`,
      [vecText(v), k],
    )
    return rows.map((r) => ({
      id: Number(r.id),
      source: r.source,
      text: r.text,
      createdAt: Number(r.created_at),
      similarity: 1 - r.distance,
    }))
  }

  async stats() {
    const [r] = await this.q<Record<string, string>>(`SELECT
      (SELECT count(*) FROM plans) AS plans, (SELECT count(*) FROM plans WHERE outcome = 'success') AS successes,
      (SELECT count(*) FROM plans WHERE outcome = 'failure') AS failures, (SELECT count(DISTINCT goal_key) FROM plans) AS goals,
      (SELECT count(*) FROM reference_plans) AS "references", (SELECT count(*) FROM lessons) AS lessons,
      (SELECT count(*) FROM knowledge) AS knowledge, (SELECT count(DISTINCT player) FROM plans) AS players,
      (SELECT count(DISTINCT bot) FROM plans) AS bots,
      (SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c WHERE c.relname IN ('plans', 'plan_vec', 'reference_plans', 'lessons', 'knowledge', 'knowledge_vec')) AS bytes`)
    const n = (k: string): number => Number(r![k])
    return {
      schemaVersion: PG_SCHEMA_VERSION,
      embedModel: this.pdb.embedModel,
      embedDim: this.pdb.embedDim,
      plans: n('plans'),
      successes: n('successes'),
      failures: n('failures'),
      goals: n('goals'),
      references: n('references'),
      lessons: n('lessons'),
      knowledge: n('knowledge'),
      players: n('players'),
      bots: n('bots'),
      fileBytes: n('bytes'),
    }
  }

  async list(limit: number) {
    const rows = await this.q<Record<string, unknown>>(
      `SELECT p.goal_key AS "goalKey", (SELECT goal_text FROM plans q WHERE q.goal_key = p.goal_key ORDER BY id DESC LIMIT 1) AS "goalText",
      count(*) AS plans, count(*) FILTER (WHERE p.outcome = 'success') AS successes, max(p.created_at) AS "lastAt",
      EXISTS (SELECT 1 FROM reference_plans r WHERE r.goal_key = p.goal_key) AS "hasReference"
      FROM plans p GROUP BY p.goal_key ORDER BY "lastAt" DESC, "goalKey" LIMIT $1`,
      [limit],
    )
    return rows.map(goalSummaryFromRow).filter(notNull)
  }

  async forget(goalKey: string) {
    return this.tx(async (c) => {
      // plan_vec rows go with their plans (ON DELETE CASCADE).
      const plans = (await c.query('DELETE FROM plans WHERE goal_key = $1', [goalKey])).rowCount ?? 0
      const references = (await c.query('DELETE FROM reference_plans WHERE goal_key = $1', [goalKey])).rowCount ?? 0
      const lessons = (await c.query('DELETE FROM lessons WHERE goal_key = $1', [goalKey])).rowCount ?? 0
      return { plans, references, lessons }
    })
  }

  async everything(): Promise<Everything> {
    return this.tx(async (c) => {
      await c.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ')
      const all = async <R extends pg.QueryResultRow>(sql: string): Promise<R[]> => (await c.query<R>(sql)).rows
      return {
        plans: (await all<PlanRow>('SELECT * FROM plans ORDER BY id')).map(planFromRow).filter(notNull),
        references: (await all<RefRow>('SELECT * FROM reference_plans ORDER BY goal_key'))
          .map(referenceFromRow)
          .filter(notNull),
        lessons: (await all<LessonRow>('SELECT * FROM lessons ORDER BY id')).map(lessonFromRow).filter(notNull),
        knowledge: (
          await all<{ id: string; source: string; text: string; created_at: string }>(
            'SELECT id, source, text, created_at FROM knowledge ORDER BY id',
          )
        ).map((k) => ({ id: Number(k.id), source: k.source, text: k.text, createdAt: Number(k.created_at) })),
      }
    })
  }

  async hasPlan(p: NewPlan): Promise<boolean> {
    return (
      (
        await this.q(
          'SELECT 1 FROM plans WHERE goal_key = $1 AND created_at = $2 AND actions = $3::jsonb AND player IS NOT DISTINCT FROM $4 AND bot IS NOT DISTINCT FROM $5 LIMIT 1',
          [p.goalKey, p.createdAt, JSON.stringify(p.actions), p.player, p.bot],
        )
      ).length > 0
    )
  }

  async hasLesson(l: NewLesson): Promise<boolean> {
    return (
      (
        await this.q('SELECT 1 FROM lessons WHERE goal_key = $1 AND cause = $2 AND created_at = $3 LIMIT 1', [
          l.goalKey,
          l.cause,
          l.createdAt,
        ])
      ).length > 0
    )
  }

  async hasChunk(c: NewChunk): Promise<boolean> {
    return (
      (await this.q('SELECT 1 FROM knowledge WHERE source = $1 AND text = $2 LIMIT 1', [c.source, c.text])).length > 0
    )
  }

  async upsertReferenceIfNewer(r: ReferencePlan): Promise<boolean> {
    const rows = await this.q(
      `${UPSERT_REF} WHERE reference_plans.updated_at < excluded.updated_at RETURNING goal_key`,
      [r.goalKey, r.goalText, JSON.stringify(r.actions), r.sourceCount, r.summariser, r.updatedAt, ''],
    )
    return rows.length > 0
  }

  async replaceVectors(
    model: string,
    dim: number,
    plans: Array<{ id: number; ok: boolean; v: Float32Array }>,
    chunks: Array<{ id: number; v: Float32Array }>,
  ): Promise<void> {
    await this.tx(async (c) => {
      await c.query('LOCK TABLE plans, knowledge IN SHARE MODE')
      const [now] = (
        await c.query<{ p: string; k: string }>(
          'SELECT (SELECT count(*) FROM plans) AS p, (SELECT count(*) FROM knowledge) AS k',
        )
      ).rows
      if (Number(now!.p) !== plans.length || Number(now!.k) !== chunks.length)
        throw new GhostError('busy', 'memory changed while re-embedding; stop the bots and run reembed again')
      await pgResetVectors(c, model, dim)
      for (const p of plans)
        await c.query('INSERT INTO plan_vec (plan_id, ok, embedding) VALUES ($1, $2, $3::vector)', [
          p.id,
          p.ok,
          vecText(p.v),
        ])
      for (const k of chunks)
        await c.query('INSERT INTO knowledge_vec (chunk_id, embedding) VALUES ($1, $2::vector)', [k.id, vecText(k.v)])
    })
    this.pdb.embedModel = model
    this.pdb.embedDim = dim
  }

  async savePlace(p: NamedPlace): Promise<void> {
    await this.q(
      `INSERT INTO places (server, name, x, y, z, dimension, owner, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
      ON CONFLICT (server, name) DO UPDATE SET x = excluded.x, y = excluded.y, z = excluded.z, dimension = excluded.dimension, owner = excluded.owner, created_at = excluded.created_at`,
      [p.server, p.name, p.x, p.y, p.z, p.dimension, p.owner, p.createdAt],
    )
  }

  async place(server: string, name: string): Promise<NamedPlace | null> {
    const r = (await this.q<PlaceRow>('SELECT * FROM places WHERE server = $1 AND name = $2', [server, name]))[0]
    return r ? placeFromRow(r) : null
  }

  async places(server: string | null): Promise<NamedPlace[]> {
    const sql = 'SELECT * FROM places WHERE $1::text IS NULL OR server = $1 ORDER BY server, name'
    return (await this.q<PlaceRow>(sql, [server])).map(placeFromRow).filter(notNull)
  }

  async deletePlace(server: string, name: string): Promise<boolean> {
    await this.pdb.ready()
    return (
      ((await guarded(() => this.pdb.pool.query('DELETE FROM places WHERE server = $1 AND name = $2', [server, name])))
        .rowCount ?? 0) > 0
    )
  }

  async ping(): Promise<void> {
    await this.q('SELECT 1')
  }

  private closing: Promise<void> | null = null
  async close(): Promise<void> {
    this.closing ??= this.pdb.close()
    return this.closing
  }
}

/** Thrown inside a transaction to roll it back: another process summarised the same plans first. */
class Lost extends Error {}
