/**
 * The Discord adapter: turns discord.js objects into router Requests and router answers into discord.js calls,
 * with no knowledge of how the client connects (see client.ts for the gateway login). Slash command interactions
 * and plain messages in the control channel (DISCORD_CHANNEL_ID) become Requests with a `discord` principal (user
 * id, role ids, display name) so permissions.ts assigns the role; each request gets one Reporter that shows one
 * public message (task progress edits it) and sends private lines — every error and denial the router reports —
 * ephemerally (interactions) or by DM (messages). Optionally relays in-game chat into the control channel.
 */
import {
  escapeMarkdown,
  type APIInteractionGuildMember,
  type ChatInputCommandInteraction,
  type Client,
  type GuildMember,
  type Interaction,
  type Message,
  type User,
} from 'discord.js'
import { newRequestId, type Request } from '../../router/request.js'
import type { Router } from '../../router/router.js'
import type { TaskEvent } from '../../schemas/task.js'
import { logger } from '../../util/log.js'
import { InteractionSurface, MessageSurface, NO_MENTIONS, Reporter, type Surface } from './responder.js'
import { requestText } from './slash.js'

const log = logger('discord')

export interface DiscordAdapterOptions {
  /** Messages in this channel that mention the bot or start with the prefix are requests; relayed chat goes here. */
  channelId?: string
  /** When set, messages and slash commands from any other guild (server) are ignored. */
  guildId?: string
  /** The chat prefix; in the control channel it marks a line as a command (typos get "did you mean"). */
  prefix: string
  relayChat?: boolean
  /** Least time between two edits of the same message (Discord rate-limits edits). */
  editIntervalMs?: number
  /** Defer an interaction that has no answer after this long (Discord's limit is 3 s). */
  ackAfterMs?: number
  relayIntervalMs?: number
}

/** The router names a request's task `t-<request id>` (src/router/router.ts). */
const taskIdFor = (requestId: string): string => `t-${requestId}`
const isQueued = (router: Router, taskId: string): boolean =>
  router.queue.current()?.id === taskId || router.queue.pending().some((t) => t.id === taskId)

/** Role ids of a member (cached GuildMember or the raw interaction member), plus @everyone (= the guild id). */
export function roleIdsOf(
  member: GuildMember | APIInteractionGuildMember | null | undefined,
  guildId: string | null,
): string[] {
  const ids: string[] = []
  if (member) {
    try {
      const r = member.roles
      ids.push(...(Array.isArray(r) ? r : [...r.cache.keys()]))
    } catch (err) {
      log.debug('member roles unavailable', { err: err instanceof Error ? err.message : String(err) })
    }
  }
  if (guildId) ids.push(guildId)
  return [...new Set(ids)]
}

export class DiscordAdapter {
  private readonly reporters = new Map<string, Reporter>()
  private readonly unsubscribe: () => void
  private relayLines: string[] = []
  private relayTimer: NodeJS.Timeout | null = null

  constructor(
    private readonly router: Router,
    private readonly client: Client,
    private readonly opts: DiscordAdapterOptions,
  ) {
    this.unsubscribe = router.onTaskEvent((e) => this.onTaskEvent(e))
  }

  /** interactionCreate: slash commands only; everything else is ignored. */
  async handleInteraction(interaction: Interaction): Promise<void> {
    if (!interaction.isChatInputCommand()) return
    if (this.opts.guildId && interaction.guildId !== this.opts.guildId) return
    const i: ChatInputCommandInteraction = interaction
    const member = i.member
    const displayName = member && 'displayName' in member ? member.displayName : (member?.nick ?? i.user.displayName)
    await this.dispatch(
      new InteractionSurface(i),
      i.user,
      roleIdsOf(member, i.guildId),
      displayName,
      requestText(i),
      true,
    )
  }

  /** messageCreate: messages in the control channel addressed to the bot, from people (not bots or webhooks). */
  async handleMessage(message: Message): Promise<void> {
    if (!this.opts.channelId || message.channelId !== this.opts.channelId) return
    if (this.opts.guildId && message.guildId !== this.opts.guildId) return
    if (message.author.bot || message.webhookId || message.system) return
    const addressed = this.addressed(message.content)
    if (!addressed) return
    const displayName = message.member?.displayName ?? message.author.displayName
    await this.dispatch(
      new MessageSurface(message),
      message.author,
      roleIdsOf(message.member, message.guildId),
      displayName,
      addressed.text,
      addressed.strict,
    )
  }

