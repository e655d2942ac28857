/**
 * What commands may use, as narrow interfaces (ports). The composition root (src/app.ts) fills them with the real
 * implementations: the bot's body (src/bot/body.ts), the task queue, and — when present — the agent pipeline,
 * memory, perception and LLM usage. Commands depend on these interfaces only, never on mineflayer or SQLite.
 */
import type { Role, Request } from './request.js'
import type { ProgressSink } from './progress.js'

export interface BodyStatus {
  connected: boolean
  health: number | null
  food: number | null
  position: { x: number; y: number; z: number } | null
  dimension: string | null
}

export interface BodyPort {
  status(): BodyStatus
  inventory(): Array<{ name: string; count: number }>
  /** Path to the named player; resolves with a sentence when within 3 blocks. */
  come(player: string, signal: AbortSignal): Promise<string>
  /** Follow the named player until the signal aborts. */
  follow(player: string, signal: AbortSignal): Promise<string>
}

export interface TaskView { id: string; player: string; command: string; text: string; startedAt: number; progress: string }
export interface QueueView {
  current(): TaskView | null
  pending(): TaskView[]
  /** Abort the running task at once; returns it, or null when idle. */
  stopCurrent(): { id: string } | null
  /** Drop waiting tasks of one player (or everyone); returns how many. */
  clear(player?: string): number
}

export interface AgentRun { request: Request; role: Role; signal: AbortSignal; progress: ProgressSink; taskId: string }
export interface AgentPort {
  /** Carry out a natural-language request end to end; resolves with the final reply. */
  handle(text: string, run: AgentRun): Promise<string>
  /** Pursue one structured goal (the `goal` command), skipping intent parsing. */
  pursue(goal: { object: string; count: number }, run: AgentRun): Promise<string>
  /** One line about LLM usage (calls, tokens) for `status`, or null when offline. */
  usageLine?(): string | null
}

export interface Services {
  body: BodyPort
  queue: QueueView
  agent?: AgentPort
  memory?: MemoryPort
  perception?: PerceptionPort
}

/** What the `memory` command needs from the shared plan memory. */
export interface MemoryPort {
  stats(): string
  list(limit: number): string[]
  show(goalKey: string): string | null
  forget(goalKey: string): Promise<number>
}

/** What the `look`/`where` commands need from the percipient. */
export interface PerceptionPort {
  describe(what: 'look' | 'where'): string
}
