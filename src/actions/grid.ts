/**
 * The 2×2 crafting grid of the inventory (window 0, slots 1–4) as the server holds it. mineflayer's `bot.craft` in
 * that grid predicts every slot and clears its model of the grid on its own, never asking the server, and it never
 * closes window 0 (a vanilla client does whenever it shuts the inventory screen, and the server then hands the grid
 * back). So an item the server kept in the grid is invisible to the bot, and every later 2×2 craft lays its
 * ingredients beside it, matches no recipe and loses them to the grid as well (bench d72 seed 77, d74 seed 90: two
 * planks gone, "only 0 arrived"). `settleGrid` asks the server for the whole window (mineflayer's own resync: a
 * no-op click with an impossible state id), and when the grid holds anything closes window 0 as a vanilla client
 * does, so the server returns it to the inventory, and resyncs again.
 */
import type { Bot } from 'mineflayer'
import { withTimeout } from '../util/async.js'
import { logger } from '../util/log.js'

const log = logger('craft')

/** Window-0 slots of the 2×2 grid (0 is its result). */
const GRID_SLOTS = [1, 2, 3, 4] as const
/** Longest wait for the server's answer to a resync (one round trip). */
const RESYNC_MS = 2000

/** mineflayer's resync of a window, which its typings leave out (lib/plugins/inventory.js `bot._syncWindow`). */
interface Resyncing {
  _syncWindow?: (window: unknown) => Promise<void>
}

/** Ask the server for the whole of window 0; a resync it does not answer is logged and leaves the model as it was. */
async function resync(bot: Bot): Promise<void> {
  const sync = (bot as unknown as Resyncing)._syncWindow
  if (!sync) return
  await withTimeout(sync.call(bot, bot.inventory), RESYNC_MS, 'inventory resync').catch((err: unknown) =>
    log.debug('resync failed', { err: String(err) }),
  )
}

/** What the grid holds in the bot's model, as `name×count`. */
function gridItems(bot: Bot): string[] {
  return GRID_SLOTS.flatMap((s) => {
    const it = bot.inventory.slots[s]
    return it ? [`${it.name}×${it.count}`] : []
  })
}

/**
 * Bring the bot's model of window 0 to the server's and empty the 2×2 grid into the inventory. Returns what the grid
 * held (empty when nothing was left there).
 */
export async function settleGrid(bot: Bot): Promise<string[]> {
  if (bot.currentWindow) return []
  await resync(bot)
  const left = gridItems(bot)
  if (left.length === 0) return []
  log.info('grid held items', { items: left })
  bot._client.write('close_window', { windowId: 0 })
  await resync(bot)
  return left
}