  /**
   * Strips a leading mention of the bot and the chat prefix; null when the message has neither (people talking in
   * the channel are not talking to the bot) or nothing is left.
   */
  addressed(content: string): { text: string; strict: boolean } | null {
    let m = content.trim()
    const me = this.client.user?.id
    const mention = me ? new RegExp(`^<@!?${me}>[,:]?\\s*`) : null
    const mentioned = mention?.test(m)
    if (mention) m = m.replace(mention, '')
    let strict = false
    if (m.startsWith(this.opts.prefix)) {
      m = m.slice(this.opts.prefix.length).trim()
      strict = true
    }
    if (!mentioned && !strict) return null
    return m ? { text: m, strict } : null
  }

  /** An in-game chat line; sent to the control channel in batches when DISCORD_RELAY_CHAT is on. */
  relayChat(username: string, message: string): void {
    if (!this.opts.relayChat || !this.opts.channelId) return
    this.relayLines.push(`**${escapeMarkdown(username)}**: ${escapeMarkdown(message)}`)
    if (this.relayLines.length > 50) this.relayLines.splice(0, this.relayLines.length - 50)
    this.relayTimer ??= setTimeout(() => {
      void this.flushRelay()
    }, this.opts.relayIntervalMs ?? 2000)
  }

  /** Stop listening for task events and drop timers (shutdown). */
  close(): void {
    this.unsubscribe()
    if (this.relayTimer) clearTimeout(this.relayTimer)
    this.relayTimer = null
    for (const r of this.reporters.values()) r.close()
    this.reporters.clear()
  }

  private async dispatch(
    surface: Surface,
    user: User,
    roleIds: string[],
    displayName: string,
    text: string,
    strict: boolean,
  ): Promise<void> {
    const reporter = new Reporter(surface, {
      editIntervalMs: this.opts.editIntervalMs ?? 1500,
      ackAfterMs: this.opts.ackAfterMs ?? 2000,
    })
    const req: Request = {
      id: newRequestId(),
      source: 'discord',
      principal: { kind: 'discord', userId: user.id, roleIds, displayName },
      // "@name" can never be a Minecraft name, so Discord users cannot pass for players (e.g. for `stop`).
      player: `@${user.username}`,
      text,
      reply: (t, o) => reporter.reply(t, o),
    }
    const taskId = taskIdFor(req.id)
    this.reporters.set(taskId, reporter)
    try {
      await this.router.handle(req, { strict })
    } catch (err) {
      // The router answers command errors itself; this is the last line for anything else.
      log.error('discord request failed', { err: err instanceof Error ? (err.stack ?? err.message) : String(err) })
      await reporter.reply('Something went wrong on my side; the error is in the log.', { private: true })
    } finally {
      if (!reporter.view.isTask && !isQueued(this.router, taskId)) {
        this.reporters.delete(taskId)
        await reporter.settle()
      }
    }
  }

  private onTaskEvent(e: TaskEvent): void {
    const r = this.reporters.get(e.taskId)
    if (!r) return
    r.event(e)
    if (e.kind === 'finished') {
      this.reporters.delete(e.taskId)
      void r.settle()
    }
  }

  private async flushRelay(): Promise<void> {
    this.relayTimer = null
    const lines = this.relayLines.splice(0)
    if (lines.length === 0 || !this.opts.channelId) return
    try {
      const channel = await this.client.channels.fetch(this.opts.channelId)
      if (!channel?.isSendable()) {
        log.warn('relay channel is not a text channel the bot can send to', { channel: this.opts.channelId })
        return
      }
      let chunk = ''
      for (const line of lines) {
        const l = line.slice(0, 1900)
        if (chunk && chunk.length + l.length + 1 > 1900) {
          await channel.send({ content: chunk, allowedMentions: NO_MENTIONS })
          chunk = ''
        }
        chunk = chunk ? `${chunk}\n${l}` : l
      }
      if (chunk) await channel.send({ content: chunk, allowedMentions: NO_MENTIONS })
    } catch (err) {
      log.warn('chat relay failed', { err: err instanceof Error ? err.message : String(err) })
    }
  }
}
