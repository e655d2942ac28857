/** Config validation: defaults, every bad value listed with a fix, secrets never echoed, JSON file merging. */
import { writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { formatProblems, isEmbedded, loadConfig } from '../../src/config.js'
import { tempDir } from '../helpers/tmp.js'

const noFile = '/nonexistent/ghostcraft.config.json'

describe('config', () => {
  it('has working defaults for an embedded, offline start', () => {
    const r = loadConfig({}, noFile)
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.config.MC_PORT).toBe(25565)
    expect(r.config.MC_USERNAME).toBe('Ghost')
    expect(r.config.MC_VERSION).toBe('1.20.2')
    expect(r.config.GHOST_DB).toBe('./memory.db')
    expect(r.config.GHOST_OWNERS).toEqual([])
    expect(isEmbedded(r.config)).toBe(true)
  })

  it('defaults MC_VERSION to auto with MC_HOST, keeps the practice world at 1.20.2, and names hostable versions', () => {
    const remote = loadConfig({ MC_HOST: 'mc.example.org' }, noFile)
    expect(remote.ok && remote.config.MC_VERSION).toBe('auto')
    const pinned = loadConfig({ MC_HOST: 'mc.example.org', MC_VERSION: '1.21.11' }, noFile)
    expect(pinned.ok && pinned.config.MC_VERSION).toBe('1.21.11')
    const embedded = loadConfig({ MC_VERSION: 'auto' }, noFile)
    expect(embedded.ok && embedded.config.MC_VERSION).toBe('1.20.2')
    expect(loadConfig({ MC_VERSION: '1.21.4' }, noFile).ok).toBe(true)
    const unhostable = loadConfig({ MC_VERSION: '1.21.11' }, noFile)
    expect(unhostable.ok).toBe(false)
    if (!unhostable.ok) expect(unhostable.problems[0]!.fix).toMatch(/MC_HOST.*1\.21\.4/)
  })

  it('splits comma-separated player names', () => {
    const r = loadConfig({ GHOST_OWNERS: 'Alice, bob ,', GHOST_TRUSTED: 'Carol' }, noFile)
    expect(r.ok && r.config.GHOST_OWNERS).toEqual(['Alice', 'bob'])
    expect(r.ok && r.config.GHOST_TRUSTED).toEqual(['Carol'])
  })

  it('lists every problem with how to fix it', () => {
    const r = loadConfig(
      { MC_PORT: 'abc', MC_AUTH: 'mojang', MC_USERNAME: 'a b', LOG_LEVEL: 'loud', MC_VERSION: '1.8' },
      noFile,
    )
    expect(r.ok).toBe(false)
    if (r.ok) return
    const keys = r.problems.map((p) => p.key).sort()
    expect(keys).toEqual(['LOG_LEVEL', 'MC_AUTH', 'MC_PORT', 'MC_USERNAME', 'MC_VERSION'])
    for (const p of r.problems) expect(p.fix.length).toBeGreaterThan(10)
    const text = formatProblems(r.problems)
    expect(text).toContain('MC_PORT')
    expect(text).toContain('fix:')
  })

  it('never echoes secrets in problems', () => {
    const r = loadConfig(
      { OPENAI_API_KEY: 'sk-supersecret', GHOST_WS_PORT: '8080', OPENAI_BASE_URL: 'not a url' },
      noFile,
    )
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(JSON.stringify(r.problems)).not.toContain('sk-supersecret')
    expect(r.problems.map((p) => p.key)).toContain('OPENAI_BASE_URL')
  })

  it('reads ghostcraft.config.json, the environment wins, unknown keys are problems', () => {
    const file = tempDir('ghost-cfg-', 'test').file('ghostcraft.config.json')
    writeFileSync(file, JSON.stringify({ MC_PORT: 25570, MC_USERNAME: 'FileBot' }))
    const r = loadConfig({ MC_USERNAME: 'EnvBot' }, file)
    expect(r.ok && r.config.MC_PORT).toBe(25570)
    expect(r.ok && r.config.MC_USERNAME).toBe('EnvBot')
    writeFileSync(file, JSON.stringify({ MC_PROT: 1 }))
    const bad = loadConfig({}, file)
    expect(!bad.ok && bad.problems[0]!.key).toBe('MC_PROT')
    writeFileSync(file, '{oops')
    const broken = loadConfig({}, file)
    expect(!broken.ok && broken.problems[0]!.problem).toMatch(/not valid JSON/)
  })
})
