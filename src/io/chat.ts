/**
 * The in-game chat channel: turns public lines addressed to the bot ("Ghost, ..." or "!...") and whispers into
 * router requests, and sends replies through the paced Outbox (public replies in public, private ones — errors,
 * denials — as whispers). It ignores the bot's own lines. It sees the bot only through the small ChatPort shape,
 * so it does not depend on mineflayer.
 */
import { newRequestId, type Request } from '../router/request.js'
import type { Router } from '../router/router.js'
import { logger } from '../util/log.js'
import { Outbox, type ChatSender } from './outbox.js'

const log = logger('chat')

/** The part of a mineflayer bot the chat channel uses. */
export interface ChatPort extends ChatSender {
  username: string
  on(event: 'chat' | 'whisper', listener: (username: string, message: string) => void): unknown
  removeListener(event: 'chat' | 'whisper', listener: (username: string, message: string) => void): unknown
}

export interface ChatChannelOptions { prefix: string; intervalMs: number }

export class ChatChannel {
  readonly outbox: Outbox
  private port: ChatPort | null = null
  private detachFn: (() => void) | null = null

  constructor(private readonly router: Router, private readonly opts: ChatChannelOptions) {
    this.outbox = new Outbox(() => this.port, opts.intervalMs)
  }

  /** Attach to a (new) bot session; detaches from the previous one. */
  attach(port: ChatPort): void {
    this.detach()
    this.port = port
    const onChat = (username: string, message: string): void => this.onLine(username, message, false)
    const onWhisper = (username: string, message: string): void => this.onLine(username, message, true)
    port.on('chat', onChat)
    port.on('whisper', onWhisper)
    this.detachFn = () => { port.removeListener('chat', onChat); port.removeListener('whisper', onWhisper) }
  }

  detach(): void { this.detachFn?.(); this.detachFn = null; this.port = null }

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

  private onLine(username: string, message: string, whisper: boolean): void {
    if (!this.port || username === this.port.username) return
    const addressed = this.addressed(message, whisper)
    if (!addressed) return
    const player = username
    const req: Request = {
      id: newRequestId(),
      source: whisper ? 'whisper' : 'chat',
      principal: { kind: 'minecraft', name: player },
      player,
      text: addressed.text,
      reply: (text, opts) => (whisper || opts?.private ? this.outbox.say(text, player) : this.outbox.say(text)),
    }
    this.router.handle(req, { strict: addressed.strict }).catch((err: Error) => log.error('chat request failed', { err: err.message }))
  }
}
