/**
 * Progress rules (after Auto MC-Reward): the weights, window sizes and thresholds of the sparse and dense progress
 * signals are data — data/progress-rules.json — validated here by one zod schema, never generated code. `loadRules()`
 * reads and caches the shipped file; tests and benchmarks may pass their own parsed rules instead.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'

const weight = z.number().finite()
const positiveMs = z.number().int().positive()

export const ProgressRules = z.object({
  sampleEveryMs: positiveMs.default(500),
  traceLength: z.number().int().min(10).max(10_000).default(400),
  weights: z.object({
    goalReached: weight,
    death: weight,
    heavyLoss: weight,
    closerPerBlock: weight.describe('per block closer to the nearest target (negative when moving away)'),
    newCell: weight.describe('per novelty cell entered for the first time in this action'),
    healthLostPerPoint: weight,
    lavaInView: weight,
    revisit: weight.describe('per sample that moved into a position visited within the revisit window'),
    itemGained: weight.describe('per wanted item gained'),
    work: weight.describe('per unit of work a handler reports (block dug, hit landed, block placed)'),
  }),
  noveltyCellSize: z.number().int().min(1).max(64),
  revisit: z.object({
    cellSize: z.number().int().min(1).max(8),
    windowSamples: z.number().int().min(2).max(10_000),
    minMoveBlocks: z.number().nonnegative(),
  }),
  lava: z.object({ viewDistance: z.number().int().min(1).max(32) }),
  heavyLoss: z.object({ healthPoints: z.number().positive(), items: z.number().int().positive() }),
  stall: z.object({
    windowMs: positiveMs.describe('no net dense progress over this window stops the action as stalled'),
    minDense: z.number().describe('the dense sum over the window must exceed this'),
    perAction: z.record(z.string(), positiveMs).default({}),
  }),
})
export type ProgressRules = z.infer<typeof ProgressRules>
export type ProgressRulesInput = z.input<typeof ProgressRules>

const FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data/progress-rules.json')
let cached: ProgressRules | null = null

export function parseRules(raw: unknown): ProgressRules {
  return ProgressRules.parse(raw)
}

export function loadRules(file = FILE): ProgressRules {
  if (file === FILE && cached) return cached
  const rules = parseRules(JSON.parse(readFileSync(file, 'utf8')))
  if (file === FILE) cached = rules
  return rules
}
