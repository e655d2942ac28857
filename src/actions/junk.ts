/**
 * Inventory hygiene during a long task (issues 17 and 21): before the inventory fills (at most `FREE_SLOTS_MIN` empty
 * slots) or once junk fills more than `JUNK_STACKS_MAX` stacks, first store junk in a chest the bot can see (the
 * `deposit` handler's chest code, counts verified), else drop junk down to one stack of building blocks in all —
 * only true junk (common stone-like blocks, data below), never tools, the task's wanted items or anything else.
 * Called by `mine` before each dig, so a long mining run neither fails because its pickups no longer fit nor drags
 * hundreds of dirt and cobblestone around.
 */
import type { Bot } from 'mineflayer'
import { logger } from '../util/log.js'
import { findChestNear, storeIn } from './chest.js'
import { countOf, type Run } from './types.js'

const log = logger('actions.junk')

/** Blocks that are never worth carrying in bulk; building blocks worth keeping a stack of come first. */
export const JUNK = [
  'cobblestone',
  'cobbled_deepslate',
  'dirt',
  'gravel',
  'andesite',
  'diorite',
  'granite',
  'tuff',
  'netherrack',
  'sand',
  'red_sand',
  'cobweb',
  'rotten_flesh',
  'poisonous_potato',
]
/** Make room when this few inventory slots (of 36) are empty. */
export const FREE_SLOTS_MIN = 3
/** ... or when junk fills more stacks than this. */
export const JUNK_STACKS_MAX = 3
/** Junk kept in all when dropping: one stack of building blocks (the bot pillars and bridges with them). */
export const KEEP_BUILDING = 64

export function freeSlots(bot: Bot): number {
  return bot.inventory.emptySlotCount()
}

/**
 * Free slots when nearly full or cluttered with junk; `keep` lists items the task needs (never stored or dropped).
 * Returns a sentence of what it did, or null when there was nothing to do or nothing it may move.
 */
export async function makeRoom(run: Run, keep: ReadonlySet<string>): Promise<string | null> {
  const { bot } = run
  const junk = new Map<string, number>()
  for (const name of JUNK) if (!keep.has(name) && countOf(bot, [name]) > 0) junk.set(name, countOf(bot, [name]))
  const junkTotal = [...junk.values()].reduce((a, n) => a + n, 0)
  if (junk.size === 0 || (freeSlots(bot) > FREE_SLOTS_MIN && junkTotal <= JUNK_STACKS_MAX * KEEP_BUILDING)) return null
  // one stack of building blocks stays (the kinds listed first), the rest is extra
  const extra = new Map<string, number>()
  let kept = 0
  for (const [name, have] of junk) {
    const keepHere = Math.min(have, KEEP_BUILDING - kept)
    kept += keepHere
    if (have > keepHere) extra.set(name, have - keepHere)
  }
  if (extra.size === 0) return null
  const chest = findChestNear(bot, 16)
  if (chest) {
    try {
      const did = await storeIn(
        run,
        chest,
        [...extra].map(([object, count]) => ({ object, count })),
      )
      log.info('stored junk', { did })
      return `To keep room in my inventory I stored junk: ${did}`
    } catch (err) {
      run.check()
      if (freeSlots(bot) > FREE_SLOTS_MIN)
        return 'To keep room in my inventory I stored junk in the chest until it was full.'
      log.warn('could not store junk; dropping instead', { err: (err as Error).message })
    }
  }
  const dropped: string[] = []
  for (const name of extra.keys()) {
    const n = countOf(bot, [name]) - (junk.get(name)! - extra.get(name)!)
    let left = n
    while (left > 0) {
      run.check()
      const stack = bot.inventory.items().find((i) => i.name === name)
      if (!stack) break
      const k = Math.min(left, stack.count)
      await bot.toss(stack.type, null, k)
      left -= k
    }
    if (n > 0) dropped.push(`${n - left} ${name}`)
  }
  return dropped.length ? `To keep room in my inventory I dropped ${dropped.join(', ')}.` : null
}
