/**
 * Memory benchmark (`npm run bench:memory`), both engines: fills a fresh memory — a SQLite file, and PostgreSQL
 * (PGlite + pgvector on loopback through the real `pg` client; HNSW index live during the 10k fill, built after the
 * 100k bulk fill) — with 10k and then 100k synthetic plans through the real MemoryStore (local embedder, batched
 * transactions), and measures insert
 * rate, single-plan commit rate, the store's k-NN (SQLite: Hamming pre-filter on sign codes + exact re-rank;
 * PostgreSQL: HNSW) with p50/p95 and recall@10 against exact search, a plain JavaScript scan of the same vectors
 * (the exact reference, p50/p95), on SQLite also sqlite-vec's exact float k-NN, end-to-end `retrieve` latency and
 * the stored size. Prints a table and writes bench/results/memory.json.
 * Options: --engines sqlite,postgres  --sizes 10000,100000  --queries 200
 */
import { PGlite } from '@electric-sql/pglite'
import { vector } from '@electric-sql/pglite-pgvector'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { hashEmbed, LOCAL_EMBED_DIM, openMemory, type MemoryStore } from '../src/memory/index.js'
import type { SqliteBackend } from '../src/memory/sqlite-backend.js'
import { candidatesFor } from '../src/memory/quantize.js'
import { HNSW_EF_CONSTRUCTION, HNSW_EF_SEARCH, HNSW_M, PLAN_HNSW_SQL } from '../src/memory/pgdb.js'
import type { Action } from '../src/schemas/action.js'
import type { PlanRunInput } from '../src/schemas/memory.js'
import { mulberry32 } from '../src/util/random.js'
import { percentile } from './lib/stats.js'
import { printTable, writeResult, type Row } from './lib/table.js'

const { values: args } = parseArgs({
  options: {
    engines: { type: 'string', default: 'sqlite,postgres' },
    sizes: { type: 'string', default: '10000,100000' },
    queries: { type: 'string', default: '200' },
  },
})
const ENGINES = args.engines.split(',') as Array<'sqlite' | 'postgres'>
const SIZES = args.sizes.split(',').map(Number)
const QUERIES = Number(args.queries)
const BATCH = 1000
const K = 10
const SINGLE_COMMITS = 300
const RETRIEVES = 50

const ITEMS = [
  'oak_log',
  'birch_log',
  'spruce_log',
  'cobblestone',
  'stone',
  'iron_ore',
  'raw_iron',
  'iron_ingot',
  'coal',
  'diamond',
  'gold_ingot',
  'sand',
  'glass',
  'torch',
  'stick',
  'crafting_table',
  'furnace',
  'chest',
  'wooden_pickaxe',
  'stone_pickaxe',
  'iron_pickaxe',
  'bread',
  'wheat',
  'string',
  'bow',
  'arrow',
  'bucket',
  'shield',
  'redstone',
  'lapis_lazuli',
  'copper_ingot',
  'oak_planks',
  'ladder',
  'bed',
  'white_wool',
  'leather',
  'book',
  'paper',
  'sugar_cane',
  'clay_ball',
  'brick',
  'flint',
]
const TOOLS = [null, 'crafting_table', 'furnace', 'wooden_pickaxe', 'stone_pickaxe', 'iron_pickaxe']

function makeRun(r: () => number): PlanRunInput {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!
  const object = pick(ITEMS)
  const count = 1 + Math.floor(r() * 16)
  const tool = pick(TOOLS)
  const src = pick(ITEMS)
  const actions: Action[] = [
    { type: 'explore', object: src, strategy: r() < 0.7 ? 'surface' : 'underground' },
    { type: 'mine', object: src, tool, count },
    { type: 'craft', object, count, materials: { [src]: count }, tool },
  ]
  const goalText = `obtain ${count} ${object.replace(/_/g, ' ')}${tool ? ` with ${tool.replace(/_/g, ' ')}` : ''} from ${src.replace(/_/g, ' ')}`
  return {
    goalKey: `${object}#${Math.floor(r() * 50)}`,
    goalText,
    actions,
    outcome: r() < 0.8 ? 'success' : 'failure',
    durationMs: Math.floor(r() * 300_000),
    llmCalls: Math.floor(r() * 5),
    player: `player${Math.floor(r() * 20)}`,
    bot: `Ghost${Math.floor(r() * 3)}`,
  }
}

const ms = (x: number): number => +x.toFixed(2)

