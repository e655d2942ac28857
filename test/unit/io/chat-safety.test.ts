/**
 * Issue 20 in isolation: outgoing lines can never be commands (`safeChatLine`, the Outbox), the Outbox's token bucket
 * and backlog caps, the ReplyGuard's loop rules, who a player-chat packet is attributed to (`classify`), roles by
 * UUID with names pinned to the first UUID seen, and the security checks in the config.
 */
import { describe, expect, it } from 'vitest'
import { classify } from '../../../src/bot/chat-lines.js'
import { childEnv, loadConfig, securityWarnings } from '../../../src/config.js'
import { Outbox, safeChatLine } from '../../../src/io/outbox.js'
import { ReplyGuard } from '../../../src/io/reply-guard.js'
import { createPolicy } from '../../../src/router/permissions.js'
import { parseTable } from '../../../src/util/text.js'
import { createKnowledge } from '../../../src/knowledge/index.js'
import { parseOffline } from '../../../src/agent/intent-grammar.js'
import { intentKnowledge } from '../../../src/agent/intent-knowledge.js'

describe('safeChatLine', () => {
  it('never starts a line with a slash and removes control and formatting characters', () => {
    expect(safeChatLine('/op Mallory')).toBe('./op Mallory')
    expect(safeChatLine('  \u0000\t/op Mallory')).toBe('./op Mallory')
    expect(safeChatLine('a\u0007b\u007fc\u00a7kd\u202ee')).toBe('a b c kd e')
    expect(safeChatLine('fine / not a command')).toBe('fine / not a command')
  })
})

describe('Outbox', () => {
  function recorder() {
    const lines: Array<{ to: string | null; text: string; at: number }> = []
    return {
      lines,
      sender: {
        chat: (text: string) => lines.push({ to: null, text, at: Date.now() }),
        whisper: (to: string, text: string) => lines.push({ to, text, at: Date.now() }),
      },
    }
  }

  it('splits model text on newlines and sends no line that starts with a slash', async () => {
    const r = recorder()
    const out = new Outbox(() => r.sender, { intervalMs: 0 })
    await out.say('Sure.\n/op Mallory\n\n//give @a diamond 64')
    expect(r.lines.map((l) => l.text)).toEqual(['Sure.', './op Mallory', './/give @a diamond 64'])
  })

  it('refuses to whisper to something that is not a player name', async () => {
    const r = recorder()
    const out = new Outbox(() => r.sender, { intervalMs: 0 })
    await out.say('hi', 'Bo /op Mallory')
    expect(r.lines).toEqual([])
  })

  it('sends a burst, then one line per interval', async () => {
    const r = recorder()
    const out = new Outbox(() => r.sender, { intervalMs: 100, burst: 3 })
    await Promise.all(Array.from({ length: 7 }, (_, i) => out.say(`l${i}`)))
    const t = r.lines.map((l) => l.at - r.lines[0]!.at)
    expect(t[2]).toBeLessThan(50)
    for (let j = 3; j < t.length; j++) expect(t[j]!).toBeGreaterThanOrEqual((j - 2) * 100 - 5)
  })

  it("caps one requester's backlog and marks the cut", async () => {
    const r = recorder()
    const out = new Outbox(() => r.sender, { intervalMs: 20, burst: 1, maxPerRequester: 4 })
    const all = Array.from({ length: 10 }, (_, i) => out.say(`line ${i}`, null, 'Bo'))
    const other = out.say('for Alice', null, 'Alice')
    expect(out.pending()).toBe(5)
    await Promise.all([...all, other])
    expect(out.dropped).toBe(6)
    expect(r.lines.map((l) => l.text)).toEqual(['line 0', 'line 1', 'line 2', 'line 3', 'for Alice'])
    // One long message past the cap keeps what fits and marks the cut.
    const long = new Outbox(() => r.sender, { intervalMs: 0, maxPerRequester: 2 })
    await long.say('one\ntwo\nthree\nfour', null, 'Bo')
    expect(r.lines.slice(-2).map((l) => l.text)).toEqual(['one', 'two …'])
    out.close()
  })
})

describe('ReplyGuard', () => {
  it('never answers a denial with a denial within the gap', () => {
    const g = new ReplyGuard({ denialGapMs: 1000 })
    expect(g.allow('u1', true, 10_000)).toBe(true)
    expect(g.allow('u1', true, 10_500)).toBe(false)
    expect(g.allow('u1', false, 10_600)).toBe(true)
    expect(g.allow('u1', true, 10_700)).toBe(true)
    expect(g.allow('u2', true, 10_700)).toBe(true)
    expect(g.held).toBe(1)
  })

  it('limits replies per requester per window', () => {
    const g = new ReplyGuard({ windowMs: 1000, maxReplies: 3 })
    expect([0, 1, 2, 3].map((t) => g.allow('u', false, t))).toEqual([true, true, true, false])
    expect(g.allow('u', false, 1001)).toBe(true)
  })

  it('recognises an answer that came faster than a person types', () => {
    const g = new ReplyGuard({ quickMs: 1500 })
    expect(g.isQuickAnswer('u', 0)).toBe(false)
    g.sent('u', 1000)
    expect(g.isQuickAnswer('u', 1200)).toBe(true)
    expect(g.isQuickAnswer('u', 2600)).toBe(false)
  })
})

