/**
 * The LLM client: the only place that talks to the `openai` SDK for chat. `createLlm(settings)` gives an `Llm` whose
 * `complete(schema, prompt, meta)` returns a value parsed and validated by a zod schema. It works with OpenAI and any
 * OpenAI-compatible server (Ollama, LM Studio, vLLM, llama.cpp): chat.completions with a `json_schema` response
 * format (strict when the schema allows), falling back to JSON-in-text when a server rejects or ignores
 * `response_format`; one repair round sends the validation problems back; transport failures go through the single
 * retry policy in retry.ts (SDK retries off); repeated server failures open the circuit breaker (breaker.ts) so
 * callers fall back offline at once for a while. Every call is counted in the `UsageLedger` and a player's budget is
 * checked before each call.
 */
import OpenAI, { BadRequestError } from 'openai'
import type { z } from 'zod'
import type { Config } from '../config.js'
import { logger } from '../util/log.js'
import { Breaker, type BreakerState } from './breaker.js'
import { LlmError, LlmInvalidError } from './errors.js'
import { extractJson, schemaFormat, validateAnswer, type SchemaFormat } from './json-schema.js'
import { withRetry, type RetryPolicy } from './retry.js'
import { estimateTokens, UsageLedger, type UsageMeta } from './usage.js'

const log = logger('llm')

/** Placeholder key for local servers that need none (the SDK refuses to start without one). */
export const DUMMY_API_KEY = 'sk-local-no-key'

/** Answer-token cap when neither the call nor the settings give one. */
export const DEFAULT_MAX_TOKENS = 4096

export interface LlmSettings {
  baseUrl: string | undefined
  apiKey: string | undefined
  model: string
  embedModel: string | undefined
  timeoutMs: number
  maxRetries: number
  playerTokenBudget: number
  /** Upper bound on any answer's tokens when a call does not set its own (bounds cost and reply size). */
  maxTokens?: number
  /** Backoff tuning (not user settings; tests make them small). */
  backoffBaseMs?: number
  backoffMaxMs?: number
  retryAfterMaxMs?: number
  /** Sampling temperature for structured calls (default 0.2). */
  temperature?: number
  /** Circuit breaker: failed calls in a row that open it (default 2) and how long it stays open (0 = never opens). */
  breakerFailures?: number
  breakerOpenMs?: number
}

/** Settings from the parsed config, or null when no model is configured (the bot then works offline). */
export function llmSettingsFromConfig(config: Config): LlmSettings | null {
  if (!config.GHOST_MODEL) return null
  return {
    baseUrl: config.OPENAI_BASE_URL,
    apiKey: config.OPENAI_API_KEY,
    model: config.GHOST_MODEL,
    embedModel: config.GHOST_EMBED_MODEL,
    timeoutMs: config.GHOST_LLM_TIMEOUT_MS,
    maxRetries: config.GHOST_LLM_MAX_RETRIES,
    playerTokenBudget: config.GHOST_PLAYER_TOKEN_BUDGET,
    maxTokens: config.GHOST_LLM_MAX_TOKENS,
    breakerOpenMs: config.GHOST_LLM_COOLDOWN_MS,
  }
}

/** A rendered prompt: instructions (system) and data (user). `name` labels logs and errors. */
export interface Prompt {
  name: string
  system: string
  user: string
}

export interface CompleteMeta extends UsageMeta {
  signal?: AbortSignal
  /** Upper bound on the answer's tokens. */
  maxTokens?: number
}

export interface Llm {
  readonly model: string
  readonly usage: UsageLedger
  /** Ask for one JSON value validated by `schema`. Throws LlmBudgetError, LlmError or LlmInvalidError. */
  complete<S extends z.ZodType>(schema: S, prompt: Prompt, meta: CompleteMeta): Promise<z.output<S>>
  /** Whether the circuit breaker is open (calls fail at once) and for how long. */
  breaker(): BreakerState
  /** Internal plumbing shared with the embedder (same SDK client, retry policy and ledger). */
  readonly sdk: OpenAI
  readonly retryPolicy: RetryPolicy
  readonly settings: LlmSettings
}

type Mode = 'json_schema' | 'text'
type Message = { role: 'system' | 'user' | 'assistant'; content: string }

