/** Command parsing (names, aliases, free text, did-you-mean) and role resolution per channel. */
import { describe, expect, it } from 'vitest'
import { all } from '../../../commands/index.js'
import { CommandRegistry, parseRequest } from '../../../src/router/parse.js'
import { createPolicy } from '../../../src/router/permissions.js'
import { didYouMean, splitMessage } from '../../../src/util/text.js'

describe('parsing', () => {
  const reg = new CommandRegistry(all())
  it('finds commands and aliases, passing the rest as args', () => {
    const p = parseRequest('follow Alice', reg, false)
    expect(p.kind === 'command' && p.def.name).toBe('follow')
    expect(p.kind === 'command' && p.raw.words).toEqual(['Alice'])
    const inv = parseRequest('INV', reg, false)
    expect(inv.kind === 'command' && inv.def.name).toBe('inventory')
  })
  it('answers unknown commands with did-you-mean', () => {
    const p = parseRequest('folow Alice', reg, true)
    expect(parseRequest('folow Alice', reg, false).kind).toBe('command') // name-addressed sentences go to ask
    expect(p.kind).toBe('unknown')
    expect(p.kind === 'unknown' && p.suggestions).toContain('follow')
    expect(didYouMean('stauts', ['status', 'stop', 'help'])).toEqual(['status'])
  })
  it('sends free text to ask, but not typos of a single word', () => {
    const reg2 = new CommandRegistry(all())
    const p = parseRequest('get me 3 iron ingots', reg2, false)
    expect(p.kind === 'command' && p.def.name).toBe('ask')
    expect(p.kind === 'command' && p.raw.rest).toBe('get me 3 iron ingots')
    expect(parseRequest('hlep', reg2, false).kind).toBe('unknown')
    expect(parseRequest('xyzzy now', reg2, true).kind).toBe('unknown')
  })
  it('rejects duplicate command names', () => {
    expect(() => new CommandRegistry([...all(), all()[0]!])).toThrow(/defined twice/)
  })
})

describe('permissions', () => {
  const base = {
    GHOST_OWNERS: ['Alice'],
    GHOST_TRUSTED: ['Bob'],
    DISCORD_OWNERS: ['111'],
    DISCORD_TRUSTED: ['role-9'],
    MC_HOST: undefined,
  }
  it('maps Minecraft names case-insensitively', () => {
    const p = createPolicy(base)
    expect(p.roleOf({ kind: 'minecraft', name: 'alice' })).toBe('owner')
    expect(p.roleOf({ kind: 'minecraft', name: 'Bob' })).toBe('trusted')
    expect(p.roleOf({ kind: 'minecraft', name: 'Eve' })).toBe('guest')
    expect(p.failClosed).toBe(false)
  })
  it('maps Discord user and role IDs, ws roles come from the token', () => {
    const p = createPolicy(base)
    expect(p.roleOf({ kind: 'discord', userId: '111', roleIds: [], displayName: 'x' })).toBe('owner')
    expect(p.roleOf({ kind: 'discord', userId: '222', roleIds: ['role-9'], displayName: 'y' })).toBe('trusted')
    expect(p.roleOf({ kind: 'discord', userId: '333', roleIds: [], displayName: 'z' })).toBe('guest')
    expect(p.roleOf({ kind: 'ws', clientId: 'c', role: 'trusted' })).toBe('trusted')
  })
  it('embedded with no owners: everyone is an owner; remote with no owners: fail closed', () => {
    const emb = createPolicy({ ...base, GHOST_OWNERS: [] })
    expect(emb.roleOf({ kind: 'minecraft', name: 'Anyone' })).toBe('owner')
    const remote = createPolicy({ ...base, GHOST_OWNERS: [], MC_HOST: 'mc.example.org' })
    expect(remote.failClosed).toBe(true)
    expect(remote.roleOf({ kind: 'minecraft', name: 'Anyone' })).toBe('guest')
  })
})

describe('splitMessage', () => {
  it('splits long replies on word boundaries within the limit', () => {
    const text = Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ')
    const lines = splitMessage(text, 256)
    expect(lines.length).toBeGreaterThan(1)
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(256)
    expect(lines.join(' ')).toBe(text)
    expect(splitMessage('x'.repeat(600), 256).map((l) => l.length)).toEqual([256, 256, 88])
  })
})
