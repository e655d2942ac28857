/**
 * LLM errors: the small typed hierarchy for everything that can go wrong talking to a model (after openai-agents-js'
 * AgentsError / ModelBehaviorError split). `LlmError` (code 'llm') is a transport or server failure after our retry
 * policy gave up; `LlmBudgetError` (code 'llm_budget') is raised *before* a call when a player's token budget is used
 * up; a caller's abort is the shared `AbortedError` (code 'aborted'); `LlmInvalidError` (code 'llm_invalid') means the model answered but its answer did not validate even after one
 * repair round. User messages never contain secrets, URLs or model output.
 */
import { GhostError } from '../util/errors.js'

/** Why a transport-level call failed; callers may switch on it (e.g. to say "the model server is down"). */
export type LlmFailureKind =
  | 'timeout'
  | 'rate_limit'
  | 'server'
  | 'connection'
  | 'auth'
  | 'bad_request'
  | 'unavailable'
  | 'other'

export class LlmError extends GhostError {
  readonly kind: LlmFailureKind
  /** How many HTTP attempts were made before giving up. */
  readonly attempts: number
  readonly status: number | undefined
  constructor(kind: LlmFailureKind, message: string, opts: { attempts: number; status?: number; cause?: unknown }) {
    super('llm', message, userMessageFor(kind), { cause: opts.cause })
    this.name = 'LlmError'
    this.kind = kind
    this.attempts = opts.attempts
    this.status = opts.status
  }
}

export class LlmBudgetError extends GhostError {
  readonly player: string
  readonly used: number
  readonly budget: number
  constructor(player: string, used: number, budget: number) {
    super(
      'llm_budget',
      `player ${player} used ${used} of ${budget} LLM tokens`,
      'you have used up your share of my thinking for now; simple requests still work offline',
    )
    this.name = 'LlmBudgetError'
    this.player = player
    this.used = used
    this.budget = budget
  }
}

export class LlmInvalidError extends GhostError {
  /** The validation problems of the last answer (for logs; not shown to players). */
  readonly issues: string
  /** The raw text of the last answer, truncated (for logs). */
  readonly raw: string
  constructor(what: string, issues: string, raw: string) {
    super(
      'llm_invalid',
      `${what}: model answer did not validate after repair: ${issues}`,
      'the language model gave me an answer I could not use; try rephrasing',
    )
    this.name = 'LlmInvalidError'
    this.issues = issues
    this.raw = raw.slice(0, 2000)
  }
}

function userMessageFor(kind: LlmFailureKind): string {
  switch (kind) {
    case 'timeout':
      return 'the language model took too long to answer'
    case 'rate_limit':
      return 'the language model is rate-limiting me; try again in a minute'
    case 'server':
    case 'connection':
      return 'I could not reach the language model server'
    case 'unavailable':
      return 'the language model server stopped answering, so I am planning offline for a while'
    case 'auth':
      return 'the language model rejected my credentials; the owner should check the API key'
    default:
      return 'the language model request failed'
  }
}
