/**
 * The Discord adapter against real discord.js objects: slash-command interactions and control-channel messages
 * arrive as raw gateway packets through discord.js's own handlers, our Router (real commands plus small test-only
 * ones) answers, and every HTTP call discord.js makes is captured at its REST `makeRequest` hook. Covers: roles
 * from user/role ids, ephemeral denials, one edited message for task progress, the defer path, control-channel
 * messages (reply + DM for private lines), chat relay, slash-command generation and the deploy request.
 */
import { spawnSync } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { all } from '../../../commands/index.js'
import { DiscordAdapter } from '../../../src/io/discord/adapter.js'
import { startDiscord } from '../../../src/io/discord/client.js'
import { deployGuildCommands, missingDeploySettings } from '../../../src/io/discord/deploy.js'
import { slashCommands } from '../../../src/io/discord/slash.js'
import type { AuditLog } from '../../../src/router/audit.js'
import { defineCommand, type CommandDefinition } from '../../../src/router/command.js'
import type { Router } from '../../../src/router/router.js'
import type { Outcome } from '../../../src/schemas/task.js'
import { sleep, waitFor } from '../../../src/util/async.js'
import { GhostError } from '../../../src/util/errors.js'
import { APP_ID, BOT_ID, CHANNEL_ID, FakeDiscordApi, FakeGateway, GUILD_ID } from './discord-gateway.js'
import { progressCommand } from '../../helpers/progress-command.js'
import { offlineRouter } from '../../helpers/router.js'

const OWNER = '111000000000000001'
const MEMBER = '222000000000000001'
const STRANGER = '333000000000000001'
const TRUSTED_ROLE = '777'

/** Test-only task: three sub-goals, reported one by one. */
const dig = progressCommand(15, '[depth]')
/** Test-only instant command that ends only after 120 ms, later than a short `ackAfterMs` (the defer path). */
const late = (name: string, description: string, end: () => Outcome) =>
  defineCommand({
    name,
    description,
    args: z.object({}).passthrough(),
    minRole: 'guest',
    mode: 'instant',
    async run() {
      await sleep(120)
      return end()
    },
  })
const slowpoke = late('slowpoke', 'answers late', () => ({ ok: true, text: 'finally here' }))
const crash = late('crash', 'fails late', () => {
  throw new GhostError('world', 'boom', 'the ground is too hard')
})

interface Setup {
  gw: FakeGateway
  router: Router
  audit: AuditLog
  adapter: DiscordAdapter
  done: Array<Promise<void>>
}
let current: Setup | null = null

function setup(opts: { ackAfterMs?: number; relayChat?: boolean } = {}): Setup {
  const router = offlineRouter({
    extraCommands: [dig, slowpoke, crash],
    discordOwners: [OWNER],
    discordTrusted: [TRUSTED_ROLE],
  })
  const gw = new FakeGateway()
  const adapter = new DiscordAdapter(router, gw.client, {
    channelId: CHANNEL_ID,
    prefix: '!',
    relayChat: opts.relayChat ?? false,
    editIntervalMs: 40,
    ackAfterMs: opts.ackAfterMs ?? 2000,
    relayIntervalMs: 20,
  })
  const done: Array<Promise<void>> = []
  gw.client.on('interactionCreate', (i) => {
    done.push(adapter.handleInteraction(i))
  })
  gw.client.on('messageCreate', (m) => {
    done.push(adapter.handleMessage(m))
  })
  current = { gw, router, audit: router.audit, adapter, done }
  return current
}

afterEach(async () => {
  if (!current) return
  current.adapter.close()
  await current.gw.destroy()
  current = null
})

const settled = async (s: Setup): Promise<void> => {
  await Promise.all(s.done)
  await s.router.queue.idle()
}
const EPHEMERAL = 64

