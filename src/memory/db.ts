/**
 * The memory database: the one module that opens memory.db (after tobi/qmd's db module). It loads sqlite-vec, sets
 * the pragmas that let several bot processes share the file (WAL, busy_timeout, synchronous=NORMAL, foreign keys),
 * migrates the schema by `PRAGMA user_version` inside BEGIN IMMEDIATE, creates the vec0 tables for the configured
 * embedder (float vectors plus their binary sign codes for the fast k-NN, see ./quantize.ts; files from before the
 * codes get them built on open) and refuses to open a file whose vectors come from another model or dimension.
 * Writes go through `writeTx`, a short BEGIN IMMEDIATE transaction retried on SQLITE_BUSY.
 */
import Database from 'better-sqlite3'
import * as sqliteVec from 'sqlite-vec'
import { GhostError } from '../util/errors.js'
import { sleep } from '../util/async.js'
import { logger } from '../util/log.js'
import type { Embedder } from './embedder.js'
import { codeBits, SHARDS, signCode } from './quantize.js'

const log = logger('memory.db')

export type Db = Database.Database

export const BUSY_TIMEOUT_MS = 10_000
const BUSY_RETRIES = 12
const MMAP_BYTES = 256 * 1024 * 1024

/** Schema migrations; index i upgrades user_version i to i + 1. Never edit a shipped one: append. */
const MIGRATIONS: ReadonlyArray<{ description: string; sql: string }> = [
  {
    description: 'plans, reference plans, lessons, knowledge, meta',
    sql: `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE plans (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        goal_key TEXT NOT NULL,
        goal_text TEXT NOT NULL,
        state TEXT NOT NULL DEFAULT '',
        actions TEXT NOT NULL CHECK (json_valid(actions)),
        outcome TEXT NOT NULL CHECK (outcome IN ('success', 'failure')),
        duration_ms INTEGER NOT NULL CHECK (duration_ms >= 0),
        llm_calls INTEGER NOT NULL DEFAULT 0,
        player TEXT, bot TEXT, server TEXT,
        created_at INTEGER NOT NULL,
        summarised INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX plans_goal ON plans (goal_key, outcome, id);
      CREATE INDEX plans_pending ON plans (goal_key, id) WHERE outcome = 'success' AND summarised = 0;
      CREATE TABLE reference_plans (
        goal_key TEXT PRIMARY KEY,
        goal_text TEXT NOT NULL,
        actions TEXT NOT NULL CHECK (json_valid(actions)),
        source_count INTEGER NOT NULL,
        summariser TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE lessons (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        goal_key TEXT NOT NULL,
        cause TEXT NOT NULL,
        suggestions TEXT NOT NULL CHECK (json_valid(suggestions)),
        player TEXT, bot TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX lessons_goal ON lessons (goal_key, id);
      CREATE TABLE knowledge (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        source TEXT NOT NULL DEFAULT '',
        text TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );`,
  },
  {
    description: 'named places per server (issue 17)',
    sql: `
      CREATE TABLE places (
        server TEXT NOT NULL,
        name TEXT NOT NULL,
        x INTEGER NOT NULL, y INTEGER NOT NULL, z INTEGER NOT NULL,
        dimension TEXT NOT NULL DEFAULT 'overworld',
        owner TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (server, name)
      );`,
  },
  {
    description: 'items set aside for players and players who said quiet, per server and bot (issue 15)',
    sql: `
      CREATE TABLE held_items (
        server TEXT NOT NULL, bot TEXT NOT NULL, player TEXT NOT NULL, item TEXT NOT NULL,
        count INTEGER NOT NULL CHECK (count > 0),
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (server, bot, player, item)
      );
      CREATE TABLE quiet_players (
        server TEXT NOT NULL, bot TEXT NOT NULL, player TEXT NOT NULL,
        since INTEGER NOT NULL,
        PRIMARY KEY (server, bot, player)
      );`,
  },
  {
    description: 'blocks the bot saw players place, per server (issue 20)',
    sql: `
      CREATE TABLE placed_blocks (
        server TEXT NOT NULL, dimension TEXT NOT NULL,
        x INTEGER NOT NULL, y INTEGER NOT NULL, z INTEGER NOT NULL,
        block TEXT NOT NULL, player TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (server, dimension, x, y, z)
      );
      CREATE INDEX placed_blocks_age ON placed_blocks (server, created_at);`,
  },
  {
    description: "reference plans per server ('' for summaries stored before, or imported) (issue 20)",
    sql: `
      CREATE TABLE reference_plans_scoped (
        server TEXT NOT NULL DEFAULT '',
        goal_key TEXT NOT NULL,
        goal_text TEXT NOT NULL,
        actions TEXT NOT NULL CHECK (json_valid(actions)),
        source_count INTEGER NOT NULL,
        summariser TEXT NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (server, goal_key)
      );
      INSERT INTO reference_plans_scoped (server, goal_key, goal_text, actions, source_count, summariser, updated_at)
        SELECT '', goal_key, goal_text, actions, source_count, summariser, updated_at FROM reference_plans;
      DROP TABLE reference_plans;
      ALTER TABLE reference_plans_scoped RENAME TO reference_plans;`,
  },
]
export const SCHEMA_VERSION = MIGRATIONS.length

