/**
 * Re-tooling in a tunnel: when the tool that lasts longest in the bag for the rock is on its last uses
 * (src/bot/wear.ts's SPARE_USES, kept for the ore: an iron pickaxe's last ten for the diamond) and nothing else held
 * lasts as long, or none that harvests the rock is held at all (`wornPast`), a dig (`digWith`) makes another tool for
 * the rock from the bag — of the block's harvest tools lasting longer than the fresh ones held, the one that lasts
 * longest whose recipe the bag holds, or holds but for parts it can make first: crafted (a stone pickaxe from the
 * cobbled deepslate it dug and the table it carries, its sticks from the last planks) or smelted in the furnaces it
 * carries on fuel it holds (an iron pickaxe from the spare raw iron of the vein `mine` took whole). Only what the bag
 * spares goes into it: the items the steps ahead use (Run.reserve, the compass's iron; a spare tool's share is not
 * among them) are left. Without the materials it digs on with what it holds (and looks again at the next block: the
 * look is cheap). An attempt that failed is not repeated for RETRY_MS (per kind: a worn iron pickaxe's replacement
 * failing does not hold back the stone one made when every pickaxe is worn).
 */
import type { Bot } from 'mineflayer'
import type { Block } from 'prismarine-block'
import { equipSparing, wornPast } from '../bot/wear.js'
import { createKnowledge } from '../knowledge/index.js'
import { fuelFor, furnacesFed } from '../rules/smelt.js'
import { MAX_FURNACES } from '../schemas/action.js'
import { logger } from '../util/log.js'
import { craft } from './craft.js'
import { smelt } from './smelt.js'
import { stationInSight } from './stations.js'
import { countOf, type Run } from './types.js'
import { digBlock, equipNamed, needHarvestTool } from './world.js'

const log = logger('retool')

/** How long after a re-tool that could not be made the next attempt of its kind waits. */
const RETRY_MS = 60_000

/** Per bot, when an attempt failed, by the uses the tool had to beat (`wornPast`). */
const failedAt = new WeakMap<Bot, Map<number, number>>()

/** One step of making the tool: a craft, or a smelt of `input` (the part a recipe lacks, cooked from the bag). */
type ToolStep = { name: string; count: number } & ({ kind: 'craft' } | { kind: 'smelt'; input: string })

/** How many of an item the bag holds beyond what the steps ahead use (Run.reserve). */
type Spare = (name: string) => number

const spareOf =
  (run: Run): Spare =>
  (name) =>
    Math.max(0, countOf(run.bot, [name]) - (run.reserve[name] ?? 0))

/** Of a recipe's ingredients (its negative delta), those the bag spares too few of, with how many more. */
function shortOf(
  bot: Bot,
  spare: Spare,
  delta: ReadonlyArray<{ id: number; count: number }>,
): Array<{ id: number; more: number }> {
  const have = (id: number): number => spare(bot.registry.items[id]!.name)
  return delta
    .filter((d) => d.count < 0 && have(d.id) < -d.count)
    .map((d) => ({ id: d.id, more: -d.count - have(d.id) }))
}

/**
 * A fuel the planner may plan (the knowledge's plannable fuels: coal, wood, sticks — never a lava bucket or a chest)
 * spared for smelting `count` items in one furnace, none of `keep`: the one that burns longest.
 */
function fuelHeld(bot: Bot, spare: Spare, count: number, keep: ReadonlySet<string>): string | null {
  const kb = createKnowledge(bot.version)
  const fuels = kb.cost
    .plannableFuels()
    .filter((f) => !keep.has(f.item) && spare(f.item) >= (fuelFor(kb, f.item, count) ?? Infinity))
  return fuels.sort((a, b) => b.burnItems - a.burnItems)[0]?.item ?? null
}

/** How to make `more` of a part the bag lacks: a craft from the bag, or a smelt of an input spared; null when neither. */
function partStep(bot: Bot, spare: Spare, id: number, more: number, keep: ReadonlySet<string>): ToolStep | null {
  const name = bot.registry.items[id]!.name
  if (bot.recipesAll(id, null, true).some((r) => shortOf(bot, spare, r.delta).length === 0))
    return { kind: 'craft', name, count: more }
  if (countOf(bot, ['furnace']) === 0) return null
  const input = createKnowledge(bot.version)
    .smeltingFor(name)
    .flatMap((r) => r.inputs)
    .find((i) => spare(i) >= more)
  return input && fuelHeld(bot, spare, more, new Set([...keep, input]))
    ? { kind: 'smelt', name, count: more, input }
    : null
}

