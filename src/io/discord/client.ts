/**
 * The Discord network side: creates the discord.js Client with the intents the configuration needs (message
 * content only when a control channel is set), logs in, and hands interactions and messages to the
 * DiscordAdapter. `startDiscord` returns null and logs one line when DISCORD_TOKEN is unset; a failed login never
 * throws: the bot keeps running without Discord and the log says why and what to fix.
 */
import { Client, Events, GatewayIntentBits } from 'discord.js'
import type { Config } from '../../config.js'
import type { Router } from '../../router/router.js'
import { logger } from '../../util/log.js'
import { DiscordAdapter } from './adapter.js'
import { NO_MENTIONS } from './responder.js'

const log = logger('discord')

type DiscordConfig = Pick<Config, 'DISCORD_TOKEN' | 'DISCORD_CHANNEL_ID' | 'DISCORD_RELAY_CHAT' | 'GHOST_PREFIX'> &
  Partial<Pick<Config, 'DISCORD_GUILD_ID'>>

export class DiscordChannel {
  readonly client: Client
  readonly adapter: DiscordAdapter
  private stopping = false

  constructor(
    router: Router,
    private readonly config: DiscordConfig & { DISCORD_TOKEN: string },
  ) {
    const intents = [GatewayIntentBits.Guilds]
    if (config.DISCORD_CHANNEL_ID) intents.push(GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent)
    this.client = new Client({ intents, allowedMentions: NO_MENTIONS })
    this.adapter = new DiscordAdapter(router, this.client, {
      channelId: config.DISCORD_CHANNEL_ID,
      ...(config.DISCORD_GUILD_ID ? { guildId: config.DISCORD_GUILD_ID } : {}),
      prefix: config.GHOST_PREFIX,
      relayChat: config.DISCORD_RELAY_CHAT,
    })
    if (config.DISCORD_RELAY_CHAT && !config.DISCORD_CHANNEL_ID)
      log.warn('DISCORD_RELAY_CHAT is on but DISCORD_CHANNEL_ID is unset; nothing will be relayed')
    this.client.on(Events.InteractionCreate, (i) => {
      this.adapter.handleInteraction(i).catch((err: Error) => log.error('interaction failed', { err: err.message }))
    })
    this.client.on(Events.MessageCreate, (m) => {
      this.adapter.handleMessage(m).catch((err: Error) => log.error('message failed', { err: err.message }))
    })
    this.client.once(Events.ClientReady, (c) =>
      log.info('Discord connected', { user: c.user.tag, controlChannel: config.DISCORD_CHANNEL_ID ?? null }),
    )
    this.client.on(Events.Error, (err) => log.error('Discord client error', { err: err.message }))
  }

  /** Log in; resolves false (after logging why) when Discord refuses. Never throws. */
  async login(): Promise<boolean> {
    try {
      await this.client.login(this.config.DISCORD_TOKEN)
      return true
    } catch (err) {
      if (this.stopping) return false
      const msg = err instanceof Error ? err.message : String(err)
      const fix = /disallowed intents/i.test(msg)
        ? 'enable the Message Content intent for the bot in the Discord developer portal, or unset DISCORD_CHANNEL_ID'
        : 'check DISCORD_TOKEN (Bot token from the developer portal) and the network'
      log.error('Discord login failed; running without Discord', { err: msg, fix })
      await this.stop()
      return false
    }
  }

  relayChat(username: string, message: string): void {
    if (!this.stopping) this.adapter.relayChat(username, message)
  }

  async stop(): Promise<void> {
    if (this.stopping) return
    this.stopping = true
    this.adapter.close()
    await this.client.destroy()
  }
}

/**
 * Start the Discord channel when DISCORD_TOKEN is set (logging in in the background, so start-up and shutdown never
 * wait on Discord); otherwise say so once and return null.
 */
export function startDiscord(config: DiscordConfig, router: Router): DiscordChannel | null {
  if (!config.DISCORD_TOKEN) {
    log.info('Discord off (set DISCORD_TOKEN to enable it)')
    return null
  }
  const channel = new DiscordChannel(router, { ...config, DISCORD_TOKEN: config.DISCORD_TOKEN })
  void channel.login()
  return channel
}