export const REEMBED_HINT =
  'run `npm run memory -- reembed` to re-embed every stored plan and knowledge chunk with the configured embedder (or point GHOST_DB at another file)'

export interface OpenOptions {
  /** The embedder the caller will use; its model and dimension are checked against the stored vectors. */
  embedder?: Embedder
  /** Open even when the stored vectors come from another embedder (only `reembed` does this). */
  allowEmbedderMismatch?: boolean
  /** How long SQLite itself waits for another process's write lock before writeTx backs off and retries. */
  busyTimeoutMs?: number
}

export interface MemoryDb {
  db: Db
  path: string
  /** Model and dimension of the stored vectors (null before the first embedder has been attached). */
  embedModel: string | null
  embedDim: number | null
  close(): void
}

function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
}

/** Run `fn` in a BEGIN IMMEDIATE transaction; on SQLITE_BUSY (beyond busy_timeout) wait a little and try again. */
export async function writeTx<T>(db: Db, fn: () => T): Promise<T> {
  const tx = db.transaction(fn)
  for (let attempt = 0; ; attempt++) {
    try {
      return tx.immediate()
    } catch (err) {
      if (!isBusy(err) || attempt >= BUSY_RETRIES) {
        if (isBusy(err))
          throw new GhostError(
            'busy',
            `memory.db stayed locked after ${attempt + 1} attempts`,
            'memory is busy, try again',
            { cause: err },
          )
        throw err
      }
      const waitMs = Math.min(2000, 25 * 2 ** attempt) * (0.5 + Math.random())
      log.debug('busy, retrying', { attempt, waitMs })
      await sleep(waitMs)
    }
  }
}

/** Synchronous variant for start-up work (migrations): relies on busy_timeout only, then a few blocking retries. */
function writeTxSync<T>(db: Db, fn: () => T): T {
  const tx = db.transaction(fn)
  for (let attempt = 0; ; attempt++) {
    try {
      return tx.immediate()
    } catch (err) {
      if (!isBusy(err) || attempt >= 3) throw err
    }
  }
}

function getMeta(db: Db, key: string): string | null {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined
  return row?.value ?? null
}

function setMeta(db: Db, key: string, value: string): void {
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(
    key,
    value,
  )
}

function userVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number
}

