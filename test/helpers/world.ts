/**
 * Integration-test helpers: start a real practice-server child process on a free port, connect real mineflayer
 * players (plain bots without our plugins, acting as humans) and our own bot (`joinGhost`), run server commands and wait for the server's
 * acknowledgement (never a fixed pause), wait for chat lines, record an item's slots and the window packets (for a
 * failed count's message), and tear everything down. Every wait has a timeout so
 * a dead connection fails the test instead of hanging it.
 */
import mineflayer, { type Bot } from 'mineflayer'
import { startEmbeddedServer, type ServerHandle, type StartOptions } from '../../src/server/process.js'
import { createBot } from '../../src/bot/create.js'
import { onceEvent, waitFor } from '../../src/util/async.js'

export const VERSION = '1.20.2'

export async function startServer(opts: StartOptions = {}): Promise<ServerHandle> {
  return startEmbeddedServer({ port: 0, version: VERSION, seed: 1, ...opts })
}

/** A plain mineflayer client acting as a human player (at the server's version when the handle says it). */
export async function joinPlayer(
  server: { port: number; version?: string },
  username: string,
  timeoutMs = 20_000,
): Promise<Bot> {
  const bot = mineflayer.createBot({
    host: '127.0.0.1',
    port: server.port,
    username,
    version: server.version ?? VERSION,
    hideErrors: true,
    logErrors: false,
  })
  bot.on('error', () => {
    /* surfaced through the spawn timeout */
  })
  await onceEvent(bot, 'spawn', { timeoutMs })
  return bot
}

/** Our bot (src/bot/create.ts, every plugin loaded) joined as `username`, spawned, its chunks loaded, on the ground. */
export async function joinGhost(server: { port: number; version?: string }, username: string): Promise<Bot> {
  const bot = createBot({
    host: '127.0.0.1',
    port: server.port,
    username,
    version: server.version ?? VERSION,
    auth: 'offline',
  })
  await onceEvent(bot, 'spawn', { timeoutMs: 20_000 })
  await bot.waitForChunksToLoad()
  await waitFor(() => bot.entity.onGround, 5000, 'landing')
  return bot
}

/**
 * A practice server started with `opts` and our bot joined to it as `username` by day: the start most files of
 * action tests share. The server is stopped again when the bot cannot join.
 */
export async function startWithGhost(
  opts: StartOptions,
  username: string,
): Promise<{ server: ServerHandle; bot: Bot }> {
  const server = await startServer(opts)
  try {
    const bot = await joinGhost(server, username)
    await command(bot, '/time set day')
    return { server, bot }
  } catch (err) {
    await server.stop()
    throw err
  }
}

/** Wait for a chat or whisper line from `from` (any line when omitted) matching `pattern`. */
export async function waitForMessage(
  bot: Bot,
  pattern: RegExp,
  opts: { from?: string; timeoutMs?: number } = {},
): Promise<string> {
  const seen: string[] = []
  const [, message] = await Promise.race([
    onceEvent<[string, string]>(bot, 'chat', {
      timeoutMs: opts.timeoutMs ?? 15_000,
      filter: (u, m) => {
        seen.push(m)
        return (!opts.from || u === opts.from) && pattern.test(m)
      },
    }),
    onceEvent<[string, string]>(bot, 'whisper', {
      timeoutMs: opts.timeoutMs ?? 15_000,
      filter: (u, m) => {
        seen.push(m)
        return (!opts.from || u === opts.from) && pattern.test(m)
      },
    }),
  ]).catch((err: Error) => {
    throw new Error(`${err.message}; expected ${pattern} but saw: ${JSON.stringify(seen.slice(-8))}`)
  })
  return message
}

/** Collect every chat/whisper line `from` says, for a test to inspect later. */
export function recordMessages(bot: Bot, from: string): Array<{ kind: 'chat' | 'whisper'; text: string }> {
  const out: Array<{ kind: 'chat' | 'whisper'; text: string }> = []
  bot.on('chat', (u, m) => {
    if (u === from) out.push({ kind: 'chat', text: m })
  })
  bot.on('whisper', (u, m) => {
    if (u === from) out.push({ kind: 'whisper', text: m })
  })
  return out
}

export interface CommandOptions {
  /** A failed command (an "Error: …" answer, a usage line, an unknown command) is returned, not thrown. */
  allowError?: boolean
  timeoutMs?: number
}

let ackCount = 0

/**
 * Run a server command as an opped player and wait for the server's acknowledgement: the line goes through the
 * practice server's `/ack <token> <command>` (src/server/plugins/admin-ack.ts), which answers once the command has
 * been handled, so the command's effects on this player (items, position, blocks, time, weather) have arrived
 * when this resolves. Other players see them a moment later: wait on their state. Resolves with '' when the command
 * succeeded, with the reason when it failed and `allowError` is set; otherwise a failure throws.
 */
