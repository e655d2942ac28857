/**
 * A fresh fake OpenAI server (fake-openai.ts) for every test of a file, and real LLM clients (src/llm/client.ts)
 * pointed at it with test settings: model `fake-model`, no key, no embedding model, a 1 s timeout, one retry, a 5 ms
 * back-off and a 10 000-token player budget, each overridable. `useFakeLlm()` registers vitest's beforeEach/afterEach
 * hooks that start and close the server, so a test file calls it once at the top and reads `server` inside its tests.
 */
import { afterEach, beforeEach } from 'vitest'
import { createLlm, type Llm, type LlmSettings } from '../../src/llm/client.js'
import { startFakeOpenAI, type FakeOpenAI } from './fake-openai.js'

export interface FakeLlm {
  /** The current test's server: its script and the calls it recorded. */
  readonly server: FakeOpenAI
  /** Client settings pointed at the current server. */
  settings(over?: Partial<LlmSettings>): LlmSettings
  /** A real client with those settings. */
  client(over?: Partial<LlmSettings>): Llm
}

export function useFakeLlm(): FakeLlm {
  let current: FakeOpenAI | null = null
  beforeEach(async () => {
    current = await startFakeOpenAI()
  })
  afterEach(async () => {
    await current?.close()
    current = null
  })
  const server = (): FakeOpenAI => {
    if (!current) throw new Error('the fake OpenAI server runs only inside a test (useFakeLlm at the top of the file)')
    return current
  }
  const settings = (over: Partial<LlmSettings> = {}): LlmSettings => ({
    baseUrl: server().url,
    apiKey: undefined,
    model: 'fake-model',
    embedModel: undefined,
    timeoutMs: 1000,
    maxRetries: 1,
    playerTokenBudget: 10_000,
    backoffBaseMs: 5,
    ...over,
  })
  return {
    get server() {
      return server()
    },
    settings,
    client: (over) => createLlm(settings(over)),
  }
}