function migrate(db: Db, path: string): void {
  const current = userVersion(db)
  if (current > SCHEMA_VERSION) {
    throw new GhostError(
      'memory',
      `${path} has schema version ${current}, newer than this Ghostcraft (${SCHEMA_VERSION}); update Ghostcraft or use another GHOST_DB`,
    )
  }
  if (current === SCHEMA_VERSION) return
  writeTxSync(db, () => {
    // Re-read inside the write lock: another process may have migrated while we waited.
    for (let v = userVersion(db); v < SCHEMA_VERSION; v++) {
      db.exec(MIGRATIONS[v]!.sql)
      db.pragma(`user_version = ${v + 1}`)
      log.info('migrated', { path, to: v + 1, what: MIGRATIONS[v]!.description })
    }
  })
}

/**
 * SQL of the vec0 tables for vectors of `dim` floats; cosine distance; model and dim kept on every row. Plans are
 * partitioned by success (`ok`), so a k-NN over successful plans never scans the failed ones. `plan_bits` holds each
 * plan's binary sign code, the pre-filter of the k-NN (Hamming distance).
 */
export function vecTablesSql(dim: number): string {
  return `
    CREATE VIRTUAL TABLE plan_vec USING vec0(
      plan_id INTEGER PRIMARY KEY, ok INTEGER PARTITION KEY, embedding float[${dim}] distance_metric=cosine, +model TEXT, +dim INTEGER);
    ${codesSql(dim)};
    CREATE VIRTUAL TABLE knowledge_vec USING vec0(
      chunk_id INTEGER PRIMARY KEY, embedding float[${dim}] distance_metric=cosine, +model TEXT, +dim INTEGER);`
}

function codesSql(dim: number): string {
  return `CREATE VIRTUAL TABLE plan_bits USING vec0(plan_id INTEGER PRIMARY KEY, ok INTEGER PARTITION KEY, shard INTEGER PARTITION KEY, code bit[${codeBits(dim)}])`
}

/** The partition of a plan's code (see SHARDS in ./quantize.ts). */
export function shardOf(planId: number | bigint): bigint {
  return BigInt(planId) % BigInt(SHARDS)
}

/** Give a file made before the current sign codes its `plan_bits` table, built from the stored float vectors. */
function ensureCodes(db: Db, dim: number): void {
  const current = (): boolean =>
    (db.prepare("SELECT sql FROM sqlite_master WHERE name = 'plan_bits'").get() as { sql: string } | undefined)?.sql ===
    codesSql(dim)
  if (current()) return
  writeTxSync(db, () => {
    if (current()) return
    db.exec(`DROP TABLE IF EXISTS plan_bits; ${codesSql(dim)};`)
    const ins = db.prepare('INSERT INTO plan_bits (plan_id, ok, shard, code) VALUES (?, ?, ?, vec_bit(?))')
    const page = db.prepare('SELECT plan_id, ok, embedding FROM plan_vec WHERE plan_id > ? ORDER BY plan_id LIMIT 5000')
    for (let after = 0; ; ) {
      const rows = page.all(BigInt(after)) as Array<{ plan_id: number; ok: number; embedding: Buffer }>
      if (rows.length === 0) break
      for (const r of rows) ins.run(BigInt(r.plan_id), BigInt(r.ok), shardOf(r.plan_id), signCode(blobVec(r.embedding)))
      after = rows[rows.length - 1]!.plan_id
    }
    log.info('built the sign codes of the stored plans', { dim })
  })
}

/** Drop and recreate the vec0 tables for another embedder (inside the caller's transaction). */
export function resetVectors(db: Db, embedder: Embedder): void {
  db.exec('DROP TABLE IF EXISTS plan_vec; DROP TABLE IF EXISTS plan_bits; DROP TABLE IF EXISTS knowledge_vec;')
  db.exec(vecTablesSql(embedder.dim))
  setMeta(db, 'embed_model', embedder.model)
  setMeta(db, 'embed_dim', String(embedder.dim))
}

/** Dimension declared in the stored plan_vec table, or null when there is none. */
function declaredDim(db: Db): number | null {
  const row = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'plan_vec'").get() as { sql: string } | undefined
  const m = row?.sql.match(/float\[(\d+)\]/)
  return m ? Number(m[1]) : null
}

