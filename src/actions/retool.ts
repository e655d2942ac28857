/**
 * Re-tooling in a tunnel: before a search digs rock with tools that are all on their last uses (src/bot/wear.ts's
 * SPARE_USES, kept for the ore: an iron pickaxe's last ten for the diamond), it makes another tool for the rock from
 * the bag — of the block's harvest tools, the one that lasts longest whose recipe the bag holds, or holds but for
 * parts it can craft first (a stone pickaxe from the cobbled deepslate it dug and the table it carries, its sticks
 * from the last planks). Without the materials it digs on with what it holds. A failed attempt is not repeated for
 * RETRY_MS.
 */
import type { Bot } from 'mineflayer'
import type { Block } from 'prismarine-block'
import { onlySparedFor } from '../bot/wear.js'
import { logger } from '../util/log.js'
import { craft } from './craft.js'
import { countOf, type Run } from './types.js'

const log = logger('retool')

/** How long after a re-tool that could not be made the next attempt waits. */
const RETRY_MS = 60_000

const failedAt = new WeakMap<Bot, number>()

/** Of a recipe's ingredients (its negative delta), those the bag holds too few of, with how many more. */
function shortOf(bot: Bot, delta: ReadonlyArray<{ id: number; count: number }>): Array<{ id: number; more: number }> {
  const have = (id: number): number => countOf(bot, [bot.registry.items[id]!.name])
  return delta
    .filter((d) => d.count < 0 && have(d.id) < -d.count)
    .map((d) => ({ id: d.id, more: -d.count - have(d.id) }))
}

/**
 * How to make a tool for `block` from the bag: the longest-lasting of its harvest tools with a recipe whose missing
 * ingredients (sticks, when only planks are left) are each craftable from the bag themselves — those first, then the
 * tool. Null when none is.
 */
function toolPlan(bot: Bot, block: Block): Array<{ name: string; count: number }> | null {
  const tools = Object.keys(block.harvestTools ?? {})
    .map((id) => bot.registry.items[Number(id)])
    .filter((it): it is NonNullable<typeof it> => Boolean(it?.maxDurability))
    .sort((a, b) => (b.maxDurability ?? 0) - (a.maxDurability ?? 0))
  for (const tool of tools)
    for (const recipe of bot.recipesAll(tool.id, null, true)) {
      const parts = shortOf(bot, recipe.delta)
      if (parts.every((p) => bot.recipesFor(p.id, null, 1, true).length > 0))
        return [
          ...parts.map((p) => ({ name: bot.registry.items[p.id]!.name, count: p.more })),
          { name: tool.name, count: 1 },
        ]
    }
  return null
}

/** Make another tool for `block` when every one held that harvests it is on its last uses; true when one was made. */
export async function retoolFor(run: Run, block: Block): Promise<boolean> {
  const { bot } = run
  if (!onlySparedFor(bot, block)) return false
  if (Date.now() - (failedAt.get(bot) ?? 0) < RETRY_MS) return false
  const plan = toolPlan(bot, block)
  if (plan) {
    try {
      for (const step of plan)
        await craft(run, { type: 'craft', object: step.name, count: step.count, materials: {}, tool: null })
      log.debug('retooled', { plan, for: block.name })
      return true
    } catch (err) {
      run.check()
      log.debug('retool failed', { plan, err: (err as Error).message })
    }
  }
  failedAt.set(bot, Date.now())
  return false
}