describe('classify (who sent a player-chat packet)', () => {
  const ALICE = '10920508-d5d8-3eed-93d2-92f193afe7d7'
  const bot = {
    players: { Alice: { username: 'Alice', uuid: ALICE } },
    registry: {
      chatFormattingById: {
        0: { name: 'minecraft:chat' },
        1: { name: 'minecraft:emote_command' },
        2: { name: 'minecraft:msg_command_incoming' },
        3: { name: 'minecraft:msg_command_outgoing' },
      },
    },
  } as unknown as Parameters<typeof classify>[0]
  const SELF = '48f83307567a33d786043b22ee4c1b84'

  it('takes the name from the player list by UUID, never from the text', () => {
    expect(classify(bot, { sender: ALICE, plainMessage: 'Bo whispers to you: hi', type: 0 }, SELF)).toEqual({
      uuid: ALICE.replace(/-/g, ''),
      name: 'Alice',
      text: 'Bo whispers to you: hi',
      kind: 'chat',
    })
    expect(classify(bot, { sender: ALICE, plainMessage: 'help', type: { chatType: 2 } }, SELF)).toMatchObject({
      name: 'Alice',
      kind: 'whisper',
    })
  })

  it('drops emotes, our own echoes and unlisted senders', () => {
    expect(classify(bot, { sender: ALICE, plainMessage: 'waves', type: 1 }, SELF)).toEqual({
      skip: 'chat type minecraft:emote_command',
    })
    expect(classify(bot, { sender: SELF, plainMessage: 'hello', type: 3 }, SELF)).toEqual({ skip: 'own line' })
    expect(
      classify(bot, { sender: '00000000-0000-0000-0000-000000000001', plainMessage: 'hi', type: 0 }, SELF),
    ).toEqual({ skip: 'sender not in the player list' })
  })
})

describe('roles by UUID', () => {
  const ALICE = '10920508-d5d8-3eed-93d2-92f193afe7d7'
  const base = { GHOST_TRUSTED: [], DISCORD_OWNERS: [], DISCORD_TRUSTED: [], MC_HOST: 'mc.example.org' }

  it('matches a configured UUID whatever the name, and pins a configured name to its first UUID', () => {
    const p = createPolicy({ ...base, GHOST_OWNERS: [ALICE.replace(/-/g, '').toUpperCase(), 'Bob'] })
    expect(p.roleOf({ kind: 'minecraft', name: 'Renamed', uuid: ALICE })).toBe('owner')
    expect(p.roleOf({ kind: 'minecraft', name: 'Bob', uuid: 'aaaa0000000000000000000000000001' })).toBe('owner')
    expect(p.roleOf({ kind: 'minecraft', name: 'bob', uuid: 'aaaa0000000000000000000000000002' })).toBe('guest')
  })
})

describe('security config', () => {
  const env = (e: Record<string, string>) => loadConfig(e, '/nonexistent.json')

  it('refuses offline auth on a remote server with owners by name, unless explicitly allowed', () => {
    const r = env({ MC_HOST: 'mc.example.org', GHOST_OWNERS: 'Alice' })
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.problems.map((p) => p.key)).toContain('GHOST_OWNERS')
    const uuid = env({ MC_HOST: 'mc.example.org', GHOST_OWNERS: '10920508-d5d8-3eed-93d2-92f193afe7d7' })
    expect(uuid.ok).toBe(true)
    if (uuid.ok) expect(securityWarnings(uuid.config).join(' ')).toMatch(/offline auth/)
    const allowed = env({ MC_HOST: 'mc.example.org', GHOST_OWNERS: 'Alice', GHOST_ALLOW_OFFLINE_OWNERS: 'true' })
    expect(allowed.ok).toBe(true)
    if (allowed.ok) expect(securityWarnings(allowed.config).join(' ')).toMatch(/Alice/)
    expect(env({ MC_HOST: 'mc.example.org', MC_AUTH: 'microsoft', GHOST_OWNERS: 'Alice' }).ok).toBe(true)
  })

  it('rejects short ws tokens and entries that are neither names nor UUIDs', () => {
    const r = env({ GHOST_WS_PORT: '8080', GHOST_WS_OWNER_TOKEN: 'tiny-secret', GHOST_OWNERS: 'Alice,<Bo> x' })
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.problems.map((p) => p.key)).toEqual(expect.arrayContaining(['GHOST_WS_OWNER_TOKEN', 'GHOST_OWNERS']))
      expect(JSON.stringify(r.problems)).not.toContain('tiny-secret')
    }
  })

  it('passes the server child no secrets', () => {
    const out = childEnv({
      PATH: '/bin',
      HOME: '/h',
      OPENAI_API_KEY: 'sk-x',
      DISCORD_TOKEN: 'd',
      GHOST_WS_OWNER_TOKEN: 't',
      TSX_TSCONFIG_PATH: 'x',
    })
    expect(out).toEqual({ PATH: '/bin', HOME: '/h', TSX_TSCONFIG_PATH: 'x' })
  })
})

describe('prototype names', () => {
  it('are never found in word tables or the knowledge', () => {
    const t = parseTable('{"a": {"b": 1}}') as Record<string, Record<string, number>>
    expect(t.constructor).toBeUndefined()
    expect(t.a!.toString).toBeUndefined()
    const k = createKnowledge('1.20.2')
    expect(k.resolveName('constructor').ok).toBe(false)
    expect(k.isItem('__proto__')).toBe(false)
    for (const text of ['get constructor', 'constructor', 'get 3 __proto__', 'get toString']) {
      expect(parseOffline(text, intentKnowledge('1.20.2')).intent.kind).toBe('clarify')
    }
  })
})
