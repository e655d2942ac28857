/**
 * Memory benchmark (`npm run bench:memory`): fills a fresh memory.db with 10k and then 100k synthetic plans through
 * the real MemoryStore (local embedder, batched transactions), and measures insert rate, single-plan commit rate,
 * k-NN latency via sqlite-vec (p50/p95), the same k-NN by a plain JavaScript scan over the same vectors in memory
 * (p50/p95, with agreement of the two top-k lists), end-to-end `retrieve` latency and the database file size.
 * Prints a table and writes bench/results/memory.json. Runs in well under two minutes.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { loadavg, cpus, tmpdir } from 'node:os'
import path from 'node:path'
import { hashEmbed, LOCAL_EMBED_DIM, openMemory } from '../src/memory/index.js'
import type { Action } from '../src/schemas/action.js'
import type { PlanRunInput } from '../src/schemas/memory.js'
import { printTable, writeResult, type Row } from './lib/table.js'
import { mulberry32 } from '../src/util/random.js'

const SIZES = [10_000, 100_000]
const BATCH = 1000
const QUERIES = 200
const K = 10
const SINGLE_COMMITS = 500

const ITEMS = ['oak_log', 'birch_log', 'spruce_log', 'cobblestone', 'stone', 'iron_ore', 'raw_iron', 'iron_ingot', 'coal', 'diamond',
  'gold_ingot', 'sand', 'glass', 'torch', 'stick', 'crafting_table', 'furnace', 'chest', 'wooden_pickaxe', 'stone_pickaxe',
  'iron_pickaxe', 'bread', 'wheat', 'string', 'bow', 'arrow', 'bucket', 'shield', 'redstone', 'lapis_lazuli', 'copper_ingot',
  'oak_planks', 'ladder', 'bed', 'white_wool', 'leather', 'book', 'paper', 'sugar_cane', 'clay_ball', 'brick', 'flint']
const TOOLS = [null, 'crafting_table', 'furnace', 'wooden_pickaxe', 'stone_pickaxe', 'iron_pickaxe']

const rng = mulberry32

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
    goalKey: `${object}#${Math.floor(r() * 50)}`, goalText, actions, outcome: r() < 0.8 ? 'success' : 'failure',
    durationMs: Math.floor(r() * 300_000), llmCalls: Math.floor(r() * 5), player: `player${Math.floor(r() * 20)}`, bot: `Ghost${Math.floor(r() * 3)}`,
  }
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

function fileSize(file: string): number {
  let n = 0
  for (const f of [file, `${file}-wal`]) { try { n += statSync(f).size } catch { /* no WAL file */ } }
  return n
}

/** Top-k by cosine distance over a flat array of normalised vectors, successful rows only. */
function jsKnn(all: Float32Array, ok: Uint8Array, q: Float32Array, k: number, dim: number): Array<{ idx: number; distance: number }> {
  const top: Array<{ idx: number; distance: number }> = []
  const n = ok.length
  for (let i = 0; i < n; i++) {
    if (ok[i] === 0) continue
    let dot = 0
    const off = i * dim
    for (let j = 0; j < dim; j++) dot += all[off + j]! * q[j]!
    const d = 1 - dot
    if (top.length < k || d < top[top.length - 1]!.distance) {
      let at = top.length
      while (at > 0 && top[at - 1]!.distance > d) at--
      top.splice(at, 0, { idx: i, distance: d })
      if (top.length > k) top.pop()
    }
  }
  return top
}

