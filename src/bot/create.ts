/**
 * Creates one mineflayer bot with the plugins every capability relies on: pathfinder, collectblock, pvp, tool, our
 * place-clear (a placement under the bot's own body waits until the server has seen it leave) and our wear (which
 * tools wore out); the pathfinder keeps a block off lava (lava-margin.ts), never digs through a work station, and
 * remembers the blocks it weighed (block-cache.ts). The only place bot options are assembled; reconnection lives in
 * supervisor.ts.
 */
import mineflayer, { type Bot } from 'mineflayer'
import { pathfinder, Movements } from 'mineflayer-pathfinder'
import { plugin as collectBlock } from 'mineflayer-collectblock'
import { plugin as pvp } from 'mineflayer-pvp'
import { plugin as tool } from 'mineflayer-tool'
import { cacheBlocks } from './block-cache.js'
import { keepOffLava } from './lava-margin.js'
import { placeClear } from './place-clear.js'
import { spareFor, toolBreaks } from './wear.js'
import { repairItems } from '../knowledge/index.js'
import { SPRINT_FOOD } from '../rules/policy.js'
import { STATIONS } from '../rules/index.js'

/** Blocks pathfinder may place to tower or bridge: ones no recipe the bot pursues needs. */
export const SCAFFOLD = ['dirt', 'netherrack', 'cobbled_deepslate', 'andesite', 'diorite', 'granite', 'tuff', 'gravel']

export interface BotOptions {
  host: string
  port: number
  username: string
  version: string
  auth: 'offline' | 'microsoft'
}

/**
 * mineflayer-pvp, listening on 'physicsTick' instead of the deprecated 'physicTick' its constructor names. mineflayer
 * emits both on every tick, one after the other, but prints a console warning for each 'physicTick' listener: one
 * stray line per bot on `npm start` and in every benchmark.
 */
function pvpOnPhysicsTick(bot: Bot): void {
  const on = bot.on
  bot.on = function (this: Bot, name: string, listener: (...args: unknown[]) => void) {
    return on.call(this, name === 'physicTick' ? 'physicsTick' : (name as 'physicsTick'), listener)
  } as Bot['on']
  try {
    pvp(bot)
  } finally {
    bot.on = on
  }
}

export function createBot(opts: BotOptions): Bot {
  // the version's defective item data repaired before the bot's registry makes an item (src/bot/wear.ts reads it)
  repairItems(opts.version)
  const bot = mineflayer.createBot({
    host: opts.host,
    port: opts.port,
    username: opts.username,
    version: opts.version,
    auth: opts.auth,
    hideErrors: true,
    checkTimeoutInterval: 60_000,
    logErrors: false,
    // No chat/whisper events parsed out of message text: requests come only from player_chat packets (chat-lines.ts).
    defaultChatPatterns: false,
  })
  bot.loadPlugin(pathfinder)
  bot.loadPlugin(tool)
  bot.loadPlugin(collectBlock)
  bot.loadPlugin(pvpOnPhysicsTick)
  bot.loadPlugin(placeClear)
  bot.loadPlugin(toolBreaks)
  bot.once('spawn', () => {
    const moves = new Movements(bot)
    moves.canDig = true
    moves.allowParkour = false
    moves.allow1by1towers = true
    // a path never digs through a crafting table or a furnace (mineflayer-pathfinder spares only chests): the walk to
    // a smelt's furnace drops dug out the table left standing for the next craft, and the plan climbed to the surface
    // for a log to make another (bench p14 and p15 compass seed 3, 65 s and a second way down); a player's stations
    // are spared the same way
    for (const name of STATIONS) {
      const id = bot.registry.blocksByName[name]?.id
      if (id !== undefined) moves.blocksCantBreak.add(id)
    }
    keepOffLava(bot, moves)
    cacheBlocks(bot, moves)
    // Scaffold only with junk blocks: never with cobblestone or planks the bot gathered to craft with.
    moves.scafoldingBlocks = SCAFFOLD.map((n) => bot.registry.itemsByName[n]?.id).filter(
      (id): id is number => id !== undefined,
    )
    bot.pathfinder.setMovements(moves)
    // the pathfinder's digs spare a tool's last uses too (src/bot/wear.ts)
    const fastest = bot.pathfinder.bestHarvestTool
    bot.pathfinder.bestHarvestTool = (block) => spareFor(bot, block) ?? fastest(block)
    // no sprinting when hungry, as vanilla's client does (read on every tick of a walk, so a change applies at once)
    const sprint = (): void => {
      moves.allowSprinting = bot.food > SPRINT_FOOD
    }
    sprint()
    bot.on('health', sprint)
  })
  return bot
}

export type { Bot }
