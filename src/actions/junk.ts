/**
 * Making room during a long task (issue 17): when the inventory is nearly full (at most `FREE_SLOTS_MIN` empty
 * slots), first store junk in a chest the bot can see (the `deposit` handler's chest code, counts verified), else
 * drop only true junk — common stone-like blocks (data below) beyond what the task keeps — never tools, the task's
 * wanted items or anything else. Called by `mine` before each dig, so a long mining run goes on instead of failing
 * because its pickups no longer fit.
 */
import type { Bot } from 'mineflayer'
import { logger } from '../util/log.js'
import { findChestNear, storeIn } from './chest.js'
import { countOf, type Run } from './types.js'

const log = logger('actions.junk')

/** Blocks that are never worth carrying in bulk. */
export const JUNK = new Set([
  'dirt',
  'cobblestone',
  'gravel',
  'andesite',
  'diorite',
  'granite',
  'tuff',
  'cobbled_deepslate',
  'netherrack',
  'sand',
  'red_sand',
  'cobweb',
  'rotten_flesh',
  'poisonous_potato',
])
/** Make room when this few inventory slots (of 36) are empty. */
export const FREE_SLOTS_MIN = 1
/** How much of a junk item to keep when dropping (the bot pillars and bridges with dirt/cobblestone). */
export const KEEP_JUNK = 16

export function freeSlots(bot: Bot): number {
  return bot.inventory.emptySlotCount()
}

/**
 * Free slots when nearly full; `keep` lists items the task needs (never stored or dropped). Returns a sentence of
 * what it did, or null when there was nothing to do or nothing it may move.
 */
export async function makeRoom(run: Run, keep: ReadonlySet<string>): Promise<string | null> {
  const { bot } = run
  if (freeSlots(bot) > FREE_SLOTS_MIN) return null
  const junk = new Map<string, number>()
  for (const it of bot.inventory.items())
    if (JUNK.has(it.name) && !keep.has(it.name)) junk.set(it.name, (junk.get(it.name) ?? 0) + it.count)
  if (junk.size === 0) return null
  const chest = findChestNear(bot, 16)
  if (chest) {
    try {
      const did = await storeIn(
        run,
        chest,
        [...junk].map(([object, count]) => ({ object, count })),
      )
      log.info('stored junk', { did })
      if (freeSlots(bot) > FREE_SLOTS_MIN) return `My inventory was full, so I stored junk: ${did}`
    } catch (err) {
      run.check()
      if (freeSlots(bot) > FREE_SLOTS_MIN)
        return 'My inventory was full, so I stored junk in the chest until it was full.'
      log.warn('could not store junk; dropping instead', { err: (err as Error).message })
    }
  }
  const dropped: string[] = []
  for (const name of junk.keys()) {
    const extra = countOf(bot, [name]) - KEEP_JUNK
    let left = extra
    while (left > 0) {
      run.check()
      const stack = bot.inventory.items().find((i) => i.name === name)
      if (!stack) break
      const k = Math.min(left, stack.count)
      await bot.toss(stack.type, null, k)
      left -= k
    }
    if (extra > 0) dropped.push(`${extra - left} ${name}`)
  }
  return dropped.length ? `My inventory was full, so I dropped ${dropped.join(', ')}.` : null
}
