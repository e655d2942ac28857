/**
 * The deterministic planner used when no LLM is configured (and as the LLM planner's fallback): it turns one
 * decomposed sub-goal into structured actions from the sub-goal's kind and detail (src/schemas/subgoal.ts) and the
 * bot's state. Later attempts vary the strategy after a failure: a surface search that found nothing digs down and
 * searches underground; an underground bot returns to the surface for surface things first.
 */
import { readFileSync } from 'node:fs'
import { z } from 'zod'
import type { Action, BotState, Feedback, Plan } from '../schemas/action.js'
import type { SubGoal } from '../schemas/subgoal.js'
import { GhostError } from '../util/errors.js'
import { WEAPONS } from '../rules/policy.js'

const Heuristics = z.object({ buriedBlocks: z.record(z.string(), z.number().int().min(1).max(120)) })
/** data/planner.json: which blocks lie just under the surface, and how deep to dig for them. */
const HEURISTICS = Heuristics.parse(
  JSON.parse(readFileSync(new URL('../../data/planner.json', import.meta.url), 'utf8')),
)

export interface OfflinePlanInput {
  step: SubGoal
  state: BotState
  /** 0 for the first plan of this sub-goal, then 1, 2 … after failures. */
  attempt: number
  feedback: Feedback | null
  /** Stations standing within reach (not carried): a craft at a table standing here needs no room for one. */
  stationsNear?: readonly string[]
}

function bestHeld(inv: Record<string, number>, choices: string[]): string | null {
  return choices.find((c) => (inv[c] ?? 0) > 0) ?? null
}

