/**
 * GHOST_PROTECTED at the hands: with a protected box around the bot, the handlers that dig and place refuse with
 * `unsafe` and leave the world as it was (the patroller and the critic refuse earlier; this is the last line).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Bot } from 'mineflayer'
import { createBot } from '../../src/bot/create.js'
import type { ServerHandle } from '../../src/server/process.js'
import { execute } from '../../src/actions/index.js'
import { BoxList } from '../../src/schemas/region.js'
import { onceEvent, waitFor } from '../../src/util/async.js'
import { VERSION, countItem, giveItem, startServer } from '../helpers/world.js'

let server: ServerHandle
let bot: Bot
const never = new AbortController().signal

beforeAll(async () => {
  server = await startServer({ generator: 'superflat' })
  bot = createBot({ host: '127.0.0.1', port: server.port, username: 'GhostSafe', version: VERSION, auth: 'offline' })
  await onceEvent(bot, 'spawn', { timeoutMs: 20_000 })
  await bot.waitForChunksToLoad()
  await waitFor(() => bot.entity.onGround, 5000, 'landing')
}, 60_000)
afterAll(async () => {
  try {
    bot?.quit()
  } catch {
    /* gone */
  }
  await server?.stop()
})

describe('protected boxes', () => {
  it('refuses to dig down or place inside one, and changes nothing', async () => {
    const p = bot.entity.position.floored()
    const box = BoxList.parse(`${p.x - 4} ${p.y - 10} ${p.z - 4} ${p.x + 4} ${p.y + 4} ${p.z + 4}`)
    const below = bot.blockAt(p.offset(0, -1, 0))!.name
    await giveItem(bot, 'wooden_pickaxe', 1)
    const dig = await execute(
      bot,
      { type: 'dig_down', ylevel: p.y - 3, tool: 'wooden_pickaxe' },
      { signal: never, protected: box },
    )
    expect(dig, dig.message).toMatchObject({ ok: false, reason: 'unsafe' })
    expect(dig.message).toMatch(/protected area/)
    expect(bot.blockAt(p.offset(0, -1, 0))!.name).toBe(below)
    await giveItem(bot, 'dirt', 1)
    const place = await execute(bot, { type: 'place', object: 'dirt' }, { signal: never, protected: box })
    expect(place, place.message).toMatchObject({ ok: false, reason: 'unsafe' })
    expect(countItem(bot, 'dirt')).toBe(1)
    // the same actions outside any box work
    const ok = await execute(bot, { type: 'place', object: 'dirt' }, { signal: never })
    expect(ok, ok.message).toMatchObject({ ok: true })
  }, 60_000)
})
