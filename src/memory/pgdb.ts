/**
 * The PostgreSQL memory database: the one module that opens a connection pool to `GHOST_DB=postgres://…`, loads
 * pgvector, migrates the schema (a version in `ghost_meta`, applied under an advisory lock so several servers'
 * bots starting together migrate once), creates the vector tables and their HNSW indexes for the configured embedder
 * and refuses a database whose vectors come from another model or dimension. It also owns the notion of "the
 * engine is unreachable" (connection errors become MemoryUnavailable) and the password redaction of the URL.
 */
import pg from 'pg'
import { GhostError } from '../util/errors.js'
import { logger } from '../util/log.js'
import { MemoryUnavailable } from './backend.js'
import { REEMBED_HINT } from './db.js'
import type { Embedder } from './embedder.js'

const log = logger('memory.pg')

/** HNSW build and search settings (see docs/memory.md for the measurements behind them). */
export const HNSW_M = 16
export const HNSW_EF_CONSTRUCTION = 64
export const HNSW_EF_SEARCH = 200
/** pgvector indexes `vector` columns of at most this many dimensions; wider vectors are scanned exactly. */
const HNSW_MAX_DIM = 2000
const CONNECT_TIMEOUT_MS = 3000
const STATEMENT_TIMEOUT_MS = 10_000
const LOCK_KEY = 0x67686f73 // 'ghos'

const MIGRATIONS: ReadonlyArray<{ description: string; sql: string }> = [
  {
    description: 'plans, reference plans, lessons, knowledge',
    sql: `
      CREATE TABLE plans (
        id bigserial PRIMARY KEY, goal_key text NOT NULL, goal_text text NOT NULL, state text NOT NULL DEFAULT '',
        actions jsonb NOT NULL, outcome text NOT NULL CHECK (outcome IN ('success', 'failure')),
        duration_ms bigint NOT NULL CHECK (duration_ms >= 0), llm_calls integer NOT NULL DEFAULT 0,
        player text, bot text, server text, created_at bigint NOT NULL, summarised boolean NOT NULL DEFAULT false);
      CREATE INDEX plans_goal ON plans (goal_key, outcome, id);
      CREATE INDEX plans_pending ON plans (goal_key, id) WHERE outcome = 'success' AND NOT summarised;
      CREATE TABLE reference_plans (
        goal_key text PRIMARY KEY, goal_text text NOT NULL, actions jsonb NOT NULL, source_count integer NOT NULL,
        summariser text NOT NULL, updated_at bigint NOT NULL);
      CREATE TABLE lessons (
        id bigserial PRIMARY KEY, goal_key text NOT NULL, cause text NOT NULL, suggestions jsonb NOT NULL,
        player text, bot text, created_at bigint NOT NULL);
      CREATE INDEX lessons_goal ON lessons (goal_key, id);
      CREATE TABLE knowledge (id bigserial PRIMARY KEY, source text NOT NULL DEFAULT '', text text NOT NULL, created_at bigint NOT NULL);`,
  },
  {
    description: 'named places per server (issue 17)',
    sql: `
      CREATE TABLE places (
        server text NOT NULL, name text NOT NULL, x integer NOT NULL, y integer NOT NULL, z integer NOT NULL,
        dimension text NOT NULL DEFAULT 'overworld', owner text NOT NULL, created_at bigint NOT NULL,
        PRIMARY KEY (server, name));`,
  },
  {
    description: 'items set aside for players and players who said quiet, per server and bot (issue 15)',
    sql: `
      CREATE TABLE held_items (
        server text NOT NULL, bot text NOT NULL, player text NOT NULL, item text NOT NULL,
        count integer NOT NULL CHECK (count > 0), updated_at bigint NOT NULL,
        PRIMARY KEY (server, bot, player, item));
      CREATE TABLE quiet_players (
        server text NOT NULL, bot text NOT NULL, player text NOT NULL, since bigint NOT NULL,
        PRIMARY KEY (server, bot, player));`,
  },
  {
    description: 'blocks the bot saw players place, per server (issue 20)',
    sql: `
      CREATE TABLE placed_blocks (
        server text NOT NULL, dimension text NOT NULL, x integer NOT NULL, y integer NOT NULL, z integer NOT NULL,
        block text NOT NULL, player text NOT NULL, created_at bigint NOT NULL,
        PRIMARY KEY (server, dimension, x, y, z));
      CREATE INDEX placed_blocks_age ON placed_blocks (server, created_at);`,
  },
  {
    description: "reference plans per server ('' for summaries stored before, or imported) (issue 20)",
    sql: `
      ALTER TABLE reference_plans ADD COLUMN server text NOT NULL DEFAULT '';
      ALTER TABLE reference_plans DROP CONSTRAINT reference_plans_pkey;
      ALTER TABLE reference_plans ADD PRIMARY KEY (server, goal_key);`,
  },
]
export const PG_SCHEMA_VERSION = MIGRATIONS.length

