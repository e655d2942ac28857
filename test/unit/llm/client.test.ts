/**
 * The LLM client against a real local HTTP server speaking the OpenAI API (test/helpers/fake-openai.ts) with the real
 * `openai` SDK: structured output, repair, retries with backoff and retry-after, timeouts, budget, usage and the
 * JSON-in-text fallback for servers that reject response_format, and the circuit breaker after repeated failures.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createLlm, llmSettingsFromConfig, type LlmSettings, type Prompt } from '../../../src/llm/client.js'
import { loadConfig } from '../../../src/config.js'
import { Breaker } from '../../../src/llm/breaker.js'
import { LlmBudgetError, LlmError, LlmInvalidError } from '../../../src/llm/errors.js'
import { type GhostError, isAbort } from '../../../src/util/errors.js'
import { setLogLevel } from '../../../src/util/log.js'
import { waitFor } from '../../../src/util/async.js'
import { startFakeOpenAI, type FakeOpenAI } from '../../helpers/fake-openai.js'

const Answer = z.object({ item: z.string(), count: z.number().int().min(1) })
const prompt: Prompt = { name: 'test', system: 'You answer with JSON.', user: 'how many?' }
let fake: FakeOpenAI
setLogLevel('error')

function settings(over: Partial<LlmSettings> = {}): LlmSettings {
  return {
    baseUrl: fake.url,
    apiKey: undefined,
    model: 'fake-model',
    embedModel: 'fake-embed',
    timeoutMs: 2000,
    maxRetries: 3,
    playerTokenBudget: 1000,
    backoffBaseMs: 5,
    backoffMaxMs: 20,
    ...over,
  }
}
const meta = { player: 'alice', goalKey: 'iron_ingot', requestId: 'r1' }

beforeEach(async () => {
  fake = await startFakeOpenAI()
})
afterEach(async () => {
  await fake.close()
})

describe('complete', () => {
  it('returns a parsed value for a good structured answer and sends a strict json_schema', async () => {
    fake.script({ json: { item: 'iron_ingot', count: 3 } })
    const llm = createLlm(settings())
    await expect(llm.complete(Answer, prompt, meta)).resolves.toEqual({ item: 'iron_ingot', count: 3 })
    const [call] = fake.chatCalls()
    expect(call!.body.model).toBe('fake-model')
    expect(call!.headers.authorization).toMatch(/^Bearer \S+/) // dummy key for local servers
    const rf = call!.body.response_format as {
      type: string
      json_schema: { strict: boolean; schema: { required: string[]; additionalProperties: boolean } }
    }
    expect(rf.type).toBe('json_schema')
    expect(rf.json_schema.strict).toBe(true)
    expect(rf.json_schema.schema.required).toEqual(['item', 'count'])
    expect(rf.json_schema.schema.additionalProperties).toBe(false)
    expect(call!.body.messages![0]).toEqual({ role: 'system', content: 'You answer with JSON.' })
  })

  it('accepts JSON wrapped in prose or code fences (servers that ignore response_format)', async () => {
    fake.script({ content: 'Sure! Here it is:\n```json\n{"item":"stick","count":2}\n```' })
    const llm = createLlm(settings())
    await expect(llm.complete(Answer, prompt, meta)).resolves.toEqual({ item: 'stick', count: 2 })
  })

  it('repairs once: malformed JSON, then a good answer; the validation problem is sent back', async () => {
    fake.script({ content: '{"item": "stick", "count": ' }, { json: { item: 'stick', count: 2 } })
    const llm = createLlm(settings())
    await expect(llm.complete(Answer, prompt, meta)).resolves.toEqual({ item: 'stick', count: 2 })
    const calls = fake.chatCalls()
    expect(calls).toHaveLength(2)
    const msgs = calls[1]!.body.messages!
    expect(msgs[2]!.role).toBe('assistant')
    expect(msgs[3]!.content).toMatch(/not valid JSON/)
  })

  it('repairs a schema violation and fails with LlmInvalidError when the repair is invalid too', async () => {
    fake.script({ json: { item: 'stick', count: 0 } }, { json: { item: 'stick' } })
    const llm = createLlm(settings())
    const err = await llm.complete(Answer, prompt, meta).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(LlmInvalidError)
    expect((err as GhostError).code).toBe('llm_invalid')
    expect(fake.chatCalls()[1]!.body.messages![3]!.content).toMatch(/count/)
    expect(fake.chatCalls()).toHaveLength(2)
  })

  it('retries 429 (honouring retry-after-ms) and 500, then succeeds', async () => {
    fake.script(
      {
        status: 429,
        headers: { 'retry-after-ms': '120' },
        body: { error: { message: 'slow down', type: 'rate_limit' } },
      },
      { status: 500 },
      { json: { item: 'bread', count: 1 } },
    )
    const llm = createLlm(settings())
    const t0 = Date.now()
    await expect(llm.complete(Answer, prompt, meta)).resolves.toEqual({ item: 'bread', count: 1 })
    expect(Date.now() - t0).toBeGreaterThanOrEqual(110)
    expect(fake.chatCalls()).toHaveLength(3)
    expect(llm.usage.forPlayer('alice').calls).toBe(1) // failed attempts carry no usage
  })

  it('honours retry-after in seconds', async () => {
    fake.script({ status: 429, headers: { 'retry-after': '0.15' } }, { json: { item: 'bread', count: 1 } })
    const llm = createLlm(settings())
    const t0 = Date.now()
    await llm.complete(Answer, prompt, meta)
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140)
  })

  it('a hang longer than the timeout gives a typed LlmError after bounded retries', async () => {
    fake.script({ hang: true }, { hang: true }, { hang: true })
    const llm = createLlm(settings({ timeoutMs: 150, maxRetries: 2 }))
    const err = await llm.complete(Answer, prompt, meta).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(LlmError)
    expect((err as LlmError).code).toBe('llm')
    expect((err as LlmError).kind).toBe('timeout')
    expect((err as LlmError).attempts).toBe(3)
    expect(fake.chatCalls()).toHaveLength(3)
    expect((err as LlmError).userMessage).not.toMatch(/127\.0\.0\.1|sk-/)
  })

  it('does not retry a 401 and gives kind auth', async () => {
    fake.script({ status: 401 }, { json: { item: 'x', count: 1 } })
    const err = await createLlm(settings())
      .complete(Answer, prompt, meta)
      .catch((e: unknown) => e)
    expect((err as LlmError).kind).toBe('auth')
    expect(fake.chatCalls()).toHaveLength(1)
  })

  it('gives up on 5xx after maxRetries', async () => {
    fake.script({ status: 503 }, { status: 502 }, { status: 500 })
    const err = await createLlm(settings({ maxRetries: 1 }))
      .complete(Answer, prompt, meta)
      .catch((e: unknown) => e)
    expect((err as LlmError).kind).toBe('server')
    expect((err as LlmError).attempts).toBe(2)
    expect(fake.chatCalls()).toHaveLength(2)
  })

  it('falls back to JSON-in-text when the server rejects response_format, and remembers it', async () => {
    fake.script(
      {
        status: 400,
        body: { error: { message: "Invalid parameter: 'response_format' of type 'json_schema' is not supported" } },
      },
      { content: '{"item":"torch","count":4}' },
      { content: '{"item":"torch","count":5}' },
    )
    const llm = createLlm(settings())
    await expect(llm.complete(Answer, prompt, meta)).resolves.toEqual({ item: 'torch', count: 4 })
    await expect(llm.complete(Answer, prompt, meta)).resolves.toEqual({ item: 'torch', count: 5 })
    const calls = fake.chatCalls()
    expect(calls).toHaveLength(3)
    expect(calls[1]!.body.response_format).toBeUndefined()
    expect(calls[1]!.body.messages![0]!.content).toMatch(/JSON schema/)
    expect(calls[2]!.body.response_format).toBeUndefined()
  })

  it('drops temperature for models that reject it', async () => {
    fake.script(
      {
        status: 400,
        body: { error: { message: "Unsupported value: 'temperature' does not support 0.2 with this model." } },
      },
      { json: { item: 'a', count: 1 } },
    )
    await expect(createLlm(settings()).complete(Answer, prompt, meta)).resolves.toEqual({ item: 'a', count: 1 })
    expect(fake.chatCalls()[0]!.body.temperature).toBe(0.2)
    expect(fake.chatCalls()[1]!.body).not.toHaveProperty('temperature')
    expect(fake.chatCalls()[1]!.body.response_format).toBeDefined()
  })

  it('wraps a union root as { value } for strict mode and unwraps the answer', async () => {
    const U = z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a'), n: z.number() }),
      z.object({ kind: z.literal('b'), s: z.string().optional() }),
    ])
    fake.script({ json: { value: { kind: 'b', s: null } } }, { json: { kind: 'a', n: 1 } })
    const llm = createLlm(settings())
    await expect(llm.complete(U, prompt, meta)).resolves.toEqual({ kind: 'b' })
    await expect(llm.complete(U, prompt, meta)).resolves.toEqual({ kind: 'a', n: 1 }) // unwrapped answers pass too
    const rf = fake.chatCalls()[0]!.body.response_format as {
      json_schema: { strict: boolean; schema: { properties: Record<string, unknown> } }
    }
    expect(rf.json_schema.strict).toBe(true)
    expect(Object.keys(rf.json_schema.schema.properties)).toEqual(['value'])
  })

  it('a caller abort stops at once with AbortedError, without retrying', async () => {
    fake.script({ hang: true }, { json: { item: 'x', count: 1 } })
    const llm = createLlm(settings({ timeoutMs: 5000 }))
    const ac = new AbortController()
    const pending = llm.complete(Answer, prompt, { ...meta, signal: ac.signal }).catch((e: unknown) => e)
    await waitFor(() => fake.chatCalls().length === 1, 2000, 'request at the fake server', 5)
    ac.abort()
    const err = await pending
    expect(isAbort(err)).toBe(true)
    expect((err as GhostError).code).toBe('aborted')
    expect(fake.chatCalls()).toHaveLength(1)
  })

  it('treats a refusal as an invalid answer', async () => {
    fake.script({ refusal: 'I cannot help with that' })
    const err = await createLlm(settings())
      .complete(Answer, prompt, meta)
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(LlmInvalidError)
  })
})

describe('usage and budget', () => {
  it('counts calls and tokens per player, goal and request; snapshot() for status', async () => {
    fake.script(
      { json: { item: 'a', count: 1 }, usage: { prompt_tokens: 100, completion_tokens: 20 } },
      { json: { item: 'b', count: 1 }, usage: { prompt_tokens: 50, completion_tokens: 10 } },
      { json: { item: 'c', count: 1 }, usage: { prompt_tokens: 7, completion_tokens: 3 } },
    )
    const llm = createLlm(settings())
    await llm.complete(Answer, prompt, { player: 'alice', goalKey: 'iron_ingot', requestId: 'r1' })
    await llm.complete(Answer, prompt, { player: 'alice', goalKey: 'stick', requestId: 'r2' })
    await llm.complete(Answer, prompt, { player: 'bob', goalKey: 'iron_ingot', requestId: 'r3' })
    expect(llm.usage.forPlayer('alice')).toEqual({
      calls: 2,
      promptTokens: 150,
      completionTokens: 30,
      totalTokens: 180,
    })
    expect(llm.usage.forPlayer('bob').totalTokens).toBe(10)
    expect(llm.usage.forGoal('iron_ingot')).toEqual({
      calls: 2,
      promptTokens: 107,
      completionTokens: 23,
      totalTokens: 130,
    })
    expect(llm.usage.forRequest('r2').totalTokens).toBe(60)
    const snap = llm.usage.snapshot()
    expect(snap.total.calls).toBe(3)
    expect(snap.players.alice!.remaining).toBe(820)
    expect(JSON.parse(JSON.stringify(snap))).toEqual(snap)
  })

  it('counts a repair call under the same request', async () => {
    fake.script({ content: 'nope' }, { json: { item: 'a', count: 1 } })
    const llm = createLlm(settings())
    await llm.complete(Answer, prompt, meta)
    expect(llm.usage.forRequest('r1')).toMatchObject({ calls: 2, totalTokens: 30 })
  })

  it('estimates tokens when the server reports no usage', async () => {
    fake.script({ content: '{"item":"a","count":1}', usage: null })
    const llm = createLlm(settings())
    await llm.complete(Answer, prompt, meta)
    expect(llm.usage.forPlayer('alice').totalTokens).toBeGreaterThan(0)
  })

  it('throws LlmBudgetError without a call when the budget is exhausted', async () => {
    fake.script(
      { json: { item: 'a', count: 1 }, usage: { prompt_tokens: 900, completion_tokens: 200 } },
      { json: { item: 'b', count: 1 } },
    )
    const llm = createLlm(settings({ playerTokenBudget: 1000 }))
    await llm.complete(Answer, prompt, meta) // overshoots once
    const err = await llm.complete(Answer, prompt, meta).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(LlmBudgetError)
    expect((err as GhostError).code).toBe('llm_budget')
    expect(fake.chatCalls()).toHaveLength(1)
    // other players and system work are unaffected
    await expect(llm.complete(Answer, prompt, { ...meta, player: 'bob' })).resolves.toEqual({ item: 'b', count: 1 })
  })

  it('a zero budget disables LLM use for players', async () => {
    const llm = createLlm(settings({ playerTokenBudget: 0 }))
    await expect(llm.complete(Answer, prompt, meta)).rejects.toBeInstanceOf(LlmBudgetError)
    expect(fake.calls).toHaveLength(0)
  })
})

describe('circuit breaker', () => {
  it('after two failed calls in a row, fails at once without a request, then lets one call through after the cooldown', async () => {
    fake.script({ status: 503 }, { status: 503 }, { json: { item: 'a', count: 1 } }, { json: { item: 'b', count: 2 } })
    const llm = createLlm(settings({ maxRetries: 0, breakerOpenMs: 300 }))
    const fail = (): Promise<unknown> => llm.complete(Answer, prompt, meta).catch((e: unknown) => e)
    expect(((await fail()) as LlmError).kind).toBe('server')
    expect(llm.breaker().open).toBe(false)
    expect(((await fail()) as LlmError).kind).toBe('server')
    expect(llm.breaker().open).toBe(true)
    const fast = (await fail()) as LlmError
    expect([fast.kind, fast.attempts, fast.userMessage]).toEqual([
      'unavailable',
      0,
      expect.stringMatching(/planning offline/),
    ])
    expect(fake.chatCalls()).toHaveLength(2) // the third call never reached the server
    await waitFor(() => !llm.breaker().open, 2000, 'the breaker to close')
    await expect(llm.complete(Answer, prompt, meta)).resolves.toEqual({ item: 'a', count: 1 })
    await expect(llm.complete(Answer, prompt, meta)).resolves.toEqual({ item: 'b', count: 2 })
    expect(fake.chatCalls()).toHaveLength(4)
  })

  it('counts only server-side failures; an invalid answer means the server is up; a failed probe re-opens at once', () => {
    let now = 0
    const b = new Breaker(2, 1000, () => now)
    expect(b.failure('bad_request')).toBe(false)
    expect(b.failure('bad_request')).toBe(false)
    expect(b.failure('timeout')).toBe(false)
    b.success()
    expect(b.failure('connection')).toBe(false)
    expect(b.failure('rate_limit')).toBe(true)
    expect(b.state()).toEqual({ open: true, failures: 0, retryInMs: 1000 })
    now = 1000
    expect(b.state().open).toBe(false)
    expect(b.failure('server')).toBe(true) // the probe failed: open again without waiting for a second failure
    now = 2500
    b.success()
    expect(b.failure('server')).toBe(false)
    expect(new Breaker(2, 0, () => now).failure('server')).toBe(false) // 0 disables it
  })

  it('an answer that does not validate does not count as the server failing', async () => {
    fake.script(
      { status: 500 },
      { content: 'nope' },
      { content: 'still nope' },
      { status: 500 },
      { json: { item: 'c', count: 1 } },
    )
    const llm = createLlm(settings({ maxRetries: 0, breakerOpenMs: 60_000 }))
    expect(await llm.complete(Answer, prompt, meta).catch((e: unknown) => e)).toBeInstanceOf(LlmError)
    expect(await llm.complete(Answer, prompt, meta).catch((e: unknown) => e)).toBeInstanceOf(LlmInvalidError)
    expect(await llm.complete(Answer, prompt, meta).catch((e: unknown) => e)).toBeInstanceOf(LlmError)
    expect(llm.breaker().open).toBe(false)
    await expect(llm.complete(Answer, prompt, meta)).resolves.toEqual({ item: 'c', count: 1 })
  })
})

describe('settings from config', () => {
  it('maps the config keys and works without an API key (local servers)', async () => {
    const r = loadConfig(
      {
        GHOST_MODEL: 'llama3',
        OPENAI_BASE_URL: fake.url,
        GHOST_EMBED_MODEL: 'nomic',
        GHOST_LLM_TIMEOUT_MS: '500',
        GHOST_LLM_MAX_RETRIES: '0',
        GHOST_PLAYER_TOKEN_BUDGET: '77',
        GHOST_LLM_COOLDOWN_MS: '0',
      },
      '',
    )
    if (!r.ok) throw new Error(JSON.stringify(r.problems))
    const s = llmSettingsFromConfig(r.config)!
    expect(s).toMatchObject({
      model: 'llama3',
      baseUrl: fake.url,
      apiKey: undefined,
      embedModel: 'nomic',
      timeoutMs: 500,
      maxRetries: 0,
      playerTokenBudget: 77,
      breakerOpenMs: 0,
    })
    fake.script({ json: { item: 'a', count: 1 } })
    await expect(createLlm(s).complete(Answer, prompt, meta)).resolves.toEqual({ item: 'a', count: 1 })
    expect(fake.chatCalls()[0]!.headers.authorization).toBe('Bearer sk-local-no-key')
  })

  it('is null without GHOST_MODEL (offline)', () => {
    const r = loadConfig({}, '')
    if (!r.ok) throw new Error('config')
    expect(llmSettingsFromConfig(r.config)).toBeNull()
  })
})
