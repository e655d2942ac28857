/**
 * Sub-goal: one step of a decomposed goal, as the knowledge decomposer (src/knowledge/decompose.ts) emits it and the
 * offline planner, critic and dry-run world consume it. Each sub-goal carries its `Goal` (object, count, material,
 * tool, info) plus a kind-specific detail block with everything a deterministic planner needs to turn it into
 * `Action`s (src/schemas/action.ts) without more lookups: `mine` → explore/dig_down/mine, `craft` → craft,
 * `smelt` → smelt, `hunt` → explore/attack, `apply` → apply, `collect` → explore/approach. Also defines the
 * decomposition tree node and the decomposition result.
 */
import { z } from 'zod'
import { MAX_FURNACES } from './action.js'
import { Goal } from './goal.js'

export const SubGoalKind = z.enum(['mine', 'craft', 'smelt', 'hunt', 'collect', 'apply', 'enchant'])
export type SubGoalKind = z.infer<typeof SubGoalKind>

const itemName = z.string().min(1)
const counts = z.record(z.string(), z.number().int().positive())

/** Where a raw thing is found: maps to `explore` (strategy) and `dig_down` (bestY). */
export const Location = z.object({
  strategy: z.enum(['surface', 'underground', 'water']),
  yMin: z.number().int().nullable(),
  yMax: z.number().int().nullable(),
  bestY: z.number().int().nullable().describe('y-level to dig down to, or null on the surface'),
  biomes: z.array(z.string()).describe('biomes it is bound to; empty = anywhere'),
  time: z.enum(['day', 'night']).nullable().default(null),
})
export type Location = z.infer<typeof Location>

export const MineDetail = z.object({
  blocks: z.array(itemName).min(1).describe('block names to dig, best first (e.g. iron_ore, deepslate_iron_ore)'),
  tool: z.string().nullable().describe('cheapest tool that harvests the block, or null for hand'),
  acceptableTools: z.array(z.string()).describe('any of these also works; empty = hand'),
  blocksToDig: z.number().int().min(1),
  location: Location,
})
export const CraftDetail = z.object({
  materials: counts.describe('consumed for all runs together'),
  needsTable: z.boolean(),
  runs: z.number().int().min(1),
  outputPerRun: z.number().int().min(1),
})
export const SmeltDetail = z.object({
  input: itemName,
  inputCount: z.number().int().min(1),
  fuel: itemName,
  fuelCount: z.number().int().min(1).describe('for all furnaces together: each burns its own'),
  furnaces: z.number().int().min(1).max(MAX_FURNACES).default(1).describe('furnaces the items are shared among'),
})
export const HuntDetail = z.object({ mob: itemName, kills: z.number().int().min(1), location: Location })
export const ApplyDetail = z.object({
  tool: itemName.describe('item held while using it on the target'),
  toolConsumed: z.boolean(),
  target: itemName.describe('mob, fluid or placed block the tool is used on'),
  targetKind: z.enum(['mob', 'fluid', 'placed']),
  uses: z.number().int().min(1),
  location: Location.nullable(),
})
export const CollectDetail = z.object({ near: itemName, location: Location })
export const EnchantDetail = z.object({
  tool: itemName.describe('plain tool put on the enchanting table; one is used up per attempt'),
  enchantment: z.string().min(1).describe('e.g. silk_touch'),
  chance: z.number().gt(0).max(1).describe('chance one attempt gives the enchantment'),
  attempts: z.number().int().min(1).describe('expected attempts, rounded up'),
  lapis: z.number().int().min(1).describe('lapis_lazuli for all attempts'),
  experience: z.number().int().min(0).describe('experience points spent over all attempts'),
  station: itemName,
  bookshelves: z.number().int().min(0).describe('bookshelves around the table (kept, not used up)'),
})

/**
 * Of a step, the share only a spare tool wants (src/knowledge/decompose.ts `markSpares`): taken along the way, never
 * held back from other uses (a stone pickaxe re-made in the tunnel from the spare iron pickaxe's sticks).
 */
export const SpareShare = z.object({
  count: z
    .number()
    .int()
    .min(0)
    .describe('of the goal count: a mine ends once the rest is held and a search falls short'),
  material: counts.describe('of the materials'),
})

const base = {
  id: z.number().int().min(0),
  goal: Goal,
  estimatedSteps: z.number().nonnegative(),
  spare: SpareShare.optional(),
}
export const SubGoal = z.discriminatedUnion('kind', [
  z.object({ ...base, kind: z.literal('mine'), mine: MineDetail }),
  z.object({ ...base, kind: z.literal('craft'), craft: CraftDetail }),
  z.object({ ...base, kind: z.literal('smelt'), smelt: SmeltDetail }),
  z.object({ ...base, kind: z.literal('hunt'), hunt: HuntDetail }),
  z.object({ ...base, kind: z.literal('apply'), apply: ApplyDetail }),
  z.object({ ...base, kind: z.literal('collect'), collect: CollectDetail }),
  z.object({ ...base, kind: z.literal('enchant'), enchant: EnchantDetail }),
])
export type SubGoal = z.infer<typeof SubGoal>

/** A node of the requirement tree; `fromInventory` items need no step, `subGoal` is the step that makes the rest. */
export interface DecompositionNode {
  item: string
  count: number
  role: 'goal' | 'material' | 'tool' | 'station' | 'fuel'
  fromInventory: number
  subGoal: number | null
  kind: SubGoalKind | null
  children: DecompositionNode[]
}
export const DecompositionNode: z.ZodType<DecompositionNode> = z.lazy(() =>
  z.object({
    item: itemName,
    count: z.number().int().min(1),
    role: z.enum(['goal', 'material', 'tool', 'station', 'fuel']),
    fromInventory: z.number().int().min(0),
    subGoal: z.number().int().nullable(),
    kind: SubGoalKind.nullable(),
    children: z.array(DecompositionNode),
  }),
)

export const Decomposition = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    goal: Goal,
    tree: DecompositionNode,
    steps: z.array(SubGoal).describe('post-order: every step comes after the steps it depends on'),
    estimatedSteps: z.number().nonnegative(),
  }),
  z.object({ ok: z.literal(false), goal: Goal, item: itemName, reason: z.string() }),
])
export type Decomposition = z.infer<typeof Decomposition>
