/**
 * Test-side Discord: a real discord.js Client that never logs in. Inbound, raw gateway packets (GUILD_CREATE,
 * INTERACTION_CREATE, MESSAGE_CREATE) are fed to discord.js's own packet handlers, so the adapter receives the
 * same ChatInputCommandInteraction / Message objects a live gateway would produce. Outbound, every HTTP call is
 * captured at @discordjs/rest's `makeRequest` hook (the layer that would call fetch) and answered like the Discord
 * API would, so replies, edits, follow-ups and DMs go through discord.js unchanged. Nothing here is our code.
 */
import { Client, GatewayIntentBits, Status, type RESTOptions } from 'discord.js'

type ResponseLike = Awaited<ReturnType<RESTOptions['makeRequest']>>

export const APP_ID = '400000000000000001'
export const GUILD_ID = '200000000000000001'
export const CHANNEL_ID = '300000000000000001'
export const BOT_ID = '999000000000000001'

export interface ApiCall {
  method: string
  path: string
  query: string
  body: Record<string, unknown> | null
}

let snow = 500000000000000000n
const nextId = (): string => {
  snow += 1n
  return snow.toString()
}

export class FakeDiscordApi {
  readonly calls: ApiCall[] = []
  /** Make `POST /users/@me/channels` fail like a user with closed DMs. */
  dmFails = false

  readonly makeRequest: RESTOptions['makeRequest'] = async (url, init) => {
    const u = new URL(url)
    const path = decodeURIComponent(u.pathname).replace(/^\/api\/v\d+/, '')
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : null
    const method = (init.method ?? 'GET').toUpperCase()
    this.calls.push({ method, path, query: u.search, body })
    // Node's global Response is what @discordjs/rest gets from fetch; only the stream typings of the two differ.
    return this.answer(method, path, body) as unknown as ResponseLike
  }

  /** Calls other than the interaction/webhook/channel ones a test does not care about. */
  find(method: string, re: RegExp): ApiCall[] {
    return this.calls.filter((c) => c.method === method && re.test(c.path))
  }

  private answer(method: string, path: string, body: Record<string, unknown> | null): Response {
    const json = (status: number, data: unknown): Response =>
      new Response(JSON.stringify(data), { status, headers: { 'content-type': 'application/json' } })
    if (method === 'POST' && /^\/interactions\/\d+\/[^/]+\/callback$/.test(path))
      return new Response(null, { status: 204 })
    if (method === 'DELETE') return new Response(null, { status: 204 })
    if (method === 'POST' && path === '/users/@me/channels') {
      if (this.dmFails) return json(403, { message: 'Cannot send messages to this user', code: 50007 })
      return json(200, { id: nextId(), type: 1, recipients: [user(String(body?.recipient_id ?? '0'), 'someone')] })
    }
    if (method === 'PUT' && /^\/applications\/\d+\/guilds\/\d+\/commands$/.test(path)) {
      return json(
        200,
        (body as unknown as Array<Record<string, unknown>>).map((c) => ({
          ...c,
          id: nextId(),
          application_id: APP_ID,
          version: '1',
        })),
      )
    }
    const channelMsg = /^\/channels\/(\d+)\/messages(?:\/(\d+))?$/.exec(path)
    if (channelMsg) return json(200, message(channelMsg[2] ?? nextId(), channelMsg[1]!, body))
    if (/^\/webhooks\/\d+\/[^/]+(\/messages\/[^/]+)?$/.test(path)) return json(200, message(nextId(), CHANNEL_ID, body))
    return json(404, { message: `Unknown route ${method} ${path}`, code: 0 })
  }
}

export function user(id: string, username: string): Record<string, unknown> {
  return { id, username, discriminator: '0', global_name: username[0]!.toUpperCase() + username.slice(1), avatar: null }
}

/** A plain message object as the API sends it: `id` in `channelId` by `author`, with `extra` fields on top. */
function messageObject(
  id: string,
  channelId: string,
  author: Record<string, unknown>,
  extra: Record<string, unknown>,
): Record<string, unknown> {
  return {
    id,
    channel_id: channelId,
    author,
    content: '',
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: [],
    embeds: [],
    pinned: false,
    type: 0,
    ...extra,
  }
}

