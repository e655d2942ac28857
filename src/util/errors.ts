/**
 * The small typed error hierarchy (after openai-agents-js): every error we raise on purpose is a GhostError with a
 * fixed `code` a caller can switch on, and a `userMessage` that is safe to show a player (no secrets, no stack).
 */
export type ErrorCode =
  | 'config'
  | 'permission'
  | 'bad_input'
  | 'not_found'
  | 'timeout'
  | 'aborted'
  | 'busy'
  | 'llm'
  | 'llm_budget'
  | 'llm_invalid'
  | 'memory'
  | 'world'
  | 'internal'

export class GhostError extends Error {
  readonly code: ErrorCode
  readonly userMessage: string
  constructor(code: ErrorCode, message: string, userMessage?: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'GhostError'
    this.code = code
    this.userMessage = userMessage ?? message
  }
}

export class TimeoutError extends GhostError {
  constructor(what: string, ms: number) {
    super('timeout', `${what} timed out after ${ms} ms`)
    this.name = 'TimeoutError'
  }
}

export class AbortedError extends GhostError {
  constructor(what = 'task') {
    super('aborted', `${what} was stopped`)
    this.name = 'AbortedError'
  }
}

export function isAbort(err: unknown): boolean {
  return err instanceof AbortedError || (err instanceof Error && err.name === 'AbortError')
}

/** Text safe to show a user for any thrown value. */
export function userMessageOf(err: unknown): string {
  if (err instanceof GhostError) return err.userMessage
  return 'something went wrong on my side; the error is in the log'
}
