/**
 * The offline grammar understands MP5's 16 context-dependent task phrasings (../shared/benchmarks/mp5-context-tasks.tsv)
 * as find-goals with the right conditions: biome, time, weather, near and brightness.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SUPPORTED_VERSIONS } from '../../../src/versions.js'
import { parseOffline } from '../../../src/agent/intent-grammar.js'
import { intentKnowledge } from '../../../src/agent/intent-knowledge.js'

describe.each(SUPPORTED_VERSIONS)('Minecraft %s', (version) => {
  const kb = intentKnowledge(version)
  const rows = readFileSync(join(import.meta.dirname, '../../../../shared/benchmarks/mp5-context-tasks.tsv'), 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('#') && !l.startsWith('level'))
    .map((l) => l.split('\t'))

  const expected: Record<
    string,
    { object: RegExp; biome?: string; time?: string; weather?: string; near?: RegExp; brightness?: string }
  > = {
    '1-1': { object: /_log$/ },
    '1-2': { object: /^(short_)?grass$/ },
    '1-3': { object: /^cow$/ },
    '1-4': { object: /^pig$/ },
    '2-1': { object: /_log$/, biome: 'forest' },
    '2-2': { object: /grass/, near: /^pig$/ },
    '2-3': { object: /^cow$/, biome: 'desert' },
    '2-4': { object: /^pig$/, time: 'night' },
    '3-1': { object: /_log$/, biome: 'forest', time: 'night' },
    '3-2': { object: /grass/, near: /^pig$/, biome: 'plains' },
    '3-3': { object: /^cow$/, biome: 'desert', time: 'day' },
    '3-4': { object: /^pig$/, time: 'night', weather: 'rain' },
    '4-1': { object: /_log$/, biome: 'forest', time: 'night', weather: 'clear' },
    '4-2': { object: /^pig$/, near: /grass/, biome: 'forest', time: 'day' },
    '4-3': { object: /^cow$/, near: /water/, biome: 'desert', time: 'day', weather: 'clear' },
    '4-4': { object: /^pig$/, near: /grass/, biome: 'plains', time: 'day', weather: 'clear', brightness: 'sufficient' },
  }

  describe('MP5 context tasks, offline', () => {
    it('reads the benchmark file', () => {
      expect(rows).toHaveLength(16)
    })
    for (const [, id, task] of rows) {
      it(`${id}: ${task}`, () => {
        const r = parseOffline(task!, kb)
        expect(r.intent.kind, JSON.stringify(r.intent)).toBe('goals')
        if (r.intent.kind !== 'goals') return
        const g = r.intent.goals[0]!
        const e = expected[id!]!
        expect(g.object).toMatch(e.object)
        expect(g.conditions).not.toBeNull()
        expect(g.conditions!.biome).toBe(e.biome ?? null)
        expect(g.conditions!.time).toBe(e.time ?? null)
        expect(g.conditions!.weather).toBe(e.weather ?? null)
        expect(g.conditions!.brightness).toBe(e.brightness ?? null)
        if (e.near) expect(g.conditions!.near).toMatch(e.near)
        else expect(g.conditions!.near).toBeNull()
      })
    }
  })
})