export function planOffline(input: OfflinePlanInput): Plan {
  const { step, state, attempt, feedback } = input
  const inv = state.inventory
  const have = (name: string): number => inv[name] ?? 0
  const actions: Action[] = []
  const lastReason = feedback?.result.reason ?? null
  // A go_up that just failed (nothing remembered to return to) is not repeated: the bot is not below a dug shaft.
  const underground = state.underground && feedback?.action.type !== 'go_up'
  const why = feedback ? `Last time ${feedback.action.type} failed (${lastReason}): ${feedback.result.message}` : ''

  switch (step.kind) {
    case 'mine': {
      const d = step.mine
      // Deepslate variants exist only below about y 8, plain ores only above about y -8: try what fits the depth.
      const fits = d.blocks.filter((b) =>
        b.startsWith('deepslate_') ? state.y <= 8 : !d.blocks.includes(`deepslate_${b}`) || state.y >= -8,
      )
      const choices = fits.length > 0 ? fits : d.blocks
      const block = choices[attempt % choices.length] ?? d.blocks[0]!
      const tool = d.tool && have(d.tool) > 0 ? d.tool : (d.acceptableTools.find((t) => have(t) > 0) ?? d.tool)
      const total = have(step.goal.object) + step.goal.count
      const buried = HEURISTICS.buriedBlocks[block]
      const bestY = d.location.bestY ?? (buried !== undefined ? state.y - buried : null)
      const deep = (d.location.strategy === 'underground' || buried !== undefined) && bestY !== null
      const goDeep =
        deep || (attempt > 0 && lastReason === 'not_found' && d.location.strategy !== 'water' && bestY !== null)
      if (!goDeep && underground && d.location.strategy === 'surface')
        actions.push({ type: 'go_up', tool: tool ?? null })
      // Already underground near stone: search here instead of digging further. (Only for a depth relative to the
      // bot; a block with a real best y-level — deepslate, tuff — still needs the dig.)
      // After a dig_down that stopped early (a cave, bedrock), search from here when already in the y-range; above
      // it, when the shaft was unsafe or found no way, too: the underground search has its own ways down (the
      // pathfinder's, a shaft moved along its heading), where a second dig_down from the same column stops at once
      // (bench:diamond seed 1 gave up on its diamond at 133 s after six dig_downs stopped over one cave)
      const inRange =
        (d.location.yMin === null || state.y >= d.location.yMin) &&
        (d.location.yMax === null || state.y <= d.location.yMax)
      const digStopped =
        feedback?.action.type === 'dig_down' &&
        (inRange || feedback.result.reason === 'unsafe' || feedback.result.reason === 'no_path')
      if (
        goDeep &&
        bestY !== null &&
        state.y > bestY + 2 &&
        !digStopped &&
        !(buried !== undefined && d.location.bestY === null && underground)
      )
        // an ore with a level of its own is watched for on the way: a cave the shaft crosses may show one in its walls
        // (not a block only buried under the dirt, such as stone, which is in sight on many hillsides)
        actions.push({
          type: 'dig_down',
          ylevel: Math.max(-60, bestY),
          tool: tool ?? null,
          watch: d.location.bestY !== null ? block : null,
        })
      actions.push({ type: 'explore', object: block, strategy: goDeep ? 'underground' : 'surface' })
      // mine counts the drops of the named object: name the wanted item when it is a side drop of the block
      // (flint from gravel, saplings from leaves), or mining would stop at the block's main drop
      actions.push({
        type: 'mine',
        object: d.blocks.includes(step.goal.object) ? block : step.goal.object,
        tool: tool ?? null,
        count: total,
      })
      break
    }
    case 'craft': {
      const d = step.craft
      // Underground there is rarely room for a table: go up when we must place one, or when placing just failed (a
      // table standing here, left by the craft before, is used where it stands)
      const tableHere = have('crafting_table') > 0 || (input.stationsNear ?? []).includes('crafting_table')
      if (underground && d.needsTable && (!tableHere || lastReason === 'no_space'))
        actions.push({ type: 'go_up', tool: null })
      actions.push({
        type: 'craft',
        object: step.goal.object,
        count: step.goal.count,
        materials: d.materials,
        tool: d.needsTable ? 'crafting_table' : null,
      })
      break
    }
    case 'smelt': {
      const d = step.smelt
      if (underground && lastReason === 'no_space') actions.push({ type: 'go_up', tool: null })
      actions.push({
        type: 'smelt',
        object: step.goal.object,
        count: step.goal.count,
        materials: { [d.input]: d.inputCount },
        fuel: d.fuel,
        furnaces: d.furnaces,
      })
      break
    }
    case 'hunt': {
      const d = step.hunt
      if (underground) actions.push({ type: 'go_up', tool: null })
      const weapon = bestHeld(inv, WEAPONS)
      for (let i = 0; i < Math.min(d.kills, 8); i++) {
        actions.push({ type: 'explore', object: d.mob, strategy: 'surface' })
        actions.push({ type: 'attack', object: d.mob, tool: weapon })
      }
      break
    }
    case 'apply': {
      const d = step.apply
      if (underground && d.targetKind !== 'fluid') actions.push({ type: 'go_up', tool: null })
      for (let i = 0; i < Math.min(d.uses, 8); i++) {
        actions.push({
          type: 'explore',
          object: d.target,
          strategy: d.location?.strategy === 'underground' ? 'underground' : 'surface',
        })
        actions.push({ type: 'apply', object: d.target, tool: d.tool })
      }
      break
    }
    case 'enchant':
      // The executor refuses goals that need an enchanted tool before any planning (src/agent/executor.ts).
      throw new GhostError('bad_input', `no action enchants a tool yet (${step.goal.object})`)
    case 'collect': {
      const d = step.collect
      if (underground) actions.push({ type: 'go_up', tool: null })
      // Pick-ups lie near a mob or block (eggs by chickens): walk up to it, once per item wanted. (`mine` on a mob
      // is invalid, and the critic rejected it.)
      actions.push({ type: 'explore', object: d.near, strategy: 'surface' })
      for (let i = 0; i < Math.min(step.goal.count, 8); i++) actions.push({ type: 'approach', object: d.near })
      break
    }
  }
  return {
    explanation: why,
    thoughts: `offline plan for ${step.kind} ${step.goal.count} ${step.goal.object}${attempt > 0 ? ` (attempt ${attempt + 1})` : ''}`,
    actions,
  }
}
