/**
 * Blocks players placed, in memory (issue 20): one table `placed_blocks` keyed by server, dimension and position
 * (migrations in ./db.ts and ./pgdb.ts), bounded per server (the oldest rows go first), read back validated with the
 * PlacedBlock schema. `placedPort(store, server)` is what the perception's tracker (src/perception/placed.ts) gets:
 * load, save and remove for one server. Storage is best effort: while the engine is unreachable the tracker keeps
 * its observations in process and these calls fail quietly (logged), so a restart then loses what was not written.
 */
import { PlacedBlock } from '../schemas/placed.js'
import { logger } from '../util/log.js'
import { guarded } from './pgdb.js'
import { PgBackend } from './pg-backend.js'
import { writeTx } from './db.js'
import { SqliteBackend } from './sqlite-backend.js'
import type { MemoryStore } from './store.js'

const log = logger('memory.placed')

/** Rows kept per server; beyond it the oldest observations are dropped. */
export const PLACED_LIMIT = 10_000

export interface PlacedPort {
  load(): Promise<PlacedBlock[]>
  save(p: PlacedBlock): Promise<void>
  remove(p: Pick<PlacedBlock, 'dimension' | 'x' | 'y' | 'z'>): Promise<void>
}

interface PlacedRow {
  server: string
  dimension: string
  x: number | string
  y: number | string
  z: number | string
  block: string
  player: string
  created_at: number | string
}

function fromRow(r: PlacedRow): PlacedBlock | null {
  const p = PlacedBlock.safeParse({
    server: r.server,
    dimension: r.dimension,
    x: Number(r.x),
    y: Number(r.y),
    z: Number(r.z),
    block: r.block,
    player: r.player,
    createdAt: Number(r.created_at),
  })
  if (!p.success) log.warn('stored placed block does not validate; skipped', { at: `${r.x} ${r.y} ${r.z}` })
  return p.success ? p.data : null
}

/** `?` placeholders for SQLite, `$n` for PostgreSQL. */
const SQL = {
  upsert: `INSERT INTO placed_blocks (server, dimension, x, y, z, block, player, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (server, dimension, x, y, z) DO UPDATE SET block = excluded.block, player = excluded.player, created_at = excluded.created_at`,
  trim: `DELETE FROM placed_blocks WHERE server = ? AND created_at < (SELECT created_at FROM placed_blocks WHERE server = ?
    ORDER BY created_at DESC LIMIT 1 OFFSET ?)`,
  list: 'SELECT * FROM placed_blocks WHERE server = ? ORDER BY created_at DESC LIMIT ?',
  remove: 'DELETE FROM placed_blocks WHERE server = ? AND dimension = ? AND x = ? AND y = ? AND z = ?',
}
const numbered = (sql: string): string => {
  let i = 0
  return sql.replace(/\?/g, () => `$${++i}`)
}

/** The three operations on the store's engine, whichever it is. */
function engineOf(store: MemoryStore): (sql: string, params: unknown[], write: boolean) => Promise<PlacedRow[]> {
  const b = store.backend
  if (b instanceof SqliteBackend)
    return (sql, params, write) =>
      write
        ? writeTx(b.db, () => {
            b.db.prepare(sql).run(...params)
            return []
          })
        : Promise.resolve(b.db.prepare(sql).all(...params) as PlacedRow[])
  if (b instanceof PgBackend)
    return async (sql, params) => {
      await b.pdb.ready()
      return (await guarded(() => b.pdb.pool.query<PlacedRow & Record<string, unknown>>(numbered(sql), params))).rows
    }
  throw new Error(`no placed-block storage for a ${b.kind} backend`)
}

/** Placed blocks of one server (`server` = host:port) over the store. */
export function placedPort(store: MemoryStore, server: string, limit = PLACED_LIMIT): PlacedPort {
  const run = engineOf(store)
  const quietly = async (what: string, op: () => Promise<unknown>): Promise<void> => {
    try {
      await op()
    } catch (err) {
      log.warn(`could not ${what} a placed block; kept in this process only`, { err: err as Error })
    }
  }
  return {
    async load() {
      try {
        return (await run(SQL.list, [server, limit], false)).map(fromRow).filter((p) => p !== null)
      } catch (err) {
        log.warn('could not load placed blocks; starting without them', { err: err as Error })
        return []
      }
    },
    save: (p) =>
      quietly('save', async () => {
        const v = PlacedBlock.parse({ ...p, server })
        await run(SQL.upsert, [server, v.dimension, v.x, v.y, v.z, v.block, v.player, v.createdAt], true)
        await run(SQL.trim, [server, server, limit - 1], true)
      }),
    remove: (p) => quietly('remove', () => run(SQL.remove, [server, p.dimension, p.x, p.y, p.z], true)),
  }
}