export function createLlm(settings: LlmSettings, deps: { usage?: UsageLedger } = {}): Llm {
  const sdk = new OpenAI({
    apiKey: settings.apiKey ?? DUMMY_API_KEY,
    baseURL: settings.baseUrl ?? null,
    maxRetries: 0,
    timeout: settings.timeoutMs,
  })
  const usage = deps.usage ?? new UsageLedger(settings.playerTokenBudget)
  const retryPolicy: RetryPolicy = {
    maxRetries: settings.maxRetries,
    backoffBaseMs: settings.backoffBaseMs ?? 500,
    backoffMaxMs: settings.backoffMaxMs ?? 8_000,
    retryAfterMaxMs: settings.retryAfterMaxMs ?? 60_000,
  }
  /** Learned once per client: the server rejected response_format, so describe the schema in text instead. */
  let mode: Mode = 'json_schema'
  /** Learned once per client: the model rejects a temperature (some reasoning models accept only the default). */
  let sendTemperature = true
  /** Learned once per client: the model wants `max_completion_tokens` instead of `max_tokens` (reasoning models). */
  let tokenParam: 'max_tokens' | 'max_completion_tokens' = 'max_tokens'
  const breaker = new Breaker(settings.breakerFailures ?? 2, settings.breakerOpenMs ?? 60_000)

  async function chat(
    messages: Message[],
    fmt: SchemaFormat,
    schemaName: string,
    meta: CompleteMeta,
    what: string,
  ): Promise<string> {
    return withRetry(
      what,
      retryPolicy,
      async () => {
        usage.check(meta.player)
        const useMode = mode
        const body = {
          model: settings.model,
          messages: useMode === 'text' ? withSchemaText(messages, fmt) : messages,
          ...(sendTemperature ? { temperature: settings.temperature ?? 0.2 } : {}),
          [tokenParam]: meta.maxTokens ?? settings.maxTokens ?? DEFAULT_MAX_TOKENS,
          ...(useMode === 'json_schema'
            ? {
                response_format: {
                  type: 'json_schema' as const,
                  json_schema: { name: schemaName, schema: fmt.schema, strict: fmt.strict },
                },
              }
            : {}),
        }
        let res: OpenAI.Chat.Completions.ChatCompletion
        try {
          res = await sdk.chat.completions.create(body, meta.signal ? { signal: meta.signal } : {})
        } catch (err) {
          if (
            useMode === 'json_schema' &&
            err instanceof BadRequestError &&
            /response_format|json_schema|schema|grammar/i.test(err.message)
          ) {
            log.warn('server rejected response_format; falling back to JSON in text', { model: settings.model })
            mode = 'text'
            return chat(messages, fmt, schemaName, meta, what)
          }
          if (tokenParam === 'max_tokens' && err instanceof BadRequestError && /max_tokens/i.test(err.message)) {
            log.warn('model rejected max_tokens; using max_completion_tokens', { model: settings.model })
            tokenParam = 'max_completion_tokens'
            return chat(messages, fmt, schemaName, meta, what)
          }
          if (sendTemperature && err instanceof BadRequestError && /temperature/i.test(err.message)) {
            log.warn('model rejected temperature; using its default', { model: settings.model })
            sendTemperature = false
            return chat(messages, fmt, schemaName, meta, what)
          }
          throw err
        }
        const content = res.choices[0]?.message?.content ?? ''
        const refusal = (res.choices[0]?.message as { refusal?: string | null } | undefined)?.refusal
        const promptTokens = res.usage?.prompt_tokens ?? estimateTokens(body.messages.map((m) => m.content).join('\n'))
        const completionTokens = res.usage?.completion_tokens ?? estimateTokens(content)
        usage.record(meta, { promptTokens, completionTokens })
        if (refusal) throw new LlmInvalidError(what, `the model refused: ${refusal}`, refusal)
        return content
      },
      meta.signal,
    )
  }

  async function complete<S extends z.ZodType>(schema: S, prompt: Prompt, meta: CompleteMeta): Promise<z.output<S>> {
    usage.check(meta.player)
    const blockedMs = breaker.blockedForMs()
    if (blockedMs > 0)
      throw new LlmError(
        'unavailable',
        `llm ${prompt.name}: breaker open for ${blockedMs} ms more after repeated failures`,
        { attempts: 0 },
      )
    try {
      const out = await completeOnce(schema, prompt, meta)
      breaker.success()
      return out
    } catch (err) {
      if (err instanceof LlmInvalidError)
        breaker.success() // the server answered
      else if (err instanceof LlmError && breaker.failure(err.kind)) {
        log.warn('model server failing; planning offline for a while', {
          kind: err.kind,
          openMs: settings.breakerOpenMs ?? 60_000,
        })
      }
      throw err
    }
  }

  async function completeOnce<S extends z.ZodType>(
    schema: S,
    prompt: Prompt,
    meta: CompleteMeta,
  ): Promise<z.output<S>> {
    const fmt = schemaFormat(schema)
    const schemaName = prompt.name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'answer'
    const what = `llm ${prompt.name}`
    const messages: Message[] = [
      { role: 'system', content: prompt.system },
      { role: 'user', content: prompt.user },
    ]
    let raw = await chat(messages, fmt, schemaName, meta, what)
    let checked = check(schema, fmt, raw)
    if (checked.ok) return checked.data
    log.info('invalid answer; asking for a repair', { prompt: prompt.name, issues: checked.issues })
    messages.push(
      { role: 'assistant', content: raw.slice(0, 8000) },
      { role: 'user', content: repairMessage(checked.issues, fmt) },
    )
    raw = await chat(messages, fmt, schemaName, meta, `${what} (repair)`)
    checked = check(schema, fmt, raw)
    if (checked.ok) return checked.data
    throw new LlmInvalidError(what, checked.issues, raw)
  }

  return { model: settings.model, usage, complete, breaker: () => breaker.state(), sdk, retryPolicy, settings }
}

function check<S extends z.ZodType>(
  schema: S,
  fmt: SchemaFormat,
  raw: string,
): { ok: true; data: z.output<S> } | { ok: false; issues: string } {
  const value = extractJson(raw)
  if (value === undefined)
    return { ok: false, issues: raw.trim() === '' ? 'the reply was empty' : 'the reply was not valid JSON' }
  return validateAnswer(schema, value, fmt.wrapped)
}

function schemaText(fmt: SchemaFormat): string {
  return `Reply with exactly one JSON object and nothing else (no prose, no code fences). It must match this JSON schema:\n${JSON.stringify(fmt.schema)}`
}

function withSchemaText(messages: Message[], fmt: SchemaFormat): Message[] {
  const [first, ...rest] = messages
  if (first?.role !== 'system') return messages
  return [{ role: 'system', content: `${first.content}\n\n${schemaText(fmt)}` }, ...rest]
}

function repairMessage(issues: string, fmt: SchemaFormat): string {
  return `Your previous reply could not be used: ${issues}.\nSend the corrected answer. ${schemaText(fmt)}`
}

/** Re-exported for callers that want to switch on failures without importing errors.ts. */
export { LlmError }
