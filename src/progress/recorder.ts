/**
 * Per-bot recorder of progress traces: the registry stores the trace of every tracked action here, so the failure
 * analyser can fetch `lastTrace(bot)` after a failure without holding on to the action's context. Keyed weakly by the
 * bot object (any object works; no mineflayer import).
 */
import type { ProgressEntry } from './signal.js'

export interface RecordedTrace {
  action: string
  ok: boolean
  reason: string | null
  entries: ProgressEntry[]
  at: number
}

const traces = new WeakMap<object, RecordedTrace>()

export function recordTrace(owner: object, trace: RecordedTrace): void {
  traces.set(owner, trace)
}

/** The trace of the last tracked action this owner (bot) ran, or null. */
export function lastTrace(owner: object): RecordedTrace | null {
  return traces.get(owner) ?? null
}
