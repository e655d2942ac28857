/**
 * Integration test of the underground search on the practice world (seed 1, generated terrain, no x-ray): from the
 * surface, holding a stone pickaxe, the bot explores underground for coal and then for iron — it digs toward the
 * level the knowledge gives and branch-mines (or walks caves) there until an ore is in sight — and then mines it,
 * each within the actions' own step and time budgets. The pickaxe comes from /give; everything else the bot does itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Bot } from 'mineflayer'
import { createBot } from '../../src/bot/create.js'
import type { ServerHandle } from '../../src/server/process.js'
import { execute } from '../../src/actions/index.js'
import { isUnderground } from '../../src/perception/vision.js'
import { onceEvent, waitFor } from '../../src/util/async.js'
import { VERSION, command, countItem, giveItem, startServer } from '../helpers/world.js'

let server: ServerHandle
let bot: Bot
const never = new AbortController().signal
/** An explore (180 s budget) and a mine (180 s budget) back to back. */
const SEARCH_MS = 400_000

beforeAll(async () => {
  server = await startServer({ seed: 1, practice: { naturalSpawning: false } })
  bot = createBot({ host: '127.0.0.1', port: server.port, username: 'Miner', version: VERSION, auth: 'offline' })
  await onceEvent(bot, 'spawn', { timeoutMs: 20_000 })
  await bot.waitForChunksToLoad()
  await waitFor(() => bot.entity.onGround, 5000, 'landing')
  await command(bot, '/time set day')
  await giveItem(bot, 'stone_pickaxe', 1)
})
afterAll(async () => {
  try {
    bot?.quit()
  } catch {
    /* gone */
  }
  await server?.stop()
})

describe('finding ore underground', () => {
  it(
    'finds coal under the surface and mines it',
    async () => {
      expect(isUnderground(bot)).toBe(false)
      const startY = bot.entity.position.y
      const seen = await execute(
        bot,
        { type: 'explore', object: 'coal_ore', strategy: 'underground' },
        { signal: never },
      )
      expect(seen.ok, seen.message).toBe(true)
      expect(seen.message).toMatch(/I can see coal_ore/)
      expect(bot.entity.position.y).toBeLessThan(startY)
      const mined = await execute(
        bot,
        { type: 'mine', object: 'coal', tool: 'stone_pickaxe', count: 1 },
        { signal: never },
      )
      expect(mined.ok, mined.message).toBe(true)
      expect(countItem(bot, 'coal')).toBeGreaterThanOrEqual(1)
    },
    SEARCH_MS,
  )

  it(
    'digs down to the iron level and finds and mines iron ore',
    async () => {
      const seen = await execute(
        bot,
        { type: 'explore', object: 'iron_ore', strategy: 'underground' },
        { signal: never },
      )
      expect(seen.ok, seen.message).toBe(true)
      expect(seen.message).toMatch(/I can see (deepslate_)?iron_ore/)
      const mined = await execute(
        bot,
        { type: 'mine', object: 'raw_iron', tool: 'stone_pickaxe', count: 1 },
        { signal: never },
      )
      expect(mined.ok, mined.message).toBe(true)
      expect(countItem(bot, 'raw_iron')).toBeGreaterThanOrEqual(1)
    },
    SEARCH_MS,
  )
})
