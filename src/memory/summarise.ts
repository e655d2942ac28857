/**
 * Plan summarisation (GITM's reference plans): when a goal has gathered enough new successful plans, they are
 * merged into one reference plan that keeps the necessary steps and drops the lucky or redundant ones. The
 * summariser is pluggable: the LLM module injects one as a function; `offlineMerge` is the deterministic built-in.
 */
import type { Action } from '../schemas/action.js'

/** Successful plans a summary is made from (GITM's N). */
export const SUMMARY_BATCH = 5

export interface SummaryInput {
  goalKey: string
  goalText: string
  /** The new successful plans, oldest first. */
  plans: Action[][]
  /** The goal's current reference plan, if it has one. */
  previous: Action[] | null
}

export interface Summariser {
  /** Name stored with the reference plan, e.g. `offline-merge` or the LLM model. */
  readonly name: string
  summarise(input: SummaryInput): Promise<Action[]>
}

/** What makes two steps "the same step": action type plus its object (or blueprint / y-level). */
export function stepKey(a: Action): string {
  switch (a.type) {
    case 'build':
      return `build:${a.blueprint}`
    case 'dig_down':
      return `dig_down:${a.ylevel}`
    case 'go_up':
    case 'hide':
      return a.type
    case 'goto':
      return `goto:${a.x},${a.y},${a.z}`
    case 'deposit':
    case 'withdraw':
      return `${a.type}:${a.items
        .map((i) => i.object)
        .sort()
        .join(',')}`
    case 'guard':
      return `guard:${a.player}`
    default:
      return `${a.type}:${a.object}`
  }
}

function keySet(plan: Action[]): Set<string> {
  return new Set(plan.map(stepKey))
}

/**
 * Deterministic merge: among the new plans (and the previous reference), take the shortest one that contains every
 * step common to all new plans; from it drop steps that appear in no more than half of the new plans (lucky ones) and
 * immediate repeats of the same step (redundant ones). Steps common to all plans are never dropped. Ties go to the
 * earlier plan, so the result depends only on the input.
 */
export function mergePlans(plans: Action[][], previous: Action[] | null = null): Action[] {
  if (plans.length === 0) return previous ?? []
  const sets = plans.map(keySet)
  const common = new Set([...sets[0]!].filter((k) => sets.every((s) => s.has(k))))
  const support = new Map<string, number>()
  for (const s of sets) for (const k of s) support.set(k, (support.get(k) ?? 0) + 1)
  const candidates = previous ? [previous, ...plans] : plans
  let best: Action[] | null = null
  for (const c of candidates) {
    const ks = keySet(c)
    if (![...common].every((k) => ks.has(k))) continue
    if (best === null || c.length < best.length) best = c
  }
  // Every new plan contains the common steps, so `best` is always set; keep the fallback for the type checker.
  const base = best ?? plans[0]!
  const out: Action[] = []
  for (const step of base) {
    const k = stepKey(step)
    if (!common.has(k) && (support.get(k) ?? 0) * 2 <= plans.length) continue
    const prev = out[out.length - 1]
    if (prev && JSON.stringify(prev) === JSON.stringify(step)) continue
    out.push(step)
  }
  return out.length > 0 ? out : base
}

/** The built-in offline summariser. */
export const offlineMerge: Summariser = {
  name: 'offline-merge',
  summarise: (input) => Promise.resolve(mergePlans(input.plans, input.previous)),
}

/** Wrap a plain function (e.g. an LLM call from src/llm) as a Summariser. */
export function summariserFrom(name: string, fn: (input: SummaryInput) => Promise<Action[]>): Summariser {
  return { name, summarise: fn }
}
