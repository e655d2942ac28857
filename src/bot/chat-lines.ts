/**
 * Who said what, as the server reports it: turns the mineflayer bot's `player_chat` packets into `PlayerLine`s —
 * the sender's UUID (from the packet, never from message text) resolved to a name through `bot.players`, the text
 * the sender typed, and whether it was public chat or a whisper to the bot. Everything else is dropped: system
 * messages (plugins, /say output, servers that send chat as system text), emotes (/me), team messages, our own
 * echoes (outgoing whispers, our own lines) and senders the server has not listed. The bot is created with
 * mineflayer's default chat patterns off (src/bot/create.ts), so no `chat`/`whisper` event is ever parsed out of
 * text. The one adapter the chat channel (src/io/chat.ts) sees the bot through.
 */
import type { Bot } from 'mineflayer'
import { logger } from '../util/log.js'

const log = logger('chat-lines')

export type LineKind = 'chat' | 'whisper'

/** One line a listed player sent, attributed by the server. */
export interface PlayerLine {
  uuid: string
  name: string
  text: string
  kind: LineKind
}

/** The chat types (registry names from the login codec) that can carry a request. */
const KINDS: Record<string, LineKind> = {
  'minecraft:chat': 'chat',
  'minecraft:msg_command_incoming': 'whisper',
}

/** UUIDs compare without dashes and case. */
export const normaliseUuid = (u: string): string => u.replace(/-/g, '').toLowerCase()

/** The raw fields of minecraft-protocol's `playerChat` event that we read. */
interface RawPlayerChat {
  sender?: string
  plainMessage?: string
  type?: number | { chatType?: number }
}

/** Map a raw player-chat event to a line, or null (with the reason) when it cannot be a request. */
export function classify(
  bot: Pick<Bot, 'players' | 'registry'> & { player?: { uuid?: string } | null },
  data: RawPlayerChat,
  selfUuid: string | null,
): PlayerLine | { skip: string } {
  if (typeof data.sender !== 'string' || typeof data.plainMessage !== 'string') return { skip: 'no sender or text' }
  const uuid = normaliseUuid(data.sender)
  if (selfUuid !== null && selfUuid === uuid) return { skip: 'own line' }
  const typeIndex = typeof data.type === 'object' && data.type !== null ? data.type.chatType : data.type
  const byId = (bot.registry as unknown as { chatFormattingById?: Record<number, { name?: string }> })
    .chatFormattingById
  const typeName = typeIndex === undefined ? undefined : byId?.[typeIndex]?.name
  const kind = typeName ? KINDS[typeName] : undefined
  if (!kind) return { skip: `chat type ${typeName ?? String(typeIndex)}` }
  const player = Object.values(bot.players).find((p) => typeof p?.uuid === 'string' && normaliseUuid(p.uuid) === uuid)
  if (!player) return { skip: 'sender not in the player list' }
  return { uuid, name: player.username, text: data.plainMessage, kind }
}

/** The chat port of one bot session: send lines, and listen to attributed player lines. */
export interface BotChatPort {
  readonly username: string
  readonly uuid: string | null
  chat(line: string): void
  whisper(player: string, line: string): void
  onLine(listener: (line: PlayerLine) => void): () => void
}

/** How long a line from a sender the player list does not show yet waits for that player's entry. */
const UNLISTED_WAIT_MS = 3000

/** The bot's own UUID: from the login (minecraft-protocol's client.uuid), else from its player entry. */
function selfUuidOf(bot: Bot): string | null {
  const u = (bot._client as { uuid?: unknown }).uuid
  if (typeof u === 'string' && u.length > 0) return normaliseUuid(u)
  return bot.player?.uuid ? normaliseUuid(bot.player.uuid) : null
}

export function chatPortOf(bot: Bot): BotChatPort {
  return {
    get username() {
      return bot.username
    },
    get uuid() {
      return selfUuidOf(bot)
    },
    chat: (line) => bot.chat(line),
    whisper: (player, line) => bot.whisper(player, line),
    onLine(listener) {
      let closed = false
      const timers = new Set<NodeJS.Timeout>()
      const deliver = (data: RawPlayerChat, waitedMs: number): void => {
        if (closed) return
        const out = classify(bot, data, selfUuidOf(bot))
        if (!('skip' in out)) {
          listener(out)
          return
        }
        // Right after (re)joining, a line can arrive before the sender's player-list entry: wait a little for it.
        if (out.skip === 'sender not in the player list' && waitedMs < UNLISTED_WAIT_MS) {
          const t = setTimeout(() => {
            timers.delete(t)
            deliver(data, waitedMs + 250)
          }, 250)
          timers.add(t)
          return
        }
        log.debug('ignored chat packet', { why: out.skip })
      }
      const onChat = (data: RawPlayerChat): void => deliver(data, 0)
      bot._client.on('playerChat', onChat)
      return () => {
        closed = true
        for (const t of timers) clearTimeout(t)
        bot._client.removeListener('playerChat', onChat)
      }
    },
  }
}