/** Exact top-k by cosine distance over a flat array of normalised vectors, successful rows only (the reference). */
function jsKnn(all: Float32Array, ok: Uint8Array, q: Float32Array, k: number, dim: number): number[] {
  const top: number[] = []
  const n = ok.length
  for (let i = 0; i < n; i++) {
    if (ok[i] === 0) continue
    let dot = 0
    const off = i * dim
    for (let j = 0; j < dim; j++) dot += all[off + j]! * q[j]!
    const d = 1 - dot
    if (top.length < k || d < top[top.length - 1]!) {
      let at = top.length
      while (at > 0 && top[at - 1]! > d) at--
      top.splice(at, 0, d)
      if (top.length > k) top.pop()
    }
  }
  return top
}

/** recall@k with ties: the share of returned neighbours no farther than the exact k-th nearest. */
function recall(got: number[], exact: number[]): number {
  const kth = exact[exact.length - 1] ?? Infinity
  return Math.min(got.filter((d) => d <= kth + 1e-5).length, exact.length) / Math.max(1, exact.length)
}

interface Target {
  url(size: number): Promise<string>
  /** Run SQL on the engine directly (PostgreSQL: the benchmark's bulk load drops and rebuilds the HNSW index). */
  exec?(sql: string): Promise<void>
  stop(): Promise<void>
}
/** PostgreSQL fills of at least this many plans load in bulk: without the HNSW index, which is built afterwards. */
const BULK_FROM = 50_000

async function sqliteTarget(): Promise<Target> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ghost-bench-memory-'))
  return {
    url: async (size) => path.join(dir, `memory-${size}.db`),
    stop: async () => rmSync(dir, { recursive: true, force: true }),
  }
}

async function postgresTarget(): Promise<Target> {
  const db = await PGlite.create({ extensions: { vector } })
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 4 })
  await server.start()
  const url = `postgres://postgres@${server.getServerConn()}/postgres`
  return {
    url: async () => {
      await db.exec('DROP SCHEMA public CASCADE; CREATE SCHEMA public;')
      return url
    },
    exec: async (sql) => {
      await db.exec(sql)
    },
    stop: async () => {
      await server.stop()
      await db.close()
    },
  }
}

async function fill(
  store: MemoryStore,
  runs: PlanRunInput[],
  vectors: Float32Array,
  ok: Uint8Array,
): Promise<{ insertMs: number; embedMs: number }> {
  const t0 = performance.now()
  let embedMs = 0
  for (let i = 0; i < runs.length; i += BATCH) {
    const batch = runs.slice(i, i + BATCH)
    const te = performance.now()
    const vs = await store.embed(batch.map((b) => b.goalText))
    embedMs += performance.now() - te
    vs.forEach((v, j) => {
      vectors.set(v, (i + j) * LOCAL_EMBED_DIM)
      ok[i + j] = batch[j]!.outcome === 'success' ? 1 : 0
    })
    await store.recordPlans(batch, { vectors: vs })
    if (i % 20_000 === 0 && i > 0) process.stderr.write(`  ${i} plans\n`)
  }
  return { insertMs: performance.now() - t0, embedMs }
}

