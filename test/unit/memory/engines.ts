/**
 * The two memory engines as test fixtures, so one suite runs against both: a SQLite file per memory in a temp folder,
 * and PostgreSQL as PGlite with pgvector served on loopback by @electric-sql/pglite-socket and reached through the
 * real `pg` client (wire protocol and pgvector SQL as in production). PGlite is one session (the socket server runs
 * every client's queries in it, so two clients' transactions would mix): the tests open one store at a time with a
 * one-connection pool, and `open` of a new memory name empties the database first.
 */
import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll } from 'vitest'
import { vector } from '@electric-sql/pglite-pgvector'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'
import Database from 'better-sqlite3'
import { openMemory, type MemoryOptions, type MemoryStore } from '../../../src/memory/index.js'
import { tempDir } from './helpers.js'

export type EngineName = 'sqlite' | 'postgres'
export const ENGINES: EngineName[] = ['sqlite', 'postgres']

export interface Engine {
  name: EngineName
  /** GHOST_DB of the memory called `name` (emptied when `fresh`). */
  url(name: string, fresh?: boolean): Promise<string>
  /** Open the memory called `name`; a name not used before starts empty. */
  open(name: string, opts?: Omit<MemoryOptions, 'path'>): Promise<MemoryStore>
  /** Run raw SQL on the memory called `name` (to plant rows the store would refuse). */
  exec(name: string, sql: string): Promise<void>
  /** PostgreSQL only: stop and start serving (memory unreachable, then back on the same port). */
  pause?(): Promise<void>
  resume?(): Promise<void>
  stop(): Promise<void>
}

export function sqliteEngine(): Engine {
  const tmp = tempDir()
  return {
    name: 'sqlite',
    url: async (name) => tmp.file(`${name}.db`),
    open: (name, opts = {}) => openMemory({ ...opts, path: tmp.file(`${name}.db`) }),
    exec: async (name, sql) => {
      const db = new Database(tmp.file(`${name}.db`))
      try {
        db.exec(sql)
      } finally {
        db.close()
      }
    },
    stop: async () => tmp.cleanup(),
  }
}

export async function postgresEngine(): Promise<Engine> {
  const db = await PGlite.create({ extensions: { vector } })
  let server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 4 })
  await server.start()
  const port = Number(server.getServerConn().split(':').pop())
  // The password only shows that it is redacted everywhere; PGlite's socket server does not check it.
  const url = `postgres://postgres:hunter2@127.0.0.1:${port}/postgres`
  let current = ''
  const use = async (name: string, fresh = false): Promise<string> => {
    if (name !== current || fresh) {
      await db.exec('DROP SCHEMA public CASCADE; CREATE SCHEMA public;')
      current = name
    }
    return url
  }
  return {
    name: 'postgres',
    url: use,
    open: async (name, opts = {}) => openMemory({ poolSize: 1, ...opts, path: await use(name) }),
    exec: async (name, sql) => {
      await use(name)
      await db.exec(sql)
    },
    pause: async () => {
      await server.stop()
    },
    resume: async () => {
      server = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections: 4 })
      await server.start()
    },
    stop: async () => {
      await server.stop()
      await db.close()
    },
  }
}

export async function startEngine(name: EngineName): Promise<Engine> {
  return name === 'sqlite' ? sqliteEngine() : postgresEngine()
}

/**
 * The suite's engine: started before its tests and stopped after them. Returns a stand-in that forwards every call to
 * the started engine, so a `describe.each(ENGINES)` body reads `const engine = useEngine(engineName)`.
 */
export function useEngine(name: EngineName): Engine {
  let started: Engine | undefined
  beforeAll(async () => {
    started = await startEngine(name)
  }, 60_000)
  afterAll(async () => {
    await started?.stop()
  })
  const live = (): Engine => {
    if (!started) throw new Error(`the ${name} engine is not started (use it inside a test)`)
    return started
  }
  return {
    name,
    url: (n, fresh) => live().url(n, fresh),
    open: (n, opts) => live().open(n, opts),
    exec: (n, sql) => live().exec(n, sql),
    pause: () => live().pause?.() ?? Promise.resolve(),
    resume: () => live().resume?.() ?? Promise.resolve(),
    stop: () => live().stop(),
  }
}