function attachEmbedder(mdb: MemoryDb, embedder: Embedder, allowMismatch: boolean): void {
  const { db } = mdb
  if (!Number.isInteger(embedder.dim) || embedder.dim < 1 || embedder.dim > 8192) {
    throw new GhostError('memory', `embedder ${embedder.model} reports an invalid dimension ${embedder.dim}`)
  }
  if (getMeta(db, 'embed_dim') === null) {
    writeTxSync(db, () => {
      if (getMeta(db, 'embed_dim') === null) resetVectors(db, embedder)
    })
  }
  mdb.embedModel = getMeta(db, 'embed_model')
  mdb.embedDim = Number(getMeta(db, 'embed_dim'))
  const tableDim = declaredDim(db)
  if (allowMismatch) return
  if (tableDim !== null) ensureCodes(db, tableDim)
  if (mdb.embedDim !== embedder.dim || (tableDim !== null && tableDim !== embedder.dim)) {
    throw new GhostError(
      'memory',
      `${mdb.path} holds ${tableDim ?? mdb.embedDim}-dimensional vectors from ${mdb.embedModel}, but the configured embedder ${embedder.model} makes ${embedder.dim}-dimensional vectors; ${REEMBED_HINT}`,
      'my memory was built with another embedding model; the owner has to re-embed it',
    )
  }
  if (mdb.embedModel !== embedder.model) {
    throw new GhostError(
      'memory',
      `${mdb.path} holds vectors from ${mdb.embedModel}, but the configured embedder is ${embedder.model} (same dimension, different meaning); ${REEMBED_HINT}`,
      'my memory was built with another embedding model; the owner has to re-embed it',
    )
  }
}

/** Open (creating and migrating if needed) the memory database at `path`. */
export function openMemoryDb(path: string, opts: OpenOptions = {}): MemoryDb {
  let db: Db
  try {
    db = new Database(path)
  } catch (err) {
    throw new GhostError(
      'memory',
      `cannot open memory database ${path}: ${(err as Error).message}`,
      'my memory file cannot be opened',
      { cause: err },
    )
  }
  const mdb: MemoryDb = {
    db,
    path,
    embedModel: null,
    embedDim: null,
    close: () => {
      if (db.open) db.close()
    },
  }
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(opts.busyTimeoutMs ?? BUSY_TIMEOUT_MS))}`)
    sqliteVec.load(db)
    db.pragma('journal_mode = WAL')
    // WAL + NORMAL: a commit survives a killed process; only an OS crash or power loss may lose the last commits.
    db.pragma('synchronous = NORMAL')
    // k-NN scans every vector chunk; reading them through mmap instead of read() roughly halves its latency.
    db.pragma(`mmap_size = ${MMAP_BYTES}`)
    db.pragma('foreign_keys = ON')
    migrate(db, path)
    if (opts.embedder) attachEmbedder(mdb, opts.embedder, opts.allowEmbedderMismatch ?? false)
    else {
      mdb.embedModel = getMeta(db, 'embed_model')
      const d = getMeta(db, 'embed_dim')
      mdb.embedDim = d === null ? null : Number(d)
    }
    return mdb
  } catch (err) {
    mdb.close()
    if (err instanceof GhostError) throw err
    throw new GhostError(
      'memory',
      `cannot prepare memory database ${path}: ${(err as Error).message}`,
      'my memory file cannot be opened',
      { cause: err },
    )
  }
}

/** `PRAGMA integrity_check` result: 'ok' when the file is sound. */
export function integrityCheck(db: Db): string {
  const rows = db.pragma('integrity_check') as Array<{ integrity_check: string }>
  return rows.map((r) => r.integrity_check).join('; ')
}

/** Vector as the BLOB sqlite-vec expects. */
export function vecBlob(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength)
}

/** Vector from a BLOB read back from a vec0 table. */
export function blobVec(b: Buffer): Float32Array {
  return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength))
}
