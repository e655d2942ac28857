/**
 * Goal: the one definition of "what to obtain" shared by intent, decomposer, planner, critic and memory.
 * A goal is GITM's `(object, count, material, tool, info)` tuple, plus optional perceptual conditions (MP5's
 * context-dependent goals: biome, time, weather, nearby things). Everything that carries a goal — prompts, LLM
 * structured output, ws messages and stored rows — parses it with this schema.
 */
import { z } from 'zod'

export const TimeOfDay = z.enum(['day', 'dusk', 'night'])
export type TimeOfDay = z.infer<typeof TimeOfDay>
export const Weather = z.enum(['clear', 'rain', 'thunder'])
export type Weather = z.infer<typeof Weather>
export const Brightness = z.enum(['sufficient', 'dark'])
export type Brightness = z.infer<typeof Brightness>
/** The most of one item a goal or action may ask for: a full inventory of 64-stacks (36 × 64). */
export const MAX_COUNT = 2304

/** How close (blocks) a condition's `near` thing must be to the target. */
export const NEAR_BLOCKS = 8

/** Conditions over the percipient's fields that must all hold at once for a context goal. */
export const Conditions = z.object({
  biome: z.string().max(64).nullable().default(null).describe('biome name, e.g. desert, plains, forest'),
  time: TimeOfDay.nullable().default(null),
  weather: Weather.nullable().default(null),
  near: z
    .string()
    .max(64)
    .nullable()
    .default(null)
    .describe(`a block or entity that must be visible within ${NEAR_BLOCKS} blocks of the target`),
  brightness: Brightness.nullable().default(null),
})
export type Conditions = z.infer<typeof Conditions>

export const Goal = z.object({
  // Names are capped at 64 characters: a huge name would make did-you-mean (edit distance) block the event loop.
  object: z.string().min(1).max(64).describe('item, block or entity name for the game version, e.g. iron_ingot'),
  count: z.number().int().min(1).max(MAX_COUNT).default(1),
  material: z
    .record(z.string().max(64), z.number().int().positive())
    .default({})
    .describe('materials consumed and how many of each'),
  tool: z
    .string()
    .max(64)
    .nullable()
    .default(null)
    .describe('tool or station needed: crafting_table, furnace, stone_pickaxe, ...'),
  info: z.string().default('').describe('short knowledge: where it is found, y-levels, biome, what to avoid'),
  conditions: Conditions.nullable().default(null),
})
export type Goal = z.infer<typeof Goal>
export type GoalInput = z.input<typeof Goal>

/** Stable key of a goal for memory lookups: object and count bucket, independent of wording. */
export function goalKey(goal: Pick<Goal, 'object' | 'count'> & { conditions?: Conditions | null }): string {
  const c = goal.conditions
  const cond = c
    ? Object.entries(c)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(',')
    : ''
  return cond ? `${goal.object}@${cond}` : goal.object
}