describe('Discord slash commands', () => {
  it('reach the router with the role mapped from a role id, and answer publicly', async () => {
    const s = setup()
    s.gw.slash('status', MEMBER, 'mia', [TRUSTED_ROLE])
    await settled(s)
    expect(s.audit.recent.at(-1)).toMatchObject({
      source: 'discord',
      command: 'status',
      role: 'trusted',
      allowed: true,
      player: '@mia',
    })
    const cb = s.gw.api.find('POST', /^\/interactions\/\d+\/itok1\/callback$/)
    expect(cb).toHaveLength(1)
    const data = cb[0]!.body!.data as { content: string; flags?: number }
    expect(cb[0]!.body!.type).toBe(4)
    expect(data.content).toMatch(/Not connected/)
    expect((data.flags ?? 0) & EPHEMERAL).toBe(0)
  })

  it('maps a user id to owner and a stranger to guest; a denial answers ephemerally', async () => {
    const s = setup()
    s.gw.slash('follow', STRANGER, 'sam', [], { name: 'args', value: 'Steve' })
    await settled(s)
    expect(s.audit.recent.at(-1)).toMatchObject({
      command: 'follow',
      role: 'guest',
      allowed: false,
      text: 'follow Steve',
    })
    const cb = s.gw.api.find('POST', /\/callback$/)
    expect(cb).toHaveLength(1)
    const data = cb[0]!.body!.data as { content: string; flags: number }
    expect(data.content).toMatch(/needs the trusted role and you are guest/)
    expect(data.flags & EPHEMERAL).toBe(EPHEMERAL)

    s.gw.slash('help', OWNER, 'olga', [])
    await settled(s)
    expect(s.audit.recent.at(-1)).toMatchObject({ command: 'help', role: 'owner', allowed: true })
  })

  it('shows a task as one message whose embed is edited as sub-goals complete', async () => {
    const s = setup()
    s.gw.slash('dig', OWNER, 'olga', [])
    await settled(s)
    // The final edit goes out after the task's finished event.
    await waitFor(() => JSON.stringify(s.gw.api.calls.at(-1)?.body ?? {}).includes('dig — done'), 3000, 'final edit')
    const calls = s.gw.api.calls
    const callbacks = calls.filter((c) => c.path.endsWith('/callback'))
    expect(callbacks).toHaveLength(1)
    expect(callbacks[0]!.body!.type).toBe(4) // the first message, with the embed
    const rest = calls.slice(calls.indexOf(callbacks[0]!) + 1)
    expect(rest.length).toBeGreaterThanOrEqual(2) // edited while running, not only at the end
    for (const c of rest) {
      expect(c.method).toBe('PATCH')
      expect(c.path).toBe(`/webhooks/${APP_ID}/itok1/messages/@original`)
    }
    const last = rest.at(-1)!.body as {
      content: string
      embeds: Array<{ title: string; description: string; fields: Array<{ name: string; value: string }> }>
    }
    expect(last.content).toBe('Dug 3 blocks.')
    expect(last.embeds[0]!.title).toBe('dig — done')
    expect(last.embeds[0]!.fields.find((f) => f.name === 'Progress')!.value).toBe('3/3')
    expect(last.embeds[0]!.description).toMatch(/✅ find a spot[\s\S]*✅ dig down[\s\S]*✅ climb out/)
  })

  it('defers a slow answer and fills the deferred message', async () => {
    const s = setup({ ackAfterMs: 20 })
    s.gw.slash('slowpoke', STRANGER, 'sam', [])
    await settled(s)
    const calls = s.gw.api.calls
    expect(calls.map((c) => `${c.method} ${c.path.replace(/\d{6,}/g, 'N')}`)).toEqual([
      'POST /interactions/N/itok1/callback',
      'PATCH /webhooks/N/itok1/messages/@original',
    ])
    expect(calls[0]!.body!.type).toBe(5)
    expect((calls[1]!.body as { content: string }).content).toBe('finally here')
  })

  it('keeps a late error private after a public defer, and removes the placeholder', async () => {
    const s = setup({ ackAfterMs: 20 })
    s.gw.slash('crash', STRANGER, 'sam', [])
    await settled(s)
    const calls = s.gw.api.calls.map((c) => ({ m: `${c.method} ${c.path.replace(/\d{6,}/g, 'N')}`, body: c.body }))
    expect(calls.map((c) => c.m)).toEqual([
      'POST /interactions/N/itok1/callback',
      'PATCH /webhooks/N/itok1/messages/@original',
      'POST /webhooks/N/itok1',
      'DELETE /webhooks/N/itok1/messages/@original',
    ])
    expect(calls[2]!.body).toMatchObject({ content: '"crash" failed: the ground is too hard', flags: EPHEMERAL })
  })

  it('answers a command from a stale registration with an ephemeral "unknown command"', async () => {
    const s = setup()
    s.gw.slash('teleport', OWNER, 'olga', [])
    await settled(s)
    const data = s.gw.api.find('POST', /\/callback$/)[0]!.body!.data as { content: string; flags: number }
    expect(data.content).toMatch(/don't know the command "teleport"/)
    expect(data.flags & EPHEMERAL).toBe(EPHEMERAL)
  })
})

describe('Discord control channel', () => {
  it('treats plain messages as requests and replies to them; private lines go by DM', async () => {
    const s = setup()
    const asked = s.gw.say(`<@${BOT_ID}> !status`, MEMBER, 'mia', [TRUSTED_ROLE])
    await settled(s)
    expect(s.audit.recent.at(-1)).toMatchObject({ command: 'status', role: 'trusted', allowed: true })
    const reply = s.gw.api.find('POST', new RegExp(`^/channels/${CHANNEL_ID}/messages$`))
    expect(reply).toHaveLength(1)
    expect(reply[0]!.body).toMatchObject({ message_reference: { message_id: asked }, allowed_mentions: { parse: [] } })

    const heard = s.audit.recent.length
    s.gw.say('come here everyone, the bot is over there', STRANGER, 'sam', []) // neither a mention nor the prefix
    await settled(s)
    expect(s.audit.recent.length).toBe(heard)
    s.gw.say('!come', STRANGER, 'sam', [])
    await settled(s)
    expect(s.audit.recent.at(-1)).toMatchObject({ command: 'come', role: 'guest', allowed: false })
    expect(s.gw.api.find('POST', /^\/users\/@me\/channels$/)[0]!.body).toMatchObject({ recipient_id: STRANGER })
    const dm = s.gw.api.calls.at(-1)!
    expect(dm.method).toBe('POST')
    expect(dm.path).not.toContain(CHANNEL_ID)
    expect((dm.body as { content: string }).content).toMatch(/needs the trusted role/)
  })

  it('falls back to a channel reply when DMs are closed, and ignores other channels and bots', async () => {
    const s = setup()
    s.gw.api.dmFails = true
    s.gw.say('!come', STRANGER, 'sam', [])
    await settled(s)
    const last = s.gw.api.calls.at(-1)!
    expect(last.path).toBe(`/channels/${CHANNEL_ID}/messages`)
    expect((last.body as { content: string }).content).toMatch(/needs the trusted role/)
    const before = s.gw.api.calls.length
    const audits = s.audit.recent.length
    s.gw.say('!status', MEMBER, 'mia', [], '300000000000000099')
    await settled(s)
    expect(s.gw.api.calls.length).toBe(before)
    expect(s.audit.recent.length).toBe(audits)
  })

  it('relays in-game chat to the control channel in one batched message, without mentions', async () => {
    const s = setup({ relayChat: true })
    s.adapter.relayChat('Steve', 'hello @everyone')
    s.adapter.relayChat('Alex', 'hi *there*')
    await waitFor(() => s.gw.api.calls.length > 0, 2000, 'relay')
    const sent = s.gw.api.find('POST', new RegExp(`^/channels/${CHANNEL_ID}/messages$`))
    expect(sent).toHaveLength(1)
    expect(sent[0]!.body).toMatchObject({
      content: '**Steve**: hello @everyone\n**Alex**: hi \\*there\\*',
      allowed_mentions: { parse: [] },
    })
  })

  it('does not relay chat unless DISCORD_RELAY_CHAT is on', async () => {
    const s = setup({ relayChat: false })
    // a second adapter with relay on and the same interval is the marker: its flush timer is set later, so it fires
    // after any flush the first adapter might have scheduled — ordering, not a pause, shows nothing else was sent
    const marker = new DiscordAdapter(s.router, s.gw.client, {
      channelId: CHANNEL_ID,
      prefix: '!',
      relayChat: true,
      relayIntervalMs: 20,
    })
    try {
      s.adapter.relayChat('Steve', 'hello')
      marker.relayChat('Alex', 'marker')
      await waitFor(() => s.gw.api.calls.length > 0, 2000, 'marker relayed')
      expect(s.gw.api.calls.map((c) => (c.body as { content?: string } | undefined)?.content)).toEqual([
        '**Alex**: marker',
      ])
    } finally {
      marker.close()
    }
  })
})

describe('Discord setup', () => {
  it('generates one slash command per definition with the right option', () => {
    const ask = defineCommand({
      name: 'ask',
      description: 'ask me anything',
      args: z.object({}).passthrough(),
      minRole: 'guest',
      mode: 'task',
      async run() {
        return { ok: true, text: 'ok' }
      },
    })
    const defs = all().some((d) => d.name === 'ask') ? all() : [...all(), ask as CommandDefinition]
    const cmds = slashCommands(defs)
    const byName = new Map(cmds.map((c) => [c.name, c]))
    for (const d of defs) expect(byName.has(d.name)).toBe(true)
    expect(cmds).toHaveLength(defs.length)
    expect(byName.get('status')!.options ?? []).toEqual([])
    expect(byName.get('follow')!.options).toMatchObject([{ name: 'args', type: 3, required: true }])
    expect(byName.get('help')!.options).toMatchObject([{ name: 'args', type: 3, required: false }])
    expect(byName.get('ask')!.options).toMatchObject([{ name: 'text', type: 3, required: true }])
  })

  it('deploys guild commands with one PUT', async () => {
    const api = new FakeDiscordApi()
    const names = await deployGuildCommands({
      token: 't',
      appId: APP_ID,
      guildId: GUILD_ID,
      commands: all(),
      rest: { makeRequest: api.makeRequest, retries: 0 },
    })
    expect(api.calls).toHaveLength(1)
    expect(api.calls[0]).toMatchObject({ method: 'PUT', path: `/applications/${APP_ID}/guilds/${GUILD_ID}/commands` })
    expect((api.calls[0]!.body as unknown as unknown[]).length).toBe(all().length)
    expect(names).toContain('status')
    expect(
      missingDeploySettings({ DISCORD_TOKEN: 'x', DISCORD_APP_ID: undefined, DISCORD_GUILD_ID: undefined }),
    ).toEqual(['DISCORD_APP_ID', 'DISCORD_GUILD_ID'])
  })

  it('npm run discord:deploy explains what is missing and exits 2', () => {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      GHOST_CONFIG: '/nonexistent/ghostcraft.config.json',
      DISCORD_APP_ID: APP_ID,
    }
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/discord-deploy.ts'], {
      env,
      encoding: 'utf8',
      timeout: 30_000,
    })
    expect(r.status).toBe(2)
    expect(r.stderr).toMatch(/DISCORD_TOKEN, DISCORD_GUILD_ID are not set/)
  })

  it('runs without Discord when DISCORD_TOKEN is unset', () => {
    const router = offlineRouter()
    expect(
      startDiscord(
        { DISCORD_TOKEN: undefined, DISCORD_CHANNEL_ID: undefined, DISCORD_RELAY_CHAT: false, GHOST_PREFIX: '!' },
        router,
      ),
    ).toBeNull()
  })
})
