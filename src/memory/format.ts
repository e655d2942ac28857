/**
 * Plain-text rendering of memory for people: one-line actions and plans, stats, goal lists and goal details. Shared
 * by the `memory` CLI and the `memory` chat command so both say the same thing; callers split lines for chat.
 */
import { type Action, describeSearch } from '../schemas/action.js'
import type { GoalSummary, MemoryStats, StoredPlan } from '../schemas/memory.js'
import type { GoalDetail } from './store.js'

export function formatAction(a: Action): string {
  switch (a.type) {
    case 'dig_down':
      return `dig_down to y=${a.ylevel}${a.tool ? ` (${a.tool})` : ''}`
    case 'go_up':
      return `go_up${a.tool ? ` (${a.tool})` : ''}`
    case 'hide':
      return 'hide until morning'
    case 'build':
      return `build ${a.blueprint}`
    case 'mine':
    case 'craft':
    case 'smelt': {
      const tool = a.type === 'smelt' ? ` (fuel ${a.fuel})` : a.tool ? ` (${a.tool})` : ''
      return `${a.type} ${a.count} ${a.object}${tool}`
    }
    case 'explore':
      return `explore ${a.strategy} for ${describeSearch(a)}`
    case 'attack':
      return `attack ${a.object}${a.tool ? ` (${a.tool})` : ''}`
    case 'apply':
      return `apply ${a.tool} to ${a.object}`
    case 'goto':
      return `goto ${a.x} ${a.y} ${a.z}`
    case 'deposit':
    case 'withdraw':
      return `${a.type} ${a.items.map((i) => `${i.count ?? 'all'} ${i.object}`).join(', ') || 'all but tools'}`
    case 'guard':
      return `guard ${a.player}`
    default:
      return `${a.type} ${a.object}`
  }
}

export function formatPlan(actions: Action[]): string {
  return actions.map(formatAction).join(' → ')
}

function kb(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} kB`
}

function when(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 16)
}

export function formatStats(s: MemoryStats): string {
  return [
    `memory ${s.path} (schema ${s.schemaVersion}, ${kb(s.fileBytes)})`,
    `plans: ${s.plans} (${s.successes} succeeded, ${s.failures} failed) for ${s.goals} goals; ${s.references} reference plans`,
    `lessons: ${s.lessons}; knowledge chunks: ${s.knowledge}; players: ${s.players}; bots: ${s.bots}`,
    `vectors: ${s.embedModel ?? 'none yet'}${s.embedDim ? ` (${s.embedDim} dims)` : ''}`,
  ].join('\n')
}

export function formatList(goals: GoalSummary[]): string {
  if (goals.length === 0) return 'memory is empty'
  return goals
    .map(
      (g) =>
        `${g.goalKey}: ${g.successes}/${g.plans} succeeded${g.hasReference ? ', has reference plan' : ''}, last ${when(g.lastAt)}`,
    )
    .join('\n')
}

function formatStoredPlan(p: StoredPlan): string {
  const who = [p.player && `for ${p.player}`, p.bot && `by ${p.bot}`].filter(Boolean).join(' ')
  return `#${p.id} ${p.outcome} ${when(p.createdAt)} ${Math.round(p.durationMs / 1000)}s ${p.llmCalls} LLM calls ${who}: ${formatPlan(p.actions)}`
}

export function formatGoalDetail(d: GoalDetail): string {
  const lines = [`goal ${d.goalKey}`]
  if (d.reference)
    lines.push(
      `reference plan (${d.reference.summariser}, from ${d.reference.sourceCount} plans): ${formatPlan(d.reference.actions)}`,
    )
  else lines.push('no reference plan yet (the first successful plan is used)')
  if (d.plans.length > 0) lines.push('recent plans:', ...d.plans.map((p) => `  ${formatStoredPlan(p)}`))
  if (d.lessons.length > 0) {
    lines.push(
      'lessons:',
      ...d.lessons.map(
        (l) =>
          `  ${when(l.createdAt)} ${l.cause}${l.suggestions.length > 0 ? ` — try: ${l.suggestions.join('; ')}` : ''}`,
      ),
    )
  }
  return lines.join('\n')
}
