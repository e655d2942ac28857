/**
 * Remote embeddings over the OpenAI-compatible `/embeddings` endpoint (model GHOST_EMBED_MODEL), implementing the
 * memory module's `Embedder` interface. Vectors are requested as floats (local servers rarely speak base64),
 * L2-normalised, and checked to have one length; calls share the client's retry policy and are counted in the usage
 * ledger as system work (no player budget). `dim` must be known before memory opens its vector table, so use
 * `probeEmbedder` (one tiny call) when the dimension is not configured.
 */
import type { Embedder } from '../memory/embedder.js'
import { LlmInvalidError } from './errors.js'
import type { Llm } from './client.js'
import { withRetry } from './retry.js'
import { estimateTokens } from './usage.js'

/** Inputs per HTTP request (OpenAI allows 2048; local servers are happier with fewer). */
const BATCH = 64

function l2(v: Float32Array): Float32Array {
  let s = 0
  for (let i = 0; i < v.length; i++) s += v[i]! * v[i]!
  const n = Math.sqrt(s)
  if (n > 0) for (let i = 0; i < v.length; i++) v[i] = v[i]! / n
  return v
}

async function embedRaw(llm: Llm, model: string, texts: string[]): Promise<Float32Array[]> {
  const out: Float32Array[] = []
  for (let i = 0; i < texts.length; i += BATCH) {
    const batch = texts.slice(i, i + BATCH)
    const res = await withRetry(`embeddings ${model}`, llm.retryPolicy, () =>
      llm.sdk.embeddings.create({ model, input: batch, encoding_format: 'float' }),
    )
    const rows = [...res.data].sort((a, b) => a.index - b.index)
    if (rows.length !== batch.length)
      throw new LlmInvalidError('embeddings', `expected ${batch.length} vectors, got ${rows.length}`, '')
    const promptTokens = res.usage?.prompt_tokens ?? estimateTokens(batch.join(' '))
    llm.usage.record({ player: null, goalKey: null, requestId: null }, { promptTokens, completionTokens: 0 })
    for (const r of rows) out.push(l2(Float32Array.from(r.embedding as number[])))
  }
  return out
}

/** An embedder with a known dimension; a vector of another length is an `LlmInvalidError`. */
export function remoteEmbedder(llm: Llm, dim: number, model = llm.settings.embedModel): Embedder {
  if (!model) throw new LlmInvalidError('embeddings', 'no embedding model configured (GHOST_EMBED_MODEL)', '')
  const m = model
  return {
    model: m,
    dim,
    async embed(texts: string[]): Promise<Float32Array[]> {
      if (texts.length === 0) return []
      const vs = await embedRaw(llm, m, texts)
      const bad = vs.find((v) => v.length !== dim)
      if (bad)
        throw new LlmInvalidError('embeddings', `model ${m} returned ${bad.length} dimensions, expected ${dim}`, '')
      return vs
    },
  }
}

/** Ask the server once for the dimension, then return a fixed-dimension embedder; null when no model is set. */
export async function probeEmbedder(llm: Llm): Promise<Embedder | null> {
  const model = llm.settings.embedModel
  if (!model) return null
  const [v] = await embedRaw(llm, model, ['dimension probe'])
  if (!v || v.length === 0) throw new LlmInvalidError('embeddings', `model ${model} returned an empty vector`, '')
  return remoteEmbedder(llm, v.length, model)
}
