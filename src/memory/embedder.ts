/**
 * Embedders for memory: the `Embedder` interface every vector in memory.db comes from, and the built-in local one.
 * The local embedder needs no download and no network: it hashes lower-cased words, word bigrams and character
 * trigrams (FNV-1a, signed feature hashing; filler words and numbers weigh little) into a fixed number of buckets
 * and L2-normalises the result, so equal texts give equal vectors on every host and similar wordings land near
 * each other. A remote embedder (an
 * OpenAI-compatible endpoint) is provided by src/llm and passed in through the same interface.
 */

export interface Embedder {
  /** Stable model name stored with every vector, e.g. `local-hash-256` or `text-embedding-3-small`. */
  readonly model: string
  /** Vector length; every vector in one database has this length. */
  readonly dim: number
  /** One L2-normalised vector per text, in order. */
  embed(texts: string[]): Promise<Float32Array[]>
}

export const LOCAL_EMBED_DIM = 256

/** FNV-1a 32-bit hash of a string. */
function fnv1a(s: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h >>> 0
}

/** Words of a text: lower case, `_` and punctuation split, digits kept. */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0)
}

/** Filler words of goal texts ("obtain 3 x with y from z"): kept, but weighted low so objects decide similarity. */
const FILLER = new Set([
  'a',
  'an',
  'the',
  'of',
  'to',
  'in',
  'on',
  'at',
  'and',
  'or',
  'for',
  'with',
  'from',
  'by',
  'using',
  'obtain',
  'get',
  'make',
  'some',
  'me',
  'i',
  'you',
  'it',
  'is',
  'be',
  'need',
  'needs',
  'x',
])

function wordWeight(w: string): number {
  if (FILLER.has(w)) return 0.2
  if (/^[0-9]+$/.test(w)) return 0.3
  return 1
}

function addFeature(v: Float32Array, feature: string, weight: number): void {
  const h = fnv1a(feature)
  const bucket = h % v.length
  const sign = h >>> 31 === 1 ? -1 : 1
  v[bucket] = v[bucket]! + sign * weight
}

/** Deterministic hashed n-gram vector of one text (L2-normalised; all zeros only for text without letters). */
export function hashEmbed(text: string, dim = LOCAL_EMBED_DIM): Float32Array {
  const v = new Float32Array(dim)
  const ws = words(text)
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i]!
    const weight = wordWeight(w)
    addFeature(v, `w:${w}`, weight)
    if (i + 1 < ws.length) addFeature(v, `b:${w} ${ws[i + 1]!}`, 0.5 * Math.min(weight, wordWeight(ws[i + 1]!)))
    if (weight < 1) continue
    const padded = `^${w}$`
    for (let j = 0; j + 3 <= padded.length; j++) addFeature(v, `c:${padded.slice(j, j + 3)}`, 0.25)
  }
  return normalise(v)
}

/** L2-normalise in place and return the same array. */
export function normalise(v: Float32Array): Float32Array {
  let sum = 0
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!
  const norm = Math.sqrt(sum)
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] = v[i]! / norm
  return v
}

/** Cosine similarity of two vectors of equal length (works for unnormalised vectors too). */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0,
    na = 0,
    nb = 0
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!
    na += a[i]! * a[i]!
    nb += b[i]! * b[i]!
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0
}

/** The built-in offline embedder. */
export function localEmbedder(dim = LOCAL_EMBED_DIM): Embedder {
  return {
    model: `local-hash-${dim}`,
    dim,
    embed: (texts) => Promise.resolve(texts.map((t) => hashEmbed(t, dim))),
  }
}