export async function command(bot: Bot, line: string, opts: CommandOptions = {}): Promise<string> {
  const token = `${bot.username}-${++ackCount}`
  const prefix = `[ack ${token}] `
  const answer = onceEvent<[string]>(bot, 'messagestr', {
    timeoutMs: opts.timeoutMs ?? 15_000,
    filter: (m) => m.startsWith(prefix),
  })
  bot.chat(`/ack ${token} ${line.replace(/^\//, '')}`)
  const [m] = await answer.catch((err: Error) => {
    throw new Error(`${err.message}: no acknowledgement for ${line}`)
  })
  const outcome = m.slice(prefix.length)
  if (outcome === 'ok') return ''
  const reason = outcome.replace(/^failed: /, '')
  if (!opts.allowError) throw new Error(`${line} failed: ${reason}`)
  return reason
}

/**
 * Wait until the server has handled every packet `bot` sent so far and the bot has received what the server sent it
 * meanwhile: a no-op command's acknowledgement. Use it before asserting that something did *not* happen.
 */
/** `/setblock` a block and wait until `bot`'s client has it (the server's answer alone comes before the update). */
export async function setBlockSeen(bot: Bot, x: number, y: number, z: number, name: string): Promise<void> {
  await command(bot, `/setblock ${x} ${y} ${z} ${name}`)
  await waitFor(() => bot.blockAt(bot.entity.position.floored().set(x, y, z))?.name === name, 3000, `setblock ${name}`)
}

export async function syncWithServer(bot: Bot): Promise<void> {
  await command(bot, '/ping')
}

/**
 * Turn `player` to `yaw` and wait until `observer` sees the new heading. A look right after a `/tp` can be lost on the
 * way (seen once in a clean-clone run), and mineflayer sends a look only when it changed: the look is sent again,
 * nudged by a hair each time, until the observer has it (the acknowledgement, not a longer wait).
 */
export async function turnSeenBy(player: Bot, observer: Bot, yaw: number, timeoutMs = 5000): Promise<void> {
  let nudge = 0
  await waitFor(
    async () => {
      const seen = observer.players[player.username]?.entity?.yaw
      if (seen !== undefined && Math.abs(seen - yaw) < 0.2) return true
      nudge = nudge > 0 ? -0.01 : 0.01
      await player.look(yaw + nudge, 0, true)
      return false
    },
    timeoutMs,
    `${observer.username} sees ${player.username} turn`,
    250,
  )
}

/** How many of an item the bot holds (all inventory slots). */
export function countItem(bot: Bot, name: string): number {
  return bot.inventory
    .items()
    .filter((i) => i.name === name)
    .reduce((n, i) => n + i.count, 0)
}

/**
 * Record, until `stop`, every change of `name` in the bot's inventory and every window packet each way (set_slot,
 * window_items, open/close, clicks): `text` is the record, for an assertion's message when a count is off.
 */
export function recordSlots(bot: Bot, name: string): { text(): string; stop(): void } {
  const lines: string[] = []
  const t0 = Date.now()
  const at = (): string => `+${Date.now() - t0}ms`
  const onSlot = (slot: number, was: Bot['heldItem'], now: Bot['heldItem']): void => {
    if (was?.name === name || now?.name === name)
      lines.push(
        `${at()} inventory ${slot}: ${was?.count ?? 0} -> ${now?.count ?? 0} (window ${bot.currentWindow?.id ?? '-'})`,
      )
  }
  const show = (v: unknown): string => {
    try {
      return JSON.stringify(v).slice(0, 300)
    } catch {
      return '(unprintable)'
    }
  }
  const windowPackets = new Set(['set_slot', 'window_items', 'open_window', 'close_window', 'window_click'])
  const onPacket = (data: unknown, meta: { name: string }): void => {
    if (windowPackets.has(meta.name)) lines.push(`${at()} in ${meta.name} ${show(data)}`)
  }
  const write = bot._client.write
  const recording = (packet: string, params: unknown): void => {
    write.call(bot._client, packet, params)
    if (windowPackets.has(packet)) lines.push(`${at()} out ${packet} ${show(params)}`)
  }
  bot._client.write = recording
  bot.inventory.on('updateSlot', onSlot)
  bot._client.on('packet', onPacket)
  return {
    text: () => lines.join('\n'),
    stop: () => {
      bot.inventory.off('updateSlot', onSlot)
      bot._client.off('packet', onPacket)
      if (bot._client.write === recording) bot._client.write = write
    },
  }
}

/** `/give` the bot `n` of an item (needs op) and wait until exactly that many more are held. */
export async function giveItem(bot: Bot, name: string, n = 1): Promise<void> {
  const before = countItem(bot, name)
  await command(bot, `/give ${bot.username} ${name} ${n}`)
  await waitFor(() => countItem(bot, name) === before + n, 5000, `${n} ${name} given to ${bot.username}`)
}

export function quit(...bots: Array<Bot | null | undefined>): void {
  for (const b of bots) {
    try {
      b?.quit()
    } catch {
      /* already gone */
    }
  }
}

export { waitFor }
