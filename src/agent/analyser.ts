/**
 * The failure analyser: when a goal stops progressing, look at the last 32 steps (action, result with its fixed
 * FailureReason, state after) plus nearby blocks and progress signals, and say what went wrong: `{ cause,
 * suggestions[1..2] }`. Offline it is a table per FailureReason refined by simple patterns (repeats, low health, a
 * pickaxe too weak for an ore, missing materials, stalled progress); harvest tools and ore y-levels come from the
 * knowledge (data/knowledge/world.json), never from a table of its own. With an LLM it sends the evidence and the
 * offline guess through prompts/analyser.md and falls back to the offline answer on any model error.
 */
import { z } from 'zod'
import type { Action, BotState, FailureReason, Feedback } from '../schemas/action.js'
import type { Goal } from '../schemas/goal.js'
import { goalKey } from '../schemas/goal.js'
import { digLevel, type Knowledge } from '../knowledge/index.js'
import type { Llm } from '../llm/client.js'
import { loadPrompt, PROMPT_SLOTS, quoteData } from '../llm/prompts.js'
import { GhostError } from '../util/errors.js'

export const Analysis = z.object({
  cause: z.string().min(1).max(400),
  suggestions: z.array(z.string().min(1).max(300)).min(1).max(2),
})
export type Analysis = z.infer<typeof Analysis>

export const MAX_STEPS = 32

export interface Progress {
  /** How many of the goal object the bot had when the goal started, and has now. */
  startCount: number
  currentCount: number
  /** Steps since the goal count last went up. */
  stepsSinceProgress: number
}

export interface AnalyserInput {
  goal: Goal
  steps: Feedback[]
  state: BotState
  nearbyBlocks: string[]
  progress: Progress
}

/** `kb`: harvest tools and best y-levels come from the knowledge (data/knowledge/world.json); null: generic advice. */
type Ctx = { act: Action; obj: string; msg: string; input: AnalyserInput; kb: Knowledge | null }
type Rule = (c: Ctx) => Analysis

const objOf = (a: Action): string =>
  'object' in a ? a.object : a.type === 'build' ? a.blueprint : a.type === 'dig_down' ? `y=${a.ylevel}` : 'the surface'

/**
 * The y-level to dig down to for an underground block (or its deepslate variant): where it is most common, kept above
 * the lava-filled caves (the knowledge's digLevel, as the decomposer and the ore search do).
 */
function bestY(kb: Knowledge | null, block: string): number | undefined {
  if (!kb) return undefined
  const blocks = kb.data.world.blocks
  const place = blocks[block] ?? Object.values(blocks).find((p) => p.also?.includes(block))
  if (place?.where !== 'underground' || place.bestY === undefined) return undefined
  return digLevel(place.bestY, place.yMax ?? null, kb.data.world.lavaLevel)
}

/** The weakest tool that harvests `block` when the inventory holds none of them, from the knowledge. */
function toolLacking(kb: Knowledge | null, block: string, inv: Record<string, number>): string | null {
  if (!kb?.isBlock(block)) return null
  const tools = kb.harvestTools(block)
  return tools.length > 0 && !tools.some((t) => (inv[t] ?? 0) > 0) ? tools[0]! : null
}

const TABLE: Record<FailureReason, Rule> = {
  not_found: ({ obj, kb }) => {
    const y = bestY(kb, obj)
    return y !== undefined
      ? {
          cause: `no ${obj} was found nearby`,
          suggestions: [
            `dig_down to about y=${y} and explore underground for ${obj}`,
            `explore a different area underground for ${obj}`,
          ],
        }
      : {
          cause: `no ${obj} was found nearby`,
          suggestions: [`explore further on the surface for ${obj}`, `try a different biome where ${obj} is common`],
        }
  },
  no_path: ({ obj }) => ({
    cause: `the bot could not find a path to ${obj}`,
    suggestions: [
      `pick another ${obj} that is easier to reach`,
      'clear the way (mine blocks in between) or build a pillar to get over obstacles',
    ],
  }),
  missing_tool: ({ obj, input, kb }) => {
    const need = toolLacking(kb, obj, input.state.inventory)
    if (need)
      return {
        cause: `${obj} needs at least a ${need} and the bot has none`,
        suggestions: [`craft a ${need} before mining ${obj}`],
      }
    return {
      cause: `a required tool for ${obj} was missing`,
      suggestions: [`craft or equip the right tool for ${obj} first`],
    }
  },
  missing_materials: ({ act, obj, input }) => {
    const need = 'materials' in act ? act.materials : {}
    const missing = Object.entries(need)
      .filter(([k, n]) => (input.state.inventory[k] ?? 0) < n)
      .map(([k, n]) => `${n - (input.state.inventory[k] ?? 0)} ${k}`)
    return missing.length
      ? {
          cause: `not enough materials for ${obj}: missing ${missing.join(', ')}`,
          suggestions: [`gather ${missing.join(', ')} before crafting ${obj}`],
        }
      : {
          cause: `materials for ${obj} were missing`,
          suggestions: [`check the recipe of ${obj} and gather its materials first`],
        }
  },
  no_space: () => ({
    cause: 'the inventory was full or there was no room to place a block',
    suggestions: [
      'store or drop low-value blocks (dirt, cobblestone, gravel) to free inventory slots',
      'move to an open area before placing',
    ],
  }),
  timeout: ({ act, obj }) => ({
    cause: `${act.type} ${obj} took too long`,
    suggestions: [`approach ${obj} first, then retry with a smaller count`, 'explore a closer area'],
  }),
  interrupted: ({ act, obj }) => ({
    cause: `${act.type} ${obj} was interrupted`,
    suggestions: [`retry ${act.type} ${obj}`],
  }),
  died: () => ({
    cause: 'the bot died',
    suggestions: [
      'craft a sword and eat to full health before retrying',
      'avoid lava and hostile mobs: work in daylight and light up caves',
    ],
  }),
  unsafe: ({ input }) =>
    input.state.food < 10 || input.state.health < 10
      ? {
          cause: `the bot stopped because it was in danger (health ${input.state.health}, food ${input.state.food})`,
          suggestions: ['eat food to restore health before continuing', 'retreat to a safe spot and wait for daylight'],
        }
      : {
          cause: 'the bot stopped because of danger nearby (lava, falls or hostile mobs)',
          suggestions: ['go_up to the surface or move away from the danger', 'wait for daylight before continuing'],
        },
  stalled: ({ obj }) => ({
    cause: `the bot stopped making progress on ${obj}`,
    suggestions: [`change the approach: explore a different area for ${obj}`],
  }),
  unverified: ({ act, obj }) => ({
    cause: `the effect of ${act.type} ${obj} could not be confirmed`,
    suggestions: ['check the inventory and retry the step once'],
  }),
  invalid: ({ act, obj, msg }) => ({
    cause: `${act.type} ${obj} was not a valid action${msg ? `: ${msg}` : ''}`,
    suggestions: ['use exact item ids and a valid recipe for the game version'],
  }),
  error: ({ act, obj, msg }) => ({
    cause: `${act.type} ${obj} failed with an internal error${msg ? `: ${msg}` : ''}`,
    suggestions: ['retry once; if it fails again, try a different action'],
  }),
}