async function benchSize(engine: 'sqlite' | 'postgres', target: Target, size: number): Promise<Row> {
  const store = await openMemory({ path: await target.url(size), poolSize: 1 })
  const r = mulberry32(size)
  const runs = Array.from({ length: size }, () => makeRun(r))
  const vectors = new Float32Array(size * LOCAL_EMBED_DIM)
  const ok = new Uint8Array(size)
  const bulk = engine === 'postgres' && size >= BULK_FROM
  if (bulk) await target.exec!("SET maintenance_work_mem = '512MB'; DROP INDEX plan_vec_hnsw;")
  const { insertMs, embedMs } = await fill(store, runs, vectors, ok)
  const ti = performance.now()
  if (bulk) {
    process.stderr.write('  building the HNSW index\n')
    await target.exec!(PLAN_HNSW_SQL)
  }
  const indexBuildMs = bulk ? performance.now() - ti : null

  const qr = mulberry32(7)
  const queries = Array.from({ length: QUERIES }, () => hashEmbed(makeRun(qr).goalText))
  const knn: number[] = [],
    js: number[] = [],
    exactVec: number[] = []
  const got: number[][] = []
  // Each method in its own pass over the same queries, so one does not evict the other's data from the caches.
  await store.nearestPlans(queries[0]!, K) // warm the cache like a running bot
  for (const q of queries) {
    const t = performance.now()
    const res = await store.nearestPlans(q, K)
    knn.push(performance.now() - t)
    got.push(res.map((g) => g.distance))
  }
  let recallSum = 0
  queries.forEach((q, i) => {
    const t = performance.now()
    const exact = jsKnn(vectors, ok, q, K, LOCAL_EMBED_DIM)
    js.push(performance.now() - t)
    recallSum += recall(got[i]!, exact)
  })
  const sqlite = engine === 'sqlite' ? (store.backend as SqliteBackend) : null
  for (const q of sqlite ? queries.slice(0, 50) : []) {
    const t = performance.now()
    sqlite!.nearestExactSync(q, K)
    exactVec.push(performance.now() - t)
  }
  const retrieve: number[] = []
  for (let i = 0; i < RETRIEVES; i++) {
    const text = makeRun(qr).goalText
    const t = performance.now()
    await store.retrieve({ goalKey: `unknown-${i}`, goalText: text })
    retrieve.push(performance.now() - t)
  }
  // One commit per plan, the path a bot takes (includes the summarisation check); last, so the scans above saw
  // exactly the stored vectors.
  const t1 = performance.now()
  for (let i = 0; i < SINGLE_COMMITS; i++) await store.recordPlan(makeRun(r))
  const singleMs = performance.now() - t1
  const stats = await store.stats()
  await store.close()
  return {
    engine,
    plans: size,
    insertPerSec: Math.round(size / (insertMs / 1000)),
    embedSharePct: Math.round((embedMs / insertMs) * 100),
    fill: bulk ? 'bulk' : 'live',
    indexBuildS: indexBuildMs === null ? null : +(indexBuildMs / 1000).toFixed(1),
    singleCommitPerSec: Math.round(SINGLE_COMMITS / (singleMs / 1000)),
    knnP50Ms: ms(percentile(knn, 0.5)),
    knnP95Ms: ms(percentile(knn, 0.95)),
    jsP50Ms: ms(percentile(js, 0.5)),
    jsP95Ms: ms(percentile(js, 0.95)),
    speedupP50: +(percentile(js, 0.5) / percentile(knn, 0.5)).toFixed(1),
    speedupP95: +(percentile(js, 0.95) / percentile(knn, 0.95)).toFixed(1),
    recallAt10Pct: +((100 * recallSum) / QUERIES).toFixed(2),
    exactVecP50Ms: exactVec.length ? ms(percentile(exactVec, 0.5)) : null,
    retrieveP50Ms: ms(percentile(retrieve, 0.5)),
    retrieveP95Ms: ms(percentile(retrieve, 0.95)),
    referencePlans: stats.references,
    sizeMB: +(stats.fileBytes / 1024 / 1024).toFixed(1),
  }
}

const started = performance.now()
const rows: Row[] = []
for (const engine of ENGINES) {
  const target = engine === 'sqlite' ? await sqliteTarget() : await postgresTarget()
  try {
    for (const size of SIZES) {
      process.stderr.write(`${engine}: filling ${size} plans...\n`)
      rows.push(await benchSize(engine, target, size))
      process.stderr.write(`${JSON.stringify(rows[rows.length - 1])}\n`)
    }
  } finally {
    await target.stop()
  }
}
printTable(rows)
const out = writeResult('memory', {
  when: new Date().toISOString(),
  node: process.version,
  platform: `${process.platform}-${process.arch}`,
  cpus: cpus().length,
  loadAverage1m: +loadavg()[0]!.toFixed(1),
  embedder: `local-hash-${LOCAL_EMBED_DIM}`,
  k: K,
  queries: QUERIES,
  batch: BATCH,
  singleCommits: SINGLE_COMMITS,
  sqlite: {
    knn: `vec0 bit[${2 * LOCAL_EMBED_DIM}] Hamming pre-filter, ${candidatesFor(K)} candidates for k=${K}, exact cosine re-rank`,
  },
  postgres: {
    engine: 'PGlite (single-threaded WASM Postgres) + pgvector over loopback, pg client, pool of 1',
    knn: `HNSW m=${HNSW_M} ef_construction=${HNSW_EF_CONSTRUCTION} ef_search=${HNSW_EF_SEARCH}, partial index WHERE ok`,
  },
  notes:
    "knn = the store's nearestPlans(k=10) as retrieval uses it; js = exact scan of the same vectors in a Float32Array (the recall reference); " +
    'speedup = js / knn; recallAt10Pct = percentage of returned neighbours within the exact 10th distance; exactVec = sqlite-vec exact float k-NN (the previous method); ' +
    'retrieve = embed query + k-NN + reference lookup; fill: live = HNSW index maintained during the inserts, bulk = inserted without it, then built (indexBuildS); insertPerSec: batched recordPlans incl. local embedding and summarisation; sizeMB: file + WAL, or table sizes',
  totalMs: Math.round(performance.now() - started),
  results: rows,
})
process.stdout.write(`wrote ${out}\n`)
