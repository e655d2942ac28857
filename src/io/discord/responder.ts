/**
 * How one Discord request is answered. A `Reporter` owns the request's view (reply lines + task embed) and shows it
 * as ONE public message that is edited as things change (edits coalesced to at most one per `editIntervalMs`),
 * while private replies (errors, denials) go out at once through the surface's private path. All surface calls are
 * serialised on one promise chain. A `Surface` maps those three operations onto discord.js: `InteractionSurface`
 * (reply / deferReply / editReply / ephemeral followUp, acknowledging within Discord's 3 s window) and
 * `MessageSurface` (reply to the user's message, edit it; private lines by DM, falling back to a reply).
 */
import { MessageFlags, type ChatInputCommandInteraction, type Message, type MessageMentionOptions } from 'discord.js'
import type { ReplyOptions } from '../../router/request.js'
import type { TaskEvent } from '../../schemas/task.js'
import { logger } from '../../util/log.js'
import { RequestView, type MessagePayload } from './view.js'

const log = logger('discord')

/** Never ping anyone with text we echo (command names, player text, LLM output). */
export const NO_MENTIONS: MessageMentionOptions = { parse: [], repliedUser: false }

export interface Surface {
  /** Acknowledge without content (interactions must be answered within 3 s). */
  ack(): Promise<void>
  /** Create, or edit, the one public message. */
  show(payload: MessagePayload): Promise<void>
  /** A line only the requester sees. */
  whisper(text: string): Promise<void>
  /** The request is over: remove placeholders; make sure it was answered at all. */
  settle(): Promise<void>
}

export interface ReporterOptions {
  editIntervalMs: number
  ackAfterMs: number
}

export class Reporter {
  readonly view = new RequestView()
  private chain: Promise<void> = Promise.resolve()
  private flushTimer: NodeJS.Timeout | null = null
  private pending: Promise<void> | null = null
  private ackTimer: NodeJS.Timeout | null
  private lastShowAt = 0
  private lastShown = ''
  private failures = 0
  private settled = false

  constructor(
    private readonly surface: Surface,
    private readonly opts: ReporterOptions,
  ) {
    this.ackTimer =
      opts.ackAfterMs >= 0
        ? setTimeout(() => {
            this.ackTimer = null
            void this.enqueue(() => this.surface.ack())
          }, opts.ackAfterMs)
        : null
    this.ackTimer?.unref()
  }

  /** The Request's `reply`: public text joins the one message; private text goes out at once. */
  reply(text: string, opts?: ReplyOptions): Promise<void> {
    if (opts?.private) return this.enqueue(() => this.surface.whisper(text))
    this.view.addLine(text)
    return this.changed()
  }

  event(e: TaskEvent): void {
    this.view.apply(e)
    void this.changed()
  }

  /** Show the final state, then let the surface clean up. Idempotent. */
  async settle(): Promise<void> {
    if (this.settled) return
    this.settled = true
    if (this.pending) await this.pending
    if (this.ackTimer) {
      clearTimeout(this.ackTimer)
      this.ackTimer = null
    }
    await this.enqueue(() => this.surface.settle())
  }

  /** Stop timers without sending anything (shutdown). */
  close(): void {
    if (this.ackTimer) clearTimeout(this.ackTimer)
    if (this.flushTimer) clearTimeout(this.flushTimer)
    this.ackTimer = null
    this.flushTimer = null
  }

  private changed(): Promise<void> {
    if (this.pending) return this.pending
    const delayMs = this.lastShowAt === 0 ? 0 : Math.max(0, this.lastShowAt + this.opts.editIntervalMs - Date.now())
    this.pending = new Promise((resolve) => {
      this.flushTimer = setTimeout(() => {
        this.flushTimer = null
        this.pending = null
        this.lastShowAt = Date.now()
        void this.enqueue(async () => {
          const payload = this.view.render()
          const key = JSON.stringify(payload)
          if (key === this.lastShown || (payload.content === '' && payload.embeds.length === 0)) return
          await this.surface.show(payload)
          this.lastShown = key
        }).then(resolve)
      }, delayMs)
    })
    return this.pending
  }

