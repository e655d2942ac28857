/**
 * Remote embeddings against the fake OpenAI server: float vectors, L2-normalised, dimension probe and check,
 * batching, usage counted as system work, and the memory module's Embedder interface.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Embedder } from '../../../src/memory/embedder.js'
import { createLlm, type LlmSettings } from '../../../src/llm/client.js'
import { probeEmbedder, remoteEmbedder } from '../../../src/llm/embedder.js'
import { LlmInvalidError } from '../../../src/llm/errors.js'
import { startFakeOpenAI, type FakeOpenAI } from '../../helpers/fake-openai.js'

let fake: FakeOpenAI
const settings = (over: Partial<LlmSettings> = {}): LlmSettings => ({
  baseUrl: fake.url,
  apiKey: 'sk-test',
  model: 'fake-model',
  embedModel: 'fake-embed',
  timeoutMs: 2000,
  maxRetries: 1,
  playerTokenBudget: 1000,
  backoffBaseMs: 5,
  ...over,
})

beforeEach(async () => {
  fake = await startFakeOpenAI()
})
afterEach(async () => {
  await fake.close()
})

describe('remote embedder', () => {
  it('probes the dimension and embeds texts in order as unit vectors', async () => {
    fake.embedDim = 12
    const llm = createLlm(settings())
    const emb: Embedder | null = await probeEmbedder(llm)
    expect(emb).not.toBeNull()
    expect(emb!.model).toBe('fake-embed')
    expect(emb!.dim).toBe(12)
    const [a, b, a2] = await emb!.embed(['mine iron', 'craft sticks', 'mine iron'])
    expect(a).toBeInstanceOf(Float32Array)
    expect(a!.length).toBe(12)
    const norm = Math.sqrt([...a!].reduce((s, x) => s + x * x, 0))
    expect(norm).toBeCloseTo(1, 5)
    expect([...a2!]).toEqual([...a!])
    expect([...b!]).not.toEqual([...a!])
    const call = fake.calls.filter((c) => c.path.endsWith('/embeddings')).at(-1)!
    expect(call.body.model).toBe('fake-embed')
    expect(call.body.encoding_format).toBe('float')
    expect(call.headers.authorization).toBe('Bearer sk-test')
    expect(llm.usage.snapshot().total.promptTokens).toBe(3 + 9) // probe + three texts, no player
    expect(Object.keys(llm.usage.snapshot().players)).toHaveLength(0)
  })

  it('batches large inputs and returns [] for no texts', async () => {
    const emb = remoteEmbedder(createLlm(settings()), 8)
    expect(await emb.embed([])).toEqual([])
    const out = await emb.embed(Array.from({ length: 130 }, (_, i) => `text ${i}`))
    expect(out).toHaveLength(130)
    expect(fake.calls.filter((c) => c.path.endsWith('/embeddings'))).toHaveLength(3)
  })

  it('rejects vectors of the wrong dimension', async () => {
    const emb = remoteEmbedder(createLlm(settings()), 16)
    await expect(emb.embed(['x'])).rejects.toBeInstanceOf(LlmInvalidError)
  })

  it('is null without GHOST_EMBED_MODEL', async () => {
    expect(await probeEmbedder(createLlm(settings({ embedModel: undefined })))).toBeNull()
  })
})