/** The plans' HNSW index (cosine, successful plans only); also used by the benchmark's bulk load. */
export const PLAN_HNSW_SQL = `CREATE INDEX IF NOT EXISTS plan_vec_hnsw ON plan_vec USING hnsw (embedding vector_cosine_ops) WITH (m = ${HNSW_M}, ef_construction = ${HNSW_EF_CONSTRUCTION}) WHERE ok`

/** SQL of the vector tables for `dim`-dimensional vectors: cosine HNSW indexes (successful plans only). */
export function pgVecTablesSql(dim: number): string {
  const index = dim <= HNSW_MAX_DIM
  return `
    CREATE TABLE plan_vec (plan_id bigint PRIMARY KEY REFERENCES plans (id) ON DELETE CASCADE, ok boolean NOT NULL, embedding vector(${dim}) NOT NULL);
    ${index ? `${PLAN_HNSW_SQL};` : ''}
    CREATE TABLE knowledge_vec (chunk_id bigint PRIMARY KEY REFERENCES knowledge (id) ON DELETE CASCADE, embedding vector(${dim}) NOT NULL);
    ${index ? 'CREATE INDEX knowledge_vec_hnsw ON knowledge_vec USING hnsw (embedding vector_cosine_ops);' : ''}`
}

export function isPostgresUrl(s: string): boolean {
  return /^postgres(ql)?:\/\//i.test(s)
}

/** The URL with its password replaced by `***`, safe for logs and `status`. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url)
    if (u.password) u.password = '***'
    return u.toString()
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@')
  }
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
])

/** Connection-level failures (server down, network lost, connection killed) as opposed to a bad query. */
export function isConnectionError(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null
  const code = typeof e?.code === 'string' ? e.code : ''
  if (CONNECTION_CODES.has(code) || code.startsWith('08')) return true
  const msg = typeof e?.message === 'string' ? e.message : ''
  return /Connection terminated|timeout exceeded when trying to connect|connect ECONNREFUSED|Client has encountered a connection error|Connection ended|not queryable/i.test(
    msg,
  )
}

/** Run `fn`, turning connection failures into MemoryUnavailable. */
export async function guarded<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (err) {
    if (isConnectionError(err))
      throw new MemoryUnavailable((err as Error).message || String((err as { code?: string }).code), err)
    throw err
  }
}

export interface PgDb {
  pool: pg.Pool
  /** The URL with the password redacted. */
  location: string
  embedModel: string | null
  embedDim: number | null
  /** Connect, migrate and check the embedder once (again after a failure). */
  ready(): Promise<void>
  close(): Promise<void>
}

export interface PgOpenOptions {
  embedder?: Embedder
  allowEmbedderMismatch?: boolean
  poolSize?: number
}

/** A transaction on one pooled connection. */
export async function pgTx<T>(pool: pg.Pool, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  return guarded(async () => {
    const c = await pool.connect()
    try {
      await c.query('BEGIN')
      const out = await fn(c)
      await c.query('COMMIT')
      return out
    } catch (err) {
      await c.query('ROLLBACK').catch(() => {})
      throw err
    } finally {
      c.release()
    }
  })
}

