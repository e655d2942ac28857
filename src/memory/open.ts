/**
 * Opening memory: `GHOST_DB` picks the engine — a `postgres://` or `postgresql://` URL opens the PostgreSQL backend
 * (./pgdb.ts, ./pg-backend.ts), anything else is a SQLite file (./db.ts, ./sqlite-backend.ts) — and the result is
 * the same MemoryStore either way. An unreachable PostgreSQL does not fail start-up: the store starts degraded
 * (planning without memory) and reconnects in the background. A wrong embedder or a newer schema still fails.
 */
import { isUnavailable, unavailableReason, type MemoryBackend } from './backend.js'
import { openMemoryDb } from './db.js'
import { localEmbedder } from './embedder.js'
import { isPostgresUrl, openPgDb } from './pgdb.js'
import { PgBackend } from './pg-backend.js'
import { SqliteBackend } from './sqlite-backend.js'
import { MemoryStore, type MemoryOptions } from './store.js'

export { isPostgresUrl, redactUrl } from './pgdb.js'

/** The backend for `opts.path` (connected and migrated for SQLite; lazily for PostgreSQL). */
function backendFor(opts: MemoryOptions): MemoryBackend {
  const embedder = opts.embedder === undefined ? localEmbedder() : opts.embedder
  const common = { embedder: embedder ?? undefined, allowEmbedderMismatch: opts.allowEmbedderMismatch ?? false }
  if (isPostgresUrl(opts.path)) return new PgBackend(openPgDb(opts.path, { ...common, poolSize: opts.poolSize }))
  return new SqliteBackend(openMemoryDb(opts.path, { ...common, busyTimeoutMs: opts.busyTimeoutMs }))
}

/** Open the shared memory named by `opts.path` (GHOST_DB). */
export async function openMemory(opts: MemoryOptions): Promise<MemoryStore> {
  const backend = backendFor(opts)
  let down: string | null = null
  try {
    await backend.ping()
  } catch (err) {
    if (!isUnavailable(err)) {
      await backend.close().catch(() => {})
      throw err
    }
    down = unavailableReason(err)
  }
  return new MemoryStore(backend, opts, down)
}