const sameAction = (a: Action, b: Action): boolean => a.type === b.type && objOf(a) === objOf(b)
const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s)

/** Offline analysis from the fixed failure reasons. */
export function analyseOffline(input: AnalyserInput, kb: Knowledge | null = null): Analysis {
  const steps = input.steps.slice(-MAX_STEPS)
  const fails = steps.filter((s) => !s.result.ok)
  const last = fails[fails.length - 1]
  const obj = input.goal.object
  let out: Analysis
  if (!last) {
    out =
      input.progress.stepsSinceProgress > 0
        ? {
            cause: `the last ${input.progress.stepsSinceProgress} steps succeeded but ${obj} did not increase (${input.progress.currentCount} of ${input.goal.count})`,
            suggestions: [
              `plan actions that produce ${obj} directly`,
              'check the recipe and where the item comes from',
            ],
          }
        : { cause: 'no failure was recorded', suggestions: ['continue with the current plan'] }
  } else {
    const reason = last.result.reason ?? 'error'
    out = TABLE[reason]({ act: last.action, obj: objOf(last.action), msg: clip(last.result.message, 120), input, kb })
    const repeats = fails.filter((s) => sameAction(s.action, last.action)).length
    if (repeats >= 3) {
      out = {
        cause: `${out.cause} (failed ${repeats} times in a row)`,
        suggestions: [out.suggestions[0]!, `stop repeating ${last.action.type} ${objOf(last.action)}; change the plan`],
      }
    }
  }
  if (input.state.health <= 6 && !/health/.test(out.cause)) {
    out = {
      cause: `${out.cause}; health is low (${input.state.health})`,
      suggestions: [out.suggestions[0]!, 'eat food and avoid fights until health recovers'],
    }
  }
  return Analysis.parse({
    cause: clip(out.cause, 400),
    suggestions: out.suggestions.slice(0, 2).map((s) => clip(s, 300)),
  })
}

export interface AnalyserMeta {
  player: string | null
  requestId?: string
  signal?: AbortSignal
}
export interface Analyser {
  analyse(
    input: AnalyserInput,
    meta: AnalyserMeta,
  ): Promise<{ analysis: Analysis; via: 'offline' | 'llm' | 'offline-fallback' }>
}

export function createAnalyser(opts: { llm?: Llm | null; promptsDir?: string; kb?: Knowledge | null } = {}): Analyser {
  const llm = opts.llm ?? null
  const kb = opts.kb ?? null
  const template = llm
    ? loadPrompt('analyser', PROMPT_SLOTS.analyser, ...(opts.promptsDir ? [opts.promptsDir] : []))
    : null
  return {
    async analyse(input, meta) {
      const offline = analyseOffline(input, kb)
      if (!llm || !template) return { analysis: offline, via: 'offline' }
      const steps = input.steps.slice(-MAX_STEPS).map((s) => ({
        action: s.action,
        ok: s.result.ok,
        reason: s.result.reason,
        message: s.result.message,
        inventoryDelta: s.result.inventoryDelta,
      }))
      const prompt = template.render({
        goal: quoteData(input.goal),
        steps: quoteData(steps),
        state: quoteData(input.state),
        nearby: quoteData(input.nearbyBlocks.slice(0, 64)),
        progress: quoteData(input.progress),
        offline_guess: quoteData(offline),
      })
      try {
        const analysis = await llm.complete(Analysis, prompt, {
          player: meta.player,
          goalKey: goalKey(input.goal),
          requestId: meta.requestId ?? null,
          ...(meta.signal ? { signal: meta.signal } : {}),
        })
        return { analysis, via: 'llm' }
      } catch (err) {
        if (!(err instanceof GhostError) || err.code === 'aborted' || meta.signal?.aborted) throw err
        return { analysis: offline, via: 'offline-fallback' }
      }
    },
  }
}
