/**
 * Action: the one definition of the bot's structured actions (GITM's action interface), their results and the
 * feedback a planner receives. The discriminated union is used for LLM structured output, the critic, the executor
 * (one handler file per action type under src/actions/) and stored plans in memory.
 */
import { z } from 'zod'
import { MAX_COUNT, NEAR_BLOCKS } from './goal.js'

const name = z.string().min(1)
const count = z.number().int().min(1).max(MAX_COUNT)
const tool = z.string().nullable().describe('item to hold while doing it, or null for hand')
const materials = z.record(z.string(), z.number().int().positive())
const coord = z.number().int().min(-30_000_000).max(30_000_000)
/** An item to put into or take out of a chest; count null = all of it. */
export const StoreItem = z.object({ object: name, count: z.number().int().min(1).max(MAX_COUNT).nullable() })
export type StoreItem = z.infer<typeof StoreItem>
/** Most furnaces one smelt shares its items among (src/knowledge/furnaces.ts). */
export const MAX_FURNACES = 4
const chestAt = z
  .object({ x: coord, y: z.number().int().min(-64).max(320), z: coord })
  .nullable()
  .describe('the chest block, or null for the nearest visible chest')

export const Action = z.discriminatedUnion('type', [
  z.object({ type: z.literal('equip'), object: name }),
  z.object({
    type: z.literal('explore'),
    object: name,
    strategy: z.enum(['surface', 'underground']),
    near: name
      .nullish()
      .describe(
        `only one with this block or creature in sight within ${NEAR_BLOCKS} blocks of it counts; null for any`,
      ),
    biome: name
      .nullish()
      .describe('search only inside this biome and count only what is seen from it; null for anywhere'),
  }),
  z.object({ type: z.literal('approach'), object: name }),
  z.object({ type: z.literal('mine'), object: name, tool, count }),
  z.object({ type: z.literal('attack'), object: name, tool }),
  z.object({
    type: z.literal('dig_down'),
    ylevel: z.number().int().min(-64).max(320),
    tool,
    watch: name
      .nullish()
      .describe(
        'the block the dig is for: stop on the way down as soon as one is in sight within reach; null to dig to ylevel',
      ),
  }),
  z.object({ type: z.literal('go_up'), tool }),
  z
    .object({ type: z.literal('hide') })
    .describe('dig into the ground, close the hole overhead and wait there until morning, then climb out'),
  z.object({
    type: z.literal('craft'),
    object: name,
    count,
    materials,
    tool: z.string().nullable().describe('crafting_table or null for the 2x2 grid'),
  }),
  z.object({
    type: z.literal('smelt'),
    object: name,
    count,
    materials,
    fuel: name,
    furnaces: z
      .number()
      .int()
      .min(1)
      .max(MAX_FURNACES)
      .nullish()
      .describe(
        'furnaces to share the items among, each with its own fuel (the extra ones from the bag); null for one',
      ),
  }),
  z.object({ type: z.literal('apply'), object: name, tool: name }),
  z.object({ type: z.literal('place'), object: name }),
  z.object({
    type: z.literal('build'),
    blueprint: name.describe('name of a shipped blueprint, e.g. pillar, shelter, farm_plot'),
  }),
  z.object({
    type: z.literal('give'),
    object: name,
    count,
    to: name.describe('name of an online player to hand the items to'),
  }),
  z
    .object({ type: z.literal('goto'), x: coord, y: z.number().int().min(-64).max(320), z: coord })
    .describe('walk to coordinates (within 2 blocks)'),
  z.object({
    type: z.literal('deposit'),
    items: z.array(StoreItem).max(16).describe('empty = everything but tools'),
    chest: chestAt,
  }),
  z.object({ type: z.literal('withdraw'), items: z.array(StoreItem).min(1).max(16), chest: chestAt }),
  z.object({
    type: z.literal('guard'),
    player: name.describe('online player to stay next to and protect from hostile mobs'),
  }),
])
export type Action = z.infer<typeof Action>
export type ActionType = Action['type']
export const ACTION_TYPES = Action.options.map((o) => o.shape.type.value) as ActionType[]

/** What an explore looks for, in words: "pig near grass in the forest". */
export function describeSearch(a: Extract<Action, { type: 'explore' }>): string {
  return `${a.object}${a.near ? ` near ${a.near}` : ''}${a.biome ? ` in the ${a.biome}` : ''}`
}

/** Fixed failure reasons a caller can switch on (after mineflayer's NoPath/Timeout style). */
export const FailureReason = z.enum([
  'not_found',
  'no_path',
  'missing_tool',
  'missing_materials',
  'no_space',
  'timeout',
  'interrupted',
  'died',
  'unsafe',
  'stalled',
  'unverified',
  'invalid',
  'error',
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
