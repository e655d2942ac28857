/**
 * The plan critic (after Auto MC-Reward's reward critic): before any plan runs it is checked against the game data
 * and the bot's inventory — schema; every item, block and entity name exists for the version (with "did you mean",
 * e.g. `magma` → `magma_block`, and a note that lava is a fluid); the tool can harvest the block; and, simulated
 * along the plan, materials, fuel and stations are there when each step needs them, and the safety policy allows
 * each step — the requirements, effects and policy all come from the rule book (src/rules/). It returns critiques in
 * plain sentences, which go back to the planner (at most 3 rounds, see executor.ts).
 */
import { z } from 'zod'
import type { Knowledge } from '../knowledge/index.js'
import { changes, checkAll, planView, policy, ruleContext, type PlacedView, type RuleWorld } from '../rules/index.js'
import type { Box, Pos } from '../schemas/region.js'
import { Action, Plan } from '../schemas/action.js'
import { didYouMean } from '../util/text.js'

export interface Critique {
  ok: boolean
  problems: string[]
}

/** What the safety policy knows at plan time: protected boxes, players online, where the bot stands. */
export interface PlanPolicy {
  protected: readonly Box[]
  players?: readonly string[]
  position?: Pos | null
  /** Blocks the bot saw players place (issue 20): a plan never digs them. */
  playerPlaced?: PlacedView | null
}

/** Blueprints are shipped data; the critic only needs their names. */
export interface CriticOptions {
  blueprints: string[]
  policy?: PlanPolicy | null
  /** Stations (crafting table, furnace) standing within reach now: they serve the plan like placed ones. */
  stationsNear?: readonly string[]
}

type Inv = Map<string, number>

/** `likely`: names that fit the step (e.g. smelting outputs), suggested before plain look-alikes ("iron" → iron_ingot). */
function nameProblem(kb: Knowledge, name: string, want: Want, likely: string[] = []): string | null {
  const r = kb.resolveName(name)
  if (!r.ok) {
    const suggestions = [...new Set([...didYouMean(name, likely, 2), ...r.suggestions])]
    const hint =
      suggestions.length > 0
        ? ` Did you mean ${suggestions
            .slice(0, 3)
            .map((s) => `"${s}"`)
            .join(' or ')}?`
        : ''
    return `"${name}" is not ${want === 'any' ? 'a known name' : want === 'item' || want === 'entity' ? `an ${want}` : 'a block'} in Minecraft ${kb.version}.${hint}`
  }
  if (r.name !== name) return `Use the game name "${r.name}" instead of "${name}".`
  if (want === 'entity' && !kb.isEntity(name)) return `"${name}" is not an entity; attack needs a mob name.`
  if (want === 'block' && !kb.isBlock(name)) {
    const from = kb
      .whereFound(name)
      .filter((w) => w.kind === 'mine')
      .map((w) => w.from)
    return from.length > 0 ? null : `"${name}" is not a block that can be mined.`
  }
  if (want === 'item' && !kb.isItem(name)) return `"${name}" is not an item.`
  return null
}

type Want = 'item' | 'block' | 'entity' | 'any'

/** The names a step uses and what each must be (the critic's own check; the rule book judges the rest). */
function namesOf(kb: Knowledge, a: Action): Array<[string, Want, string[]?]> {
  const out: Array<[string, Want, string[]?]> = []
  const tool = 'tool' in a ? a.tool : null
  if (tool && a.type !== 'craft') out.push([tool, 'item'])
  switch (a.type) {
    case 'equip':
    case 'place':
    case 'give':
      out.push([a.object, 'item'])
      break
    case 'explore':
      out.push(
        [a.object, 'any'],
        ...[a.near, a.biome].filter((n): n is string => !!n).map((n): [string, Want] => [n, 'any']),
      )
      break
    case 'approach':
    case 'apply':
      out.push([a.object, 'any'])
      break
    case 'mine':
      out.push([a.object, 'block'])
      break
    case 'attack':
      out.push([a.object, 'entity'])
      break
    case 'craft':
      out.push([a.object, 'item'], ...Object.keys(a.materials).map((m): [string, Want] => [m, 'item']))
      break
    case 'smelt':
      out.push(
        [a.object, 'item', kb.data.smelting.map((r) => r.output)],
        [a.fuel, 'item', kb.data.fuels.map((f) => f.item)],
      )
      out.push(...Object.keys(a.materials).map((m): [string, Want] => [m, 'item']))
      break
    default:
      break
  }
  return out
}