/**
 * How to make a tool for `block` lasting more than `past` uses from the bag: the longest-lasting of its harvest tools
 * with a recipe whose missing ingredients can each be made from the bag (`partStep`) — those first (crafts before
 * smelts, so the fuel is what the crafts leave), then the tool. Null when none is.
 */
function toolPlan(bot: Bot, spare: Spare, block: Block, past: number): ToolStep[] | null {
  const tools = Object.keys(block.harvestTools ?? {})
    .map((id) => bot.registry.items[Number(id)])
    .filter((it): it is NonNullable<typeof it> => (it?.maxDurability ?? 0) > past)
    .sort((a, b) => (b.maxDurability ?? 0) - (a.maxDurability ?? 0))
  const table = countOf(bot, ['crafting_table']) > 0 || stationInSight(bot, 'crafting_table') !== null
  for (const tool of tools)
    for (const recipe of bot.recipesAll(tool.id, null, true)) {
      if (recipe.requiresTable && !table) continue
      const keep = new Set(recipe.delta.map((d) => bot.registry.items[d.id]!.name))
      const parts = shortOf(bot, spare, recipe.delta).map((p) => partStep(bot, spare, p.id, p.more, keep))
      if (parts.every((p) => p !== null))
        return [
          ...parts.filter((p) => p.kind === 'craft'),
          ...parts.filter((p) => p.kind === 'smelt'),
          { kind: 'craft', name: tool.name, count: 1 },
        ]
    }
  return null
}

/** Carry out one step of a tool plan through the craft and smelt actions. */
async function makeStep(run: Run, step: ToolStep): Promise<void> {
  if (step.kind === 'craft') {
    await craft(run, { type: 'craft', object: step.name, count: step.count, materials: {}, tool: null })
    return
  }
  const spare = spareOf(run)
  const fuel = fuelHeld(run.bot, spare, step.count, new Set([step.input]))
  if (!fuel) throw new Error(`no fuel left to smelt ${step.name}`)
  const kb = createKnowledge(run.bot.version)
  const held = countOf(run.bot, ['furnace'])
  await smelt(run, {
    type: 'smelt',
    object: step.name,
    count: step.count,
    materials: { [step.input]: step.count },
    fuel,
    // the furnaces held (up to MAX_FURNACES) that the spared fuel feeds, each burning its own
    furnaces: furnacesFed(kb, fuel, step.count, Math.min(held, MAX_FURNACES), spare(fuel)),
  })
}

/**
 * Make another tool for `block` when the longest-lasting one held for it is on its last uses and nothing else held
 * lasts as long, or when none that harvests it is held (`wornPast`); true when one was made.
 */
export async function retoolFor(run: Run, block: Block): Promise<boolean> {
  const { bot } = run
  const past = wornPast(bot, block)
  if (past === null) return false
  const failed = failedAt.get(bot) ?? failedAt.set(bot, new Map()).get(bot)!
  if (Date.now() - (failed.get(past) ?? 0) < RETRY_MS) return false
  const plan = toolPlan(bot, spareOf(run), block, past)
  if (!plan) return false
  try {
    for (const step of plan) await makeStep(run, step)
    log.debug('retooled', { plan, for: block.name })
    return true
  } catch (err) {
    run.check()
    log.debug('retool failed', { plan, err: (err as Error).message })
    failed.set(past, Date.now())
    return false
  }
}

/**
 * Dig `block` holding `tool` when the step names one, else the bag's best for it (`equipSparing`), made first when
 * every tool for it is on its last uses or none is held (`retoolFor`): how shafts, stairs, climbs and the ore search
 * dig rock. `harvest`: a block worth digging only for its drop fails `missing_tool` when no tool for it is left after
 * a break (`needHarvestTool`: the ore search's deepslate by hand, 15 s a block for nothing).
 */
export async function digWith(run: Run, block: Block, tool: string | null, harvest = false): Promise<void> {
  if (tool) await equipNamed(run, tool)
  else {
    await retoolFor(run, block)
    if (harvest) needHarvestTool(run.bot, block)
    await equipSparing(run.bot, block)
  }
  await digBlock(run, block)
}