async function meta(c: pg.ClientBase, key: string): Promise<string | null> {
  const r = await c.query<{ value: string }>('SELECT value FROM ghost_meta WHERE key = $1', [key])
  return r.rows[0]?.value ?? null
}

async function setMeta(c: pg.ClientBase, key: string, value: string): Promise<void> {
  await c.query(
    'INSERT INTO ghost_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    [key, value],
  )
}

/** Drop and recreate the vector tables for another embedder (inside the caller's transaction). */
export async function pgResetVectors(c: pg.ClientBase, model: string, dim: number): Promise<void> {
  await c.query('DROP TABLE IF EXISTS plan_vec; DROP TABLE IF EXISTS knowledge_vec;')
  await c.query(pgVecTablesSql(dim))
  await setMeta(c, 'embed_model', model)
  await setMeta(c, 'embed_dim', String(dim))
}

async function migrate(pool: pg.Pool, location: string, embedder: Embedder | undefined): Promise<void> {
  await pgTx(pool, async (c) => {
    await c.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY])
    await c.query('CREATE EXTENSION IF NOT EXISTS vector')
    await c.query('CREATE TABLE IF NOT EXISTS ghost_meta (key text PRIMARY KEY, value text NOT NULL)')
    const current = Number((await meta(c, 'schema_version')) ?? 0)
    if (current > PG_SCHEMA_VERSION) {
      throw new GhostError(
        'memory',
        `${location} has schema version ${current}, newer than this Ghostcraft (${PG_SCHEMA_VERSION}); update Ghostcraft or use another GHOST_DB`,
      )
    }
    for (let v = current; v < PG_SCHEMA_VERSION; v++) {
      await c.query(MIGRATIONS[v]!.sql)
      await setMeta(c, 'schema_version', String(v + 1))
      log.info('migrated', { location, to: v + 1, what: MIGRATIONS[v]!.description })
    }
    if (embedder && (await meta(c, 'embed_dim')) === null) await pgResetVectors(c, embedder.model, embedder.dim)
  })
}

function checkEmbedder(db: PgDb, embedder: Embedder): void {
  const hint = 'my memory was built with another embedding model; the owner has to re-embed it'
  if (db.embedDim !== embedder.dim) {
    throw new GhostError(
      'memory',
      `${db.location} holds ${db.embedDim}-dimensional vectors from ${db.embedModel}, but the configured embedder ${embedder.model} makes ${embedder.dim}-dimensional vectors; ${REEMBED_HINT}`,
      hint,
    )
  }
  if (db.embedModel !== embedder.model) {
    throw new GhostError(
      'memory',
      `${db.location} holds vectors from ${db.embedModel}, but the configured embedder is ${embedder.model} (same dimension, different meaning); ${REEMBED_HINT}`,
      hint,
    )
  }
}

/** A pool for `url`; nothing is sent until `ready()` (so an unreachable server does not fail start-up). */
export function openPgDb(url: string, opts: PgOpenOptions = {}): PgDb {
  const location = redactUrl(url)
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.poolSize ?? 4,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    application_name: 'ghostcraft-memory',
  })
  // A pooled connection that dies while idle must not crash the process; the next query reconnects.
  pool.on('error', (err) => log.warn('idle memory connection lost', { location, err: err.message }))
  pool.on('connect', (c) => {
    c.query(`SET hnsw.ef_search = ${HNSW_EF_SEARCH}`).catch(() => {})
  })
  let readyP: Promise<void> | null = null
  const db: PgDb = {
    pool,
    location,
    embedModel: null,
    embedDim: null,
    ready() {
      readyP ??= (async () => {
        await migrate(pool, location, opts.embedder)
        const c = await guarded(() => pool.connect())
        try {
          db.embedModel = await meta(c, 'embed_model')
          const d = await meta(c, 'embed_dim')
          db.embedDim = d === null ? null : Number(d)
        } finally {
          c.release()
        }
        if (opts.embedder && !opts.allowEmbedderMismatch) checkEmbedder(db, opts.embedder)
      })().catch((err: unknown) => {
        readyP = null
        throw err
      })
      return readyP
    },
    close: () => pool.end(),
  }
  return db
}