async function benchSize(size: number, dir: string): Promise<Row> {
  const file = path.join(dir, `memory-${size}.db`)
  const store = openMemory({ path: file })
  const r = rng(size)
  const runs = Array.from({ length: size }, () => makeRun(r))
  const dim = LOCAL_EMBED_DIM
  const vectors = new Float32Array(size * dim)
  const ok = new Uint8Array(size)

  // Batched insert through the store: embedding + one transaction per BATCH plans + summarising every goal that
  // reached 5 new successes (as import does).
  const t0 = performance.now()
  let embedMs = 0
  for (let i = 0; i < size; i += BATCH) {
    const batch = runs.slice(i, i + BATCH)
    const te = performance.now()
    const vs = await store.embed(batch.map((b) => b.goalText))
    embedMs += performance.now() - te
    vs.forEach((v, j) => { vectors.set(v, (i + j) * dim); ok[i + j] = batch[j]!.outcome === 'success' ? 1 : 0 })
    await store.recordPlans(batch, { vectors: vs })
  }
  const insertMs = performance.now() - t0

  const qr = rng(7)
  const queries = Array.from({ length: QUERIES }, () => hashEmbed(makeRun(qr).goalText))
  const vecTimes: number[] = []
  const jsTimes: number[] = []
  let agree = 0
  store.nearestPlans(queries[0]!, K) // warm the page cache like a running bot
  for (const q of queries) {
    const ta = performance.now()
    const a = store.nearestPlans(q, K)
    vecTimes.push(performance.now() - ta)
    const tb = performance.now()
    const b = jsKnn(vectors, ok, q, K, dim)
    jsTimes.push(performance.now() - tb)
    if (a.length === b.length && a.every((x, i) => Math.abs(x.distance - b[i]!.distance) < 1e-4)) agree++
  }
  const retrieveTimes: number[] = []
  for (let i = 0; i < 50; i++) {
    const run = makeRun(qr)
    const tr = performance.now()
    await store.retrieve({ goalKey: `unknown-${i}`, goalText: run.goalText })
    retrieveTimes.push(performance.now() - tr)
  }
  // One commit per plan, the path a bot takes (includes the summarisation check). Last, so the JS scan above saw
  // exactly the vectors sqlite-vec held.
  const t1 = performance.now()
  for (let i = 0; i < SINGLE_COMMITS; i++) await store.recordPlan(makeRun(r))
  const singleMs = performance.now() - t1
  const refs = store.stats().references
  store.db.pragma('wal_checkpoint(TRUNCATE)')
  const bytes = fileSize(file)
  store.close()
  vecTimes.sort((x, y) => x - y)
  jsTimes.sort((x, y) => x - y)
  retrieveTimes.sort((x, y) => x - y)
  return {
    plans: size,
    insertPerSec: Math.round(size / (insertMs / 1000)),
    embedSharePct: Math.round((embedMs / insertMs) * 100),
    singleCommitPerSec: Math.round(SINGLE_COMMITS / (singleMs / 1000)),
    vecP50Ms: +pct(vecTimes, 50).toFixed(2),
    vecP95Ms: +pct(vecTimes, 95).toFixed(2),
    jsP50Ms: +pct(jsTimes, 50).toFixed(2),
    jsP95Ms: +pct(jsTimes, 95).toFixed(2),
    topKAgreePct: Math.round((agree / QUERIES) * 100),
    retrieveP50Ms: +pct(retrieveTimes, 50).toFixed(2),
    retrieveP95Ms: +pct(retrieveTimes, 95).toFixed(2),
    referencePlans: refs,
    fileMB: +(bytes / 1024 / 1024).toFixed(1),
  }
}

const dir = mkdtempSync(path.join(tmpdir(), 'ghost-bench-memory-'))
try {
  const started = performance.now()
  const rows: Row[] = []
  for (const size of SIZES) {
    process.stderr.write(`filling ${size} plans...\n`)
    rows.push(await benchSize(size, dir))
  }
  printTable(rows)
  const out = writeResult('memory', {
    when: new Date().toISOString(), node: process.version, platform: `${process.platform}-${process.arch}`, cpus: cpus().length,
    loadAverage1m: +loadavg()[0]!.toFixed(1),
    embedder: `local-hash-${LOCAL_EMBED_DIM}`, k: K, queries: QUERIES, batch: BATCH, singleCommits: SINGLE_COMMITS,
    notes: 'insertPerSec: batched recordPlans incl. local embedding and summarisation; singleCommitPerSec: recordPlan one transaction each (WAL, synchronous=NORMAL); '
      + 'vec = sqlite-vec vec0 brute-force k-NN over the ok=1 partition, joined to plans; js = plain loop over the same vectors held in a Float32Array; '
      + 'retrieve = embed query + k-NN + reference lookup; fileMB after WAL checkpoint',
    totalMs: Math.round(performance.now() - started),
    results: rows,
  })
  process.stdout.write(`wrote ${out}\n`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
