/**
 * GHOST_DB as configuration: a file path or a postgres:// / postgresql:// URL is accepted, any other URL is refused
 * with a fix, and a password in the URL is never echoed (config problems, the store's location, its health line).
 */
import { describe, expect, it } from 'vitest'
import { formatProblems, loadConfig } from '../../../src/config.js'
import { isPostgresUrl, openMemory, redactUrl } from '../../../src/memory/index.js'

describe('GHOST_DB', () => {
  it('accepts file paths and PostgreSQL URLs, refuses other URLs without echoing them', () => {
    for (const ok of [
      './memory.db',
      ':memory:',
      '/var/lib/ghost/memory.db',
      'postgres://ghost:hunter2@db.example.org:5432/ghost',
      'postgresql://db/ghost',
    ]) {
      expect(loadConfig({ GHOST_DB: ok }, '').ok).toBe(true)
    }
    for (const bad of ['mysql://ghost:hunter2@db/ghost', 'postgres://', 'postgres://:hunter2@/x']) {
      const r = loadConfig({ GHOST_DB: bad }, '')
      expect(r.ok).toBe(false)
      const text = formatProblems(r.ok ? [] : r.problems)
      expect(text).toMatch(/GHOST_DB/)
      expect(text).not.toContain('hunter2')
    }
    expect(isPostgresUrl('postgresql://db/ghost')).toBe(true)
    expect(isPostgresUrl('./postgres.db')).toBe(false)
  })

  it('redacts the password wherever the location is shown, also while the server is unreachable', async () => {
    expect(redactUrl('postgres://ghost:hunter2@db.example.org:5432/ghost')).toBe(
      'postgres://ghost:***@db.example.org:5432/ghost',
    )
    expect(redactUrl('postgres://db/ghost')).toBe('postgres://db/ghost')
    // Port 1 on loopback refuses at once: the store opens degraded instead of failing start-up.
    const store = await openMemory({ path: 'postgres://ghost:hunter2@127.0.0.1:1/ghost', reconnectMs: 60_000 })
    expect(store.available).toBe(false)
    expect(store.location).not.toContain('hunter2')
    expect(store.health()).toMatch(/^Memory \(postgres\) unreachable for \d+s: .*planning without memory/)
    expect(store.health()).not.toContain('hunter2')
    expect(await store.retrieve({ goalKey: 'oak_log', goalText: 'obtain 1 oak log' })).toEqual([])
    await store.close()
  })
})
