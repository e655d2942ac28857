/**
 * The offline grammar understands MP5's 16 context-dependent task phrasings (../shared/benchmarks/mp5-context-tasks.tsv)
 * as find-goals with the right conditions: biome, time, weather, near and brightness — both the goal grammar and the
 * request grammar the router uses (which splits a sentence at commas and "and": a clause of conditions alone, "the
 * weather is sunny day", continues the find before it).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SUPPORTED_VERSIONS } from '../../../src/versions.js'
import { parseOffline } from '../../../src/agent/intent-grammar.js'
import { intentKnowledge } from '../../../src/agent/intent-knowledge.js'
import { understandOffline } from '../../../src/agent/request-grammar.js'
import { requestKnowledge } from '../../../src/agent/request-knowledge.js'
import type { Goal } from '../../../src/schemas/goal.js'

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

  const check = (id: string, object: string, conditions: Goal['conditions']): void => {
    const e = expected[id]!
    expect(object).toMatch(e.object)
    expect(conditions).not.toBeNull()
    expect(conditions!.biome).toBe(e.biome ?? null)
    expect(conditions!.time).toBe(e.time ?? null)
    expect(conditions!.weather).toBe(e.weather ?? null)
    expect(conditions!.brightness).toBe(e.brightness ?? null)
    if (e.near) expect(conditions!.near).toMatch(e.near)
    else expect(conditions!.near).toBeNull()
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
        check(id!, g.object, g.conditions)
      })
      it(`${id}, as a request: one find step`, () => {
        const r = understandOffline(task!, requestKnowledge(version))
        expect(r.understanding.kind, JSON.stringify(r.understanding)).toBe('steps')
        if (r.understanding.kind !== 'steps') return
        expect(r.understanding.steps).toHaveLength(1)
        const s = r.understanding.steps[0]!
        expect(s.kind).toBe('obtain')
        if (s.kind === 'obtain') check(id!, s.object, s.conditions)
      })
    }
  })
})
