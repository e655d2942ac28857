/**
 * Goal: the one definition of "what to obtain" shared by intent, decomposer, planner, critic and memory.
 * A goal is GITM's `(object, count, material, tool, info)` tuple, plus optional perceptual conditions (MP5's
 * context-dependent goals: biome, time, weather, nearby things). Everything that carries a goal — prompts, LLM
 * structured output, ws messages and stored rows — parses it with this schema.
 */
import { z } from 'zod'

export const TimeOfDay = z.enum(['day', 'dusk', 'night'])
export const Weather = z.enum(['clear', 'rain', 'thunder'])

/** Conditions over the percipient's fields that must all hold at once for a context goal. */
export const Conditions = z.object({
  biome: z.string().nullable().default(null).describe('biome name, e.g. desert, plains, forest'),
  time: TimeOfDay.nullable().default(null),
  weather: Weather.nullable().default(null),
  near: z.string().nullable().default(null).describe('a block or entity that must be visible within 8 blocks of the target'),
  brightness: z.enum(['sufficient', 'dark']).nullable().default(null),
})
export type Conditions = z.infer<typeof Conditions>

export const Goal = z.object({
  object: z.string().min(1).describe('item, block or entity name for the game version, e.g. iron_ingot'),
  count: z.number().int().min(1).max(2304).default(1),
  material: z.record(z.string(), z.number().int().positive()).default({})
    .describe('materials consumed and how many of each'),
  tool: z.string().nullable().default(null).describe('tool or station needed: crafting_table, furnace, stone_pickaxe, ...'),
  info: z.string().default('').describe('short knowledge: where it is found, y-levels, biome, what to avoid'),
  conditions: Conditions.nullable().default(null),
})
export type Goal = z.infer<typeof Goal>
export type GoalInput = z.input<typeof Goal>

/** Stable key of a goal for memory lookups: object and count bucket, independent of wording. */
export function goalKey(goal: Pick<Goal, 'object' | 'count'> & { conditions?: Conditions | null }): string {
  const c = goal.conditions
  const cond = c ? Object.entries(c).filter(([, v]) => v !== null).map(([k, v]) => `${k}=${String(v)}`).join(',') : ''
  return cond ? `${goal.object}@${cond}` : goal.object
}
