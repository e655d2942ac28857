/**
 * What one bot keeps for players across restarts (issue 15): the delivery ledger — items obtained for a player and
 * not yet handed over — and which players said "quiet". Rows are scoped by server (host:port) and bot name, since
 * the items are in that bot's inventory on that server: `held_items` (server, bot, player, item → count) and
 * `quiet_players` (server, bot, player), created by the issue-15 migration of ./db.ts and ./pgdb.ts. The same SQL
 * runs on both engines (`?` placeholders become `$n` for PostgreSQL). It implements the agent's `KeptStore` port
 * (src/agent/ledger.ts); the Ledger and Chatter write each change through it, in order.
 */
import type { HeldRow, KeptStore } from '../agent/ledger.js'
import { writeTx } from './db.js'
import { guarded } from './pgdb.js'
import { PgBackend } from './pg-backend.js'
import { SqliteBackend } from './sqlite-backend.js'
import type { MemoryStore } from './store.js'

/** The two statements this store needs, on either engine. */
interface Sql {
  all<R>(sql: string, params: unknown[]): Promise<R[]>
  run(sql: string, params: unknown[]): Promise<void>
}

function sqlOf(store: MemoryStore): Sql {
  const b = store.backend
  if (b instanceof SqliteBackend)
    return {
      all: async <R>(sql: string, params: unknown[]) => b.db.prepare(sql).all(...params) as R[],
      run: async (sql, params) => {
        const st = b.db.prepare(sql)
        await writeTx(b.db, () => st.run(...params))
      },
    }
  if (b instanceof PgBackend) {
    const numbered = (sql: string): string => {
      let i = 0
      return sql.replace(/\?/g, () => `$${++i}`)
    }
    return {
      all: async <R>(sql: string, params: unknown[]) => {
        await b.pdb.ready()
        return (await guarded(() => b.pdb.pool.query(numbered(sql), params))).rows as R[]
      },
      run: async (sql, params) => {
        await b.pdb.ready()
        await guarded(() => b.pdb.pool.query(numbered(sql), params))
      },
    }
  }
  throw new Error(`no ledger store for the ${b.kind} memory backend`)
}

/** The ledger and quiet players of bot `bot` on server `server` (host:port), kept in `store`. */
export function keptStore(store: MemoryStore, server: string, bot: string): KeptStore {
  const sql = sqlOf(store)
  return {
    async loadHeld() {
      const rows = await sql.all<{ player: string; item: string; count: number | string }>(
        'SELECT player, item, count FROM held_items WHERE server = ? AND bot = ? ORDER BY player, item',
        [server, bot],
      )
      return rows.map((r): HeldRow => ({ player: r.player, item: r.item, count: Number(r.count) }))
    },
    async saveHeld(r) {
      if (r.count <= 0)
        await sql.run('DELETE FROM held_items WHERE server = ? AND bot = ? AND player = ? AND item = ?', [
          server,
          bot,
          r.player,
          r.item,
        ])
      else
        await sql.run(
          `INSERT INTO held_items (server, bot, player, item, count, updated_at) VALUES (?, ?, ?, ?, ?, ?)
          ON CONFLICT (server, bot, player, item) DO UPDATE SET count = excluded.count, updated_at = excluded.updated_at`,
          [server, bot, r.player, r.item, r.count, Date.now()],
        )
    },
    async loadQuiet() {
      const rows = await sql.all<{ player: string }>(
        'SELECT player FROM quiet_players WHERE server = ? AND bot = ? ORDER BY player',
        [server, bot],
      )
      return rows.map((r) => r.player)
    },
    async saveQuiet(player, quiet) {
      if (quiet)
        await sql.run(
          'INSERT INTO quiet_players (server, bot, player, since) VALUES (?, ?, ?, ?) ON CONFLICT (server, bot, player) DO NOTHING',
          [server, bot, player, Date.now()],
        )
      else await sql.run('DELETE FROM quiet_players WHERE server = ? AND bot = ? AND player = ?', [server, bot, player])
    },
  }
}
