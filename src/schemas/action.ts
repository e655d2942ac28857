/**
 * Action: the one definition of the bot's structured actions (GITM's action interface), their results and the
 * feedback a planner receives. The discriminated union is used for LLM structured output, the critic, the executor
 * (one handler file per action type under src/actions/) and stored plans in memory.
 */
import { z } from 'zod'

const name = z.string().min(1)
const count = z.number().int().min(1).max(2304)
const tool = z.string().nullable().describe('item to hold while doing it, or null for hand')
const materials = z.record(z.string(), z.number().int().positive())

export const Action = z.discriminatedUnion('type', [
  z.object({ type: z.literal('equip'), object: name }),
  z.object({ type: z.literal('explore'), object: name, strategy: z.enum(['surface', 'underground']) }),
  z.object({ type: z.literal('approach'), object: name }),
  z.object({ type: z.literal('mine'), object: name, tool, count }),
  z.object({ type: z.literal('attack'), object: name, tool }),
  z.object({ type: z.literal('dig_down'), ylevel: z.number().int().min(-64).max(320), tool }),
  z.object({ type: z.literal('go_up'), tool }),
  z.object({ type: z.literal('craft'), object: name, count, materials, tool: z.string().nullable().describe('crafting_table or null for the 2x2 grid') }),
  z.object({ type: z.literal('smelt'), object: name, count, materials, fuel: name }),
  z.object({ type: z.literal('apply'), object: name, tool: name }),
  z.object({ type: z.literal('place'), object: name }),
  z.object({ type: z.literal('build'), blueprint: name.describe('name of a shipped blueprint, e.g. pillar, shelter, farm_plot') }),
])
export type Action = z.infer<typeof Action>
export type ActionType = Action['type']
export const ACTION_TYPES = Action.options.map((o) => o.shape.type.value) as ActionType[]

/** Fixed failure reasons a caller can switch on (after mineflayer's NoPath/Timeout style). */
export const FailureReason = z.enum([
  'not_found', 'no_path', 'missing_tool', 'missing_materials', 'no_space', 'timeout', 'interrupted', 'died',
  'unsafe', 'stalled', 'unverified', 'invalid', 'error',
])
export type FailureReason = z.infer<typeof FailureReason>

export const ActionResult = z.object({
  ok: z.boolean(),
  reason: FailureReason.nullable(),
  message: z.string().describe('one plain sentence a planner or a player can read'),
  inventoryDelta: z.record(z.string(), z.number().int()),
  durationMs: z.number().nonnegative(),
})
export type ActionResult = z.infer<typeof ActionResult>

/** What the bot knows of itself after an action: sent back to the planner with every result. */
export const BotState = z.object({
  inventory: z.record(z.string(), z.number().int()),
  biome: z.string(),
  y: z.number(),
  underground: z.boolean(),
  health: z.number(),
  food: z.number(),
})
export type BotState = z.infer<typeof BotState>

export const Feedback = z.object({ action: Action, result: ActionResult, state: BotState })
export type Feedback = z.infer<typeof Feedback>

/** A plan as the planner returns it (GITM's reply format). */
export const Plan = z.object({
  explanation: z.string().describe('why the previous plan failed, or empty'),
  thoughts: z.string().describe('how this plan reaches the goal'),
  actions: z.array(Action).min(1).max(40),
})
export type Plan = z.infer<typeof Plan>
