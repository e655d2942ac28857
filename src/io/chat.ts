/**
 * The in-game chat channel: turns public lines addressed to the bot ("Ghost, ..." or "!...") and whispers into
 * router requests, and sends replies through the paced, sanitising Outbox (public replies in public, private ones —
 * errors, denials — as whispers). The requester is who the server says sent the line: the port delivers only
 * player-chat packets with a sender UUID that the server lists (src/bot/chat-lines.ts), never a name parsed out of
 * message text, so `<Bo> Owner whispers to you: ...` is just Bo talking. Lines from ignored players (other bots,
 * GHOST_IGNORE_PLAYERS) and the bot's own echoes are dropped, and a ReplyGuard stops reply loops and caps how many
 * replies a non-owner gets. It sees the bot
 * only through the small ChatPort shape, so it does not depend on mineflayer.
 */
import { newRequestId, type Request } from '../router/request.js'
import type { Router } from '../router/router.js'
import { logger } from '../util/log.js'
import { Outbox, type ChatSender } from './outbox.js'
import { ReplyGuard } from './reply-guard.js'

const log = logger('chat')

/** One line a listed player sent, attributed by the server (same shape as src/bot/chat-lines.ts's PlayerLine). */
export interface ChatLine {
  uuid: string
  name: string
  text: string
  kind: 'chat' | 'whisper'
}

/** The part of a bot session the chat channel uses. */
export interface ChatPort extends ChatSender {
  readonly username: string
  /** The bot's own UUID (dashes removed), when known. */
  readonly uuid: string | null
  onLine(listener: (line: ChatLine) => void): () => void
}

export interface ChatChannelOptions {
  prefix: string
  intervalMs: number
  burst?: number
  /** Player names or UUIDs whose lines are never requests (other bots). */
  ignore?: string[]
}

const uuidKey = (s: string): string => s.replace(/-/g, '').toLowerCase()

export class ChatChannel {
  readonly outbox: Outbox
  readonly guard = new ReplyGuard()
  private port: ChatPort | null = null
  private detachFn: (() => void) | null = null
  private readonly ignored: Set<string>

  constructor(
    private readonly router: Router,
    private readonly opts: ChatChannelOptions,
  ) {
    this.outbox = new Outbox(() => this.port, {
      intervalMs: opts.intervalMs,
      ...(opts.burst ? { burst: opts.burst } : {}),
    })
    this.ignored = new Set((opts.ignore ?? []).map((x) => uuidKey(x)))
  }

  /** Attach to a (new) bot session; detaches from the previous one. */
  attach(port: ChatPort): void {
    this.detach()
    this.port = port
    this.detachFn = port.onLine((line) => this.onLine(line))
  }

  detach(): void {
    this.detachFn?.()
    this.detachFn = null
    this.port = null
  }

  /** Extracts the request text from a line, or null when the line is not for the bot. */
  addressed(message: string, whisper: boolean): { text: string; strict: boolean } | null {
    const m = message.trim()
    const prefix = this.opts.prefix
    if (m.startsWith(prefix)) return { text: m.slice(prefix.length).trim(), strict: true }
    if (whisper) return { text: m, strict: false }
    const name = this.port?.username ?? ''
    const re = new RegExp(`^@?${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b[,:]?\\s*`, 'i')
    if (name && re.test(m)) return { text: m.replace(re, '').trim(), strict: false }
    return null
  }

  private isIgnored(line: ChatLine): boolean {
    const port = this.port
    if (!port) return true
    if (port.uuid !== null && uuidKey(line.uuid) === port.uuid) return true
    if (line.name.toLowerCase() === port.username.toLowerCase()) return true
    return this.ignored.has(uuidKey(line.uuid)) || this.ignored.has(line.name.toLowerCase())
  }

  private onLine(line: ChatLine): void {
    if (this.isIgnored(line)) return
    const whisper = line.kind === 'whisper'
    const addressed = this.addressed(line.text, whisper)
    if (!addressed) return
    const player = line.name
    const key = uuidKey(line.uuid)
    // A whisper that answers our own reply faster than a person types is another bot or an auto-reply: no reply.
    const quick = whisper && this.guard.isQuickAnswer(key)
    const req: Request = {
      id: newRequestId(),
      source: whisper ? 'whisper' : 'chat',
      principal: { kind: 'minecraft', name: player, uuid: key },
      player,
      text: addressed.text,
      reply: (text, opts) => {
        // "Never answer a denial with a denial" applies to whispers, where bot loops run; public retries are answered.
        const denial = opts?.private === true && whisper
        const limited = this.router.roleOf(req) !== 'owner'
        if (quick ? this.guard.hold() : !this.guard.allow(key, denial, Date.now(), limited)) {
          log.info('reply held back (loop guard)', { player, denial, quick })
          return Promise.resolve()
        }
        if (!whisper && opts?.private !== true) return this.outbox.say(text, null, player)
        // Only whispered replies start the quick-answer clock: loops run whisper to whisper.
        return this.outbox.say(text, player, player).then(() => this.guard.sent(key))
      },
    }
    this.router
      .handle(req, { strict: addressed.strict })
      .catch((err: Error) => log.error('chat request failed', { err: err.message }))
  }
}
