/**
 * Light on the generated practice world (issue 21): at noon a player on the surface sees sky light 15 at its head
 * (mineflayer's `block.skyLight`), deep stone is dark, a roof over the head lowers the light there to what spreads
 * in from the side (14), and a torch lights its block with 14 and its neighbour with 13 — the changes arrive as
 * `update_light` after the blocks change.
 */
import type { Bot } from 'mineflayer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ServerHandle } from '../../src/server/process.js'
import { command, quit, startServer, waitFor } from '../helpers/world.js'
import { joinCheckedPlayer, type ParseProblem } from '../helpers/protocol.js'

let server: ServerHandle
let bot: Bot
const problems: ParseProblem[] = []

beforeAll(async () => {
  server = await startServer({ seed: 1 })
  bot = await joinCheckedPlayer(server, 'Sunny', problems)
  await waitFor(() => bot.entity.onGround, 10_000, 'bot on ground')
  await command(bot, '/time set noon')
}, 40_000)

afterAll(async () => {
  quit(bot)
  await server?.stop()
})

describe('practice-world light', () => {
  it('sends sky light on the surface and none in deep stone', () => {
    const head = bot.entity.position.floored().offset(0, 1, 0)
    expect(bot.blockAt(head)!.skyLight).toBe(15)
    const deep = bot.blockAt(head.offset(0, -40, 0))!
    expect(deep.skyLight).toBe(0)
  })

  it('relights under a new roof and around a torch', async () => {
    const head = bot.entity.position.floored().offset(0, 1, 0)
    const roof = head.offset(0, 2, 0)
    await command(bot, `/setblock ${roof.x} ${roof.y} ${roof.z} stone`)
    await waitFor(() => bot.blockAt(head.offset(0, 1, 0))!.skyLight === 14, 5000, 'shaded under the roof')
    const torch = head.offset(2, -1, 0)
    await command(bot, `/setblock ${torch.x} ${torch.y - 1} ${torch.z} stone`)
    await command(bot, `/setblock ${torch.x} ${torch.y} ${torch.z} torch`)
    await waitFor(() => bot.blockAt(torch)!.light === 14, 5000, 'torch lit')
    expect(bot.blockAt(torch.offset(0, 1, 0))!.light).toBe(13)
    expect(problems).toEqual([])
  })
})
