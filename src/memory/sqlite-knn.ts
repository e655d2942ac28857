/**
 * The SQLite engine's vector searches. Plans (successful only): a Hamming pre-filter on the plans' sign codes (`plan_bits`, sharded,
 * sqlite-vec `vec_bit`) whose candidates are re-ranked exactly on their float vectors (`plan_vec`), see
 * ./quantize.ts; below EXACT_BELOW plans it is the plain sqlite-vec brute-force search. Knowledge chunks: the plain
 * sqlite-vec search (`knowledge_vec`). Statements come from the backend's per-handle cache (`st`).
 */
import type Database from 'better-sqlite3'
import type { StoredKnowledge } from '../schemas/memory.js'
import type { Neighbour } from './backend.js'
import { blobVec, vecBlob } from './db.js'
import { EXACT_BELOW, perShard, rerank, SHARDS, signCode } from './quantize.js'

type Statements = (sql: string) => Database.Statement

/** Hamming pre-filter on the sign codes, then the exact cosine re-rank (exact search while small, unless 'codes'). */
export function nearestPlans(st: Statements, v: Float32Array, k: number, mode: 'auto' | 'codes'): Neighbour[] {
  const rows = (st('SELECT max(id) AS n FROM plans').get() as { n: number | null }).n ?? 0
  if (mode === 'auto' && rows < EXACT_BELOW) return nearestExact(st, v, k)
  const scan = st('SELECT plan_id AS id FROM plan_bits WHERE code MATCH vec_bit(?) AND k = ? AND ok = 1 AND shard = ?')
  const code = signCode(v)
  const per = BigInt(perShard(k))
  const cands: Array<{ id: number }> = []
  for (let s = 0n; s < BigInt(SHARDS); s++) cands.push(...(scan.all(code, per, s) as Array<{ id: number }>))
  const vec = st('SELECT embedding FROM plan_vec WHERE plan_id = ?')
  const key = st('SELECT goal_key, server FROM plans WHERE id = ?')
  const withVec = cands.map((c) => ({
    id: c.id,
    v: blobVec((vec.get(BigInt(c.id)) as { embedding: Buffer }).embedding),
  }))
  return rerank(v, withVec, k).map((n) => {
    const p = key.get(n.id) as { goal_key: string; server: string | null }
    return { planId: n.id, goalKey: p.goal_key, distance: n.distance, server: p.server }
  })
}

/** The plain sqlite-vec brute-force k-NN over the float vectors of successful plans (exact). */
export function nearestExact(st: Statements, v: Float32Array, k: number): Neighbour[] {
  return st(`SELECT n.plan_id AS planId, p.goal_key AS goalKey, n.distance AS distance, p.server AS server
    FROM (SELECT plan_id, distance FROM plan_vec WHERE embedding MATCH ? AND k = ? AND ok = 1) n
    JOIN plans p ON p.id = n.plan_id ORDER BY n.distance`).all(vecBlob(v), BigInt(k)) as Neighbour[]
}

/** The k knowledge chunks nearest `v` (cosine), with similarity = 1 − distance. */
export function nearestKnowledge(
  st: Statements,
  v: Float32Array,
  k: number,
): Array<StoredKnowledge & { similarity: number }> {
  const rows = st(`SELECT c.id, c.source, c.text, c.created_at, n.distance FROM
    (SELECT chunk_id, distance FROM knowledge_vec WHERE embedding MATCH ? AND k = ?) n JOIN knowledge c ON c.id = n.chunk_id ORDER BY n.distance`).all(
    vecBlob(v),
    BigInt(k),
  ) as Array<{ id: number; source: string; text: string; created_at: number; distance: number }>
  return rows.map((r) => ({
    id: r.id,
    source: r.source,
    text: r.text,
    createdAt: r.created_at,
    similarity: 1 - r.distance,
  }))
}