/** The bot's own message as the API answers a send or an edit with `body`. */
function message(id: string, channelId: string, body: Record<string, unknown> | null): Record<string, unknown> {
  return messageObject(
    id,
    channelId,
    { ...user(BOT_ID, 'ghost'), bot: true },
    {
      content: body?.content ?? '',
      embeds: body?.embeds ?? [],
      flags: body?.flags ?? 0,
    },
  )
}

function role(id: string, name: string): Record<string, unknown> {
  return {
    id,
    name,
    color: 0,
    hoist: false,
    position: 0,
    permissions: '0',
    managed: false,
    mentionable: false,
    flags: 0,
  }
}

interface FakeShard {
  id: number
  checkReady(): void
}

/** What the gateway-side of a test does: deliver packets to discord.js's handlers. */
export class FakeGateway {
  readonly api = new FakeDiscordApi()
  readonly client: Client
  private seq = 0

  constructor() {
    this.client = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent],
      rest: { makeRequest: this.api.makeRequest, retries: 0 },
    })
    this.client.rest.setToken('test-token')
    // Packets go to the (private) handler the gateway connection calls for each dispatch; READY sets client.user.
    this.ws.status = Status.Ready
    this.packet('READY', {
      v: 10,
      user: { ...user(BOT_ID, 'ghost'), bot: true },
      guilds: [],
      session_id: 's',
      resume_gateway_url: 'wss://x',
      application: { id: APP_ID, flags: 0 },
    })
    this.packet('GUILD_CREATE', {
      id: GUILD_ID,
      name: 'Ghost test',
      icon: null,
      owner_id: '111',
      afk_timeout: 300,
      verification_level: 0,
      default_message_notifications: 0,
      explicit_content_filter: 0,
      features: [],
      mfa_level: 0,
      system_channel_flags: 0,
      premium_tier: 0,
      preferred_locale: 'en-US',
      nsfw_level: 0,
      emojis: [],
      stickers: [],
      members: [],
      presences: [],
      voice_states: [],
      threads: [],
      stage_instances: [],
      guild_scheduled_events: [],
      soundboard_sounds: [],
      roles: [role(GUILD_ID, '@everyone'), role('777', 'builders')],
      channels: [
        { id: CHANNEL_ID, type: 0, name: 'ghost-control', position: 0, permission_overwrites: [], guild_id: GUILD_ID },
      ],
    })
  }

  private get ws(): { status: Status; handlePacket(p: { t: string; d: unknown }, shard: FakeShard): boolean } {
    return this.client.ws as unknown as {
      status: Status
      handlePacket(p: { t: string; d: unknown }, shard: FakeShard): boolean
    }
  }

  packet(t: string, d: unknown): void {
    this.ws.handlePacket({ t, d }, { id: 0, checkReady: () => {} })
  }

  /** INTERACTION_CREATE for `/name option:value` typed by `userId` with `roles`. */
  slash(
    name: string,
    userId: string,
    username: string,
    roles: string[],
    option?: { name: string; value: string },
  ): void {
    this.seq += 1
    this.packet('INTERACTION_CREATE', {
      id: nextId(),
      application_id: APP_ID,
      type: 2,
      token: `itok${this.seq}`,
      version: 1,
      guild_id: GUILD_ID,
      channel_id: CHANNEL_ID,
      channel: { id: CHANNEL_ID, type: 0, guild_id: GUILD_ID },
      locale: 'en-US',
      guild_locale: 'en-US',
      app_permissions: '0',
      entitlements: [],
      authorizing_integration_owners: { 0: GUILD_ID },
      context: 0,
      member: {
        user: user(userId, username),
        roles,
        joined_at: new Date().toISOString(),
        deaf: false,
        mute: false,
        permissions: '0',
        flags: 0,
        nick: null,
      },
      data: {
        id: nextId(),
        name,
        type: 1,
        guild_id: GUILD_ID,
        ...(option ? { options: [{ name: option.name, type: 3, value: option.value }] } : {}),
      },
    })
  }

  /** MESSAGE_CREATE of `content` in `channelId` by `userId`. */
  say(content: string, userId: string, username: string, roles: string[], channelId = CHANNEL_ID): string {
    const id = nextId()
    this.packet(
      'MESSAGE_CREATE',
      messageObject(id, channelId, user(userId, username), {
        guild_id: GUILD_ID,
        content,
        member: { roles, joined_at: new Date().toISOString(), deaf: false, mute: false, flags: 0, nick: null },
      }),
    )
    return id
  }

  async destroy(): Promise<void> {
    await this.client.destroy()
  }
}
