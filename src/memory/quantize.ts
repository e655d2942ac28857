/**
 * Binary quantisation for the SQLite k-NN (see docs/memory.md, "Fast k-NN"): every vector also gets a thermometer
 * sign code — per dimension and level t, one bit for "above t" and one for "below −t" — so the Hamming distance
 * between two codes approximates the L1 distance of the coarsely quantised vectors. sqlite-vec scans these codes
 * (1/16 of the float bytes) for candidates, which are then re-ranked exactly by cosine distance on the float vectors.
 */
import { cosine } from './embedder.js'

/**
 * Thresholds of the code, in multiples of a unit vector's RMS component (1/√dim): a component above 1 RMS sets its
 * "positive" bit, one below −1 RMS its "negative" bit, smaller ones neither. Chosen on the benchmark's goal texts
 * (docs/memory.md): it keeps heavy features (object words) and drops light ones (trigrams, filler words), so the
 * Hamming distance ranks neighbours much like cosine distance does. More levels ([1, 3]) rank a little better but
 * double the bytes scanned.
 */
export const CODE_LEVELS = [1] as const

/** Bits of the code of a `dim`-dimensional vector (a multiple of 8, as sqlite-vec's bit[] needs). */
export function codeBits(dim: number): number {
  return Math.ceil((2 * CODE_LEVELS.length * dim) / 8) * 8
}

/** The thermometer sign code of `v`: per level l and dimension i, bit (2l)·dim + i for v[i] > t_l, (2l+1)·dim + i for v[i] < −t_l. */
export function signCode(v: Float32Array): Buffer {
  const dim = v.length
  const rms = 1 / Math.sqrt(dim)
  const out = Buffer.alloc(codeBits(dim) / 8)
  const set = (bit: number): void => {
    out[bit >> 3]! |= 1 << (bit & 7)
  }
  for (let i = 0; i < dim; i++) {
    const x = v[i]!
    CODE_LEVELS.forEach((level, l) => {
      if (x > level * rms) set(2 * l * dim + i)
      else if (x < -level * rms) set((2 * l + 1) * dim + i)
    })
  }
  return out
}

/**
 * The pre-filter runs once per shard (plans are spread over SHARDS partitions by id) and keeps perShard(k)
 * candidates from each: sqlite-vec's brute-force top-k costs about rows × k, so eight top-6 scans of an eighth of
 * the rows each cost about what one top-6 scan of all rows costs, yet hand 48 candidates to the exact re-rank.
 */
export const SHARDS = 8
export function perShard(k: number): number {
  return Math.max(6, Math.ceil((3 * k) / SHARDS))
}
export function candidatesFor(k: number): number {
  return SHARDS * perShard(k)
}
/**
 * Below this many plans the exact float k-NN of sqlite-vec is as fast (it costs about rows, ~2 ms at 10k) and the
 * codes rank worse (neighbours are farther apart), so the store searches exactly.
 */
export const EXACT_BELOW = 15_000

/** Cosine distance of two vectors (1 − cosine similarity; 1 when either is all zeros). */
export function cosineDistance(a: Float32Array, b: Float32Array): number {
  return 1 - cosine(a, b)
}

/** Exact re-rank: the `k` candidates nearest to `q` by cosine distance, nearest first (ties by id). */
export function rerank<T extends { id: number; v: Float32Array }>(
  q: Float32Array,
  candidates: T[],
  k: number,
): Array<T & { distance: number }> {
  return candidates
    .map((c) => ({ ...c, distance: cosineDistance(q, c.v) }))
    .sort((a, b) => a.distance - b.distance || a.id - b.id)
    .slice(0, k)
}
