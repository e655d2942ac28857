/**
 * The agent-side gate for plans that enter memory from outside a run (an imported export, a shared memory): every
 * plan and reference plan passes the same critic and safety policy as a plan about to run (`vetStoredPlan`, with the
 * starting inventory unknown); those that fail are left out and listed with the critic's first problems. The memory
 * module itself stays ignorant of the critic (layers point one way).
 */
import type { Knowledge } from '../knowledge/index.js'
import type { Action } from '../schemas/action.js'
import { vetStoredPlan, type CriticOptions } from './critic.js'

export interface Refused {
  goalKey: string
  problems: string[]
}

/** Keep the rows whose actions pass review; rows without an `actions` array are kept for the importer to judge. */
export function vetPlanRows<T>(kb: Knowledge, rows: T[], opts: CriticOptions, refused: Refused[]): T[] {
  return rows.filter((row) => {
    const r = row as { goalKey?: unknown; actions?: unknown }
    if (!Array.isArray(r.actions)) return true
    const c = vetStoredPlan(kb, r.actions as Action[], opts)
    if (!c.ok) refused.push({ goalKey: String(r.goalKey ?? '?'), problems: c.problems.slice(0, 3) })
    return c.ok
  })
}

/** Filter a parsed memory export (`plans` and `references`) before `importMemory`; other parts pass unchanged. */
export function vetMemoryExport(
  kb: Knowledge,
  data: unknown,
  opts: CriticOptions,
): { data: unknown; refused: Refused[] } {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return { data, refused: [] }
  const d = data as Record<string, unknown>
  const refused: Refused[] = []
  const out: Record<string, unknown> = { ...d }
  for (const key of ['plans', 'references'])
    if (Array.isArray(d[key])) out[key] = vetPlanRows(kb, d[key] as unknown[], opts, refused)
  return { data: out, refused }
}
