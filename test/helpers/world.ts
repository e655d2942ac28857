/**
 * Integration-test helpers: start a real practice-server child process on a free port, connect real mineflayer
 * players (plain bots without our plugins, acting as humans), wait for chat lines, and tear everything down.
 * Every wait has a timeout so a dead connection fails the test instead of hanging it.
 */
import mineflayer, { type Bot } from 'mineflayer'
import { startEmbeddedServer, type ServerHandle, type StartOptions } from '../../src/server/process.js'
import { onceEvent, waitFor } from '../../src/util/async.js'

export const VERSION = '1.20.2'

export async function startServer(opts: StartOptions = {}): Promise<ServerHandle> {
  return startEmbeddedServer({ port: 0, version: VERSION, seed: 1, ...opts })
}

/** A plain mineflayer client acting as a human player. */
export async function joinPlayer(server: { port: number }, username: string, timeoutMs = 20_000): Promise<Bot> {
  const bot = mineflayer.createBot({ host: '127.0.0.1', port: server.port, username, version: VERSION, hideErrors: true, logErrors: false })
  bot.on('error', () => { /* surfaced through the spawn timeout */ })
  await onceEvent(bot, 'spawn', { timeoutMs })
  return bot
}

/** Wait for a chat or whisper line from `from` (any line when omitted) matching `pattern`. */
export async function waitForMessage(bot: Bot, pattern: RegExp, opts: { from?: string; timeoutMs?: number } = {}): Promise<string> {
  const seen: string[] = []
  const [, message] = await Promise.race([
    onceEvent<[string, string]>(bot, 'chat', { timeoutMs: opts.timeoutMs ?? 15_000, filter: (u, m) => { seen.push(m); return (!opts.from || u === opts.from) && pattern.test(m) } }),
    onceEvent<[string, string]>(bot, 'whisper', { timeoutMs: opts.timeoutMs ?? 15_000, filter: (u, m) => { seen.push(m); return (!opts.from || u === opts.from) && pattern.test(m) } }),
  ]).catch((err: Error) => { throw new Error(`${err.message}; expected ${pattern} but saw: ${JSON.stringify(seen.slice(-8))}`) })
  return message
}

/** Collect every chat/whisper line `from` says, for a test to inspect later. */
export function recordMessages(bot: Bot, from: string): Array<{ kind: 'chat' | 'whisper'; text: string }> {
  const out: Array<{ kind: 'chat' | 'whisper'; text: string }> = []
  bot.on('chat', (u, m) => { if (u === from) out.push({ kind: 'chat', text: m }) })
  bot.on('whisper', (u, m) => { if (u === from) out.push({ kind: 'whisper', text: m }) })
  return out
}

/** Run a server command as an opped player and give the server a moment to apply it. */
export async function command(bot: Bot, line: string, settleMs = 300): Promise<void> {
  bot.chat(line.startsWith('/') ? line : `/${line}`)
  await new Promise((r) => setTimeout(r, settleMs))
}

/** How many of an item the bot holds (all inventory slots). */
export function countItem(bot: Bot, name: string): number {
  return bot.inventory.items().filter((i) => i.name === name).reduce((n, i) => n + i.count, 0)
}

/** `/give` the bot `n` of an item (needs op) and wait until exactly that many more are held. */
export async function giveItem(bot: Bot, name: string, n = 1): Promise<void> {
  const before = countItem(bot, name)
  await command(bot, `/give ${bot.username} ${name} ${n}`, 50)
  await waitFor(() => countItem(bot, name) === before + n, 5000, `${n} ${name} given to ${bot.username}`)
}

export function quit(...bots: Array<Bot | null | undefined>): void {
  for (const b of bots) { try { b?.quit() } catch { /* already gone */ } }
}

export { waitFor }