/**
 * `inventory`: what the bot holds when the plan starts, or `'unknown'` for a plan judged away from any bot (a stored,
 * imported or summarised reference plan): then amounts are not judged, but names, recipes, harvest tools, blueprints
 * and the safety policy are.
 */
export function critiquePlan(
  kb: Knowledge,
  rawPlan: unknown,
  inventory: Record<string, number> | 'unknown',
  opts: CriticOptions,
): Critique {
  const parsed = Plan.safeParse(rawPlan)
  if (!parsed.success)
    return {
      ok: false,
      problems: [
        `The plan does not match the schema: ${z.prettifyError(parsed.error).split('\n').slice(0, 3).join('; ')}`,
      ],
    }
  const problems: string[] = []
  const ctx = ruleContext(kb, opts.blueprints)
  const unknownStart = inventory === 'unknown'
  const inv: Inv = new Map(unknownStart ? [] : Object.entries(inventory))
  /** Items a step may produce whose amount the data cannot predict (mob drops): later needs are not flagged. */
  const uncertain = new Set<string>()
  /** Blocks placed earlier in the plan: a placed table or furnace serves later steps from nearby. */
  const placed = new Set<string>()
  const near = new Set(opts.stationsNear ?? [])
  const count = (n: string): number => inv.get(n) ?? 0
  const world: RuleWorld = {
    count,
    uncertain: (i) => unknownStart || uncertain.has(i),
    placed: (n) => placed.has(n) || near.has(n),
  }
  const p = opts.policy
  const view = planView(p?.protected ?? [], p?.players ?? [], p?.position ?? null, placed, p?.playerPlaced ?? null)
  parsed.data.actions.forEach((a, i) => {
    const step = `Step ${i + 1} (${a.type}):`
    const named = namesOf(kb, a)
      .map(([n, want, likely]) => nameProblem(kb, n, want, likely))
      .filter((p): p is string => p !== null)
    for (const p of named) problems.push(`${step} ${p}`)
    if (named.length > 0) return
    const unmet = checkAll(a, ctx, world)
    for (const v of unmet) problems.push(`${step} ${v.message}`)
    const unsafe = policy(a, view, ctx)
    if (unsafe) problems.push(`${step} ${unsafe}`)
    if (unmet.some((v) => v.need.kind === 'valid')) return
    const c = changes(a, ctx)
    for (const [item, k] of Object.entries(c.inventory)) inv.set(item, count(item) + k)
    for (const [item, k] of Object.entries(c.atLeast ?? {})) inv.set(item, Math.max(count(item), k))
    for (const item of c.uncertain ?? []) uncertain.add(item)
    for (const b of c.placed ?? []) placed.add(b)
  })
  return { ok: problems.length === 0, problems }
}

/**
 * The gate for plans stored away from a run — LLM-summarised reference plans, imported memories, shared plans: the
 * same critic and safety policy, with the starting inventory unknown. A stored plan runs later, elsewhere: what the
 * bot stands next to now (its position, the player-placed blocks it sees) does not judge it; each run is judged
 * again where it happens. Returns the critique; store only when ok.
 */
export function vetStoredPlan(kb: Knowledge, actions: Action[], opts: CriticOptions): Critique {
  const p = opts.policy
  const policy = p ? { protected: p.protected, ...(p.players ? { players: p.players } : {}) } : null
  return critiquePlan(kb, { explanation: '', thoughts: 'stored plan', actions }, 'unknown', { ...opts, policy })
}

/** Validate one action alone (used for ws/Discord "run this action" requests and tests). */
export function isAction(x: unknown): x is Action {
  return Action.safeParse(x).success
}
