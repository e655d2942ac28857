/**
 * The one retry policy for model calls (the SDK's own retries are disabled): retry 408/409/429/5xx, timeouts and
 * connection errors with exponential backoff and jitter, honouring `retry-after-ms` / `retry-after`, at most
 * `maxRetries` times; everything else fails at once. Failures surface as `LlmError` with a `kind` and the number of
 * attempts. Caller aborts stop waiting immediately and surface as AbortedError (code 'aborted').
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai'
import { sleep } from '../util/async.js'
import { AbortedError, GhostError, isAbort } from '../util/errors.js'
import { LlmError, type LlmFailureKind } from './errors.js'
import { logger } from '../util/log.js'

const log = logger('llm.retry')

export interface RetryPolicy {
  maxRetries: number
  /** First backoff delay; doubled each retry. */
  backoffBaseMs: number
  backoffMaxMs: number
  /** Upper bound on a server's retry-after we are willing to wait. */
  retryAfterMaxMs: number
}

export interface Classified {
  kind: LlmFailureKind | 'aborted'
  retryable: boolean
  status?: number
  retryAfterMs?: number
}

export function classify(err: unknown): Classified {
  if (err instanceof APIConnectionTimeoutError) return { kind: 'timeout', retryable: true }
  if (err instanceof APIUserAbortError || isAbort(err)) return { kind: 'aborted', retryable: false }
  if (err instanceof APIConnectionError) return { kind: 'connection', retryable: true }
  if (err instanceof APIError && typeof err.status === 'number') {
    const status = err.status
    const retryAfterMs = retryAfter(err.headers)
    const base = retryAfterMs === undefined ? { status } : { status, retryAfterMs }
    if (status === 429) return { kind: 'rate_limit', retryable: true, ...base }
    if (status === 408 || status === 409) return { kind: 'timeout', retryable: true, ...base }
    if (status >= 500) return { kind: 'server', retryable: true, ...base }
    if (status === 401 || status === 403) return { kind: 'auth', retryable: false, status }
    if (status === 400 || status === 404 || status === 422) return { kind: 'bad_request', retryable: false, status }
    return { kind: 'other', retryable: false, status }
  }
  return { kind: 'other', retryable: false }
}

/** Parse `retry-after-ms` (milliseconds) or `retry-after` (seconds or an HTTP date). */
export function retryAfter(headers: Headers | undefined): number | undefined {
  if (!headers) return undefined
  const ms = headers.get('retry-after-ms')
  if (ms !== null && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms)
  const ra = headers.get('retry-after')
  if (ra === null || ra.trim() === '') return undefined
  const secs = Number(ra)
  if (Number.isFinite(secs) && secs >= 0) return Math.round(secs * 1000)
  const at = Date.parse(ra)
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now())
}

export function backoffMs(retry: number, policy: RetryPolicy): number {
  const capped = Math.min(policy.backoffBaseMs * 2 ** retry, policy.backoffMaxMs)
  return Math.round(capped * (0.8 + Math.random() * 0.4))
}

/** Run `fn` under the retry policy. `what` names the call in errors and logs. */
export async function withRetry<T>(
  what: string,
  policy: RetryPolicy,
  fn: (attempt: number) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt)
    } catch (err) {
      if (err instanceof GhostError) throw err // ours (budget, invalid, an inner LlmError): already final
      const c = signal?.aborted ? { kind: 'aborted' as const, retryable: false } : classify(err)
      const attempts = attempt + 1
      if (c.kind === 'aborted') throw new AbortedError(what)
      if (!c.retryable || attempt >= policy.maxRetries) {
        const msg = `${what} failed after ${attempts} attempt(s): ${c.kind}${c.status ? ` (HTTP ${c.status})` : ''}: ${(err as Error).message}`
        throw new LlmError(c.kind, msg, {
          attempts,
          ...(c.status !== undefined ? { status: c.status } : {}),
          cause: err,
        })
      }
      const delayMs =
        c.retryAfterMs !== undefined ? Math.min(c.retryAfterMs, policy.retryAfterMaxMs) : backoffMs(attempt, policy)
      log.info('retrying', { what, kind: c.kind, status: c.status, attempt: attempts, delayMs })
      await sleep(delayMs, signal) // throws AbortedError when the caller aborts
    }
  }
}