  private enqueue(op: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(async () => {
      if (this.failures >= 3) return // the interaction token expired or the channel is gone; stop trying
      try {
        await op()
        this.failures = 0
      } catch (err) {
        this.failures += 1
        log.warn('discord reply failed', { err: err instanceof Error ? err.message : String(err) })
      }
    })
    return this.chain
  }
}

/** A slash command interaction. The original response is the one public message. */
export class InteractionSurface implements Surface {
  private state: 'fresh' | 'deferred' | 'replied' = 'fresh'
  /** Which message is the public one: '@original' or a follow-up's id; null before there is one. */
  private publicId: string | null = null
  /** The deferred placeholder had to be filled (to keep a private follow-up private) but holds no real content. */
  private placeholderOnly = false

  constructor(private readonly interaction: ChatInputCommandInteraction) {}

  async ack(): Promise<void> {
    if (this.state !== 'fresh') return
    await this.interaction.deferReply()
    this.state = 'deferred'
  }

  async show(p: MessagePayload): Promise<void> {
    const i = this.interaction
    const body = { content: p.content, embeds: p.embeds, allowedMentions: NO_MENTIONS }
    if (this.state === 'fresh') {
      await i.reply(body)
      this.state = 'replied'
      this.publicId = '@original'
    } else if (this.state === 'deferred' && this.publicId === null) {
      await i.editReply(body)
      this.state = 'replied'
      this.publicId = '@original'
    } else if (this.publicId === null) {
      // The first answer was private; the public message is a follow-up.
      const m = await i.followUp(body)
      this.publicId = m.id
    } else {
      await i.editReply({ ...body, message: this.publicId })
    }
    this.placeholderOnly = false
  }

  async whisper(text: string): Promise<void> {
    const i = this.interaction
    const body = { content: text.slice(0, 2000), flags: MessageFlags.Ephemeral as const, allowedMentions: NO_MENTIONS }
    if (this.state === 'fresh') {
      await i.reply(body)
      this.state = 'replied'
      return
    }
    if (this.state === 'deferred' && this.publicId === null) {
      // After a public defer, Discord turns the first follow-up into the (public) deferred message; fill the
      // placeholder first so the private line really stays private. It is deleted at settle if nothing follows.
      await i.editReply({ content: '…', allowedMentions: NO_MENTIONS })
      this.state = 'replied'
      this.publicId = '@original'
      this.placeholderOnly = true
    }
    await i.followUp(body)
  }

  async settle(): Promise<void> {
    const i = this.interaction
    if (this.state === 'fresh')
      await i.reply({ content: 'Done.', flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS })
    else if ((this.state === 'deferred' && this.publicId === null) || this.placeholderOnly) await i.deleteReply()
  }
}

/** A plain message in the control channel. The bot's reply to it is the one public message. */
export class MessageSurface implements Surface {
  private answer: Message | null = null

  constructor(private readonly message: Message) {}

  async ack(): Promise<void> {
    /* messages need no acknowledgement */
  }

  async show(p: MessagePayload): Promise<void> {
    const body = { content: p.content, embeds: p.embeds, allowedMentions: NO_MENTIONS }
    if (this.answer) this.answer = await this.answer.edit(body)
    else this.answer = await this.message.reply(body)
  }

  async whisper(text: string): Promise<void> {
    const body = { content: text.slice(0, 2000), allowedMentions: NO_MENTIONS }
    try {
      await this.message.author.send(body)
    } catch (err) {
      log.debug('DM failed; answering in the channel', { err: err instanceof Error ? err.message : String(err) })
      await this.message.reply(body)
    }
  }

  async settle(): Promise<void> {
    /* nothing to clean up */
  }
}
