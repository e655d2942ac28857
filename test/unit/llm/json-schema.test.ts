/**
 * Zod → OpenAI-strict JSON schema conversion and tolerant JSON extraction.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { extractJson, schemaFormat, validateAnswer } from '../../../src/llm/json-schema.js'
import { Plan } from '../../../src/schemas/action.js'
import { IntentReply } from '../../../src/schemas/intent.js'

type J = Record<string, unknown>

function walk(node: unknown, visit: (o: J) => void): void {
  if (Array.isArray(node)) {
    for (const n of node) walk(n, visit)
    return
  }
  if (!node || typeof node !== 'object') return
  visit(node as J)
  for (const v of Object.values(node as J)) walk(v, visit)
}

describe('schemaFormat', () => {
  it('makes every property required, closes objects, optional → nullable, oneOf → anyOf', () => {
    const S = z.object({
      a: z.string().min(2),
      b: z.number().optional(),
      c: z.object({ d: z.boolean().default(false) }),
    })
    const f = schemaFormat(S)
    expect(f.strict).toBe(true)
    expect(f.wrapped).toBe(false)
    walk(f.schema, (o) => {
      if (o.type === 'object') {
        expect(o.additionalProperties).toBe(false)
        expect(o.required).toEqual(Object.keys(o.properties as J))
      }
      expect(o).not.toHaveProperty('oneOf')
      expect(o).not.toHaveProperty('default')
      expect(o).not.toHaveProperty('minLength')
      expect(o).not.toHaveProperty('$schema')
    })
    expect((f.schema.properties as J).b).toEqual({ type: ['number', 'null'] })
  })

  it('wraps a union root and stays strict (intent reply)', () => {
    const f = schemaFormat(IntentReply)
    expect(f.strict).toBe(true)
    expect(f.wrapped).toBe(true)
    expect(f.schema.required).toEqual(['value'])
  })

  it('sends schemas with free-form maps (z.record) non-strict', () => {
    const f = schemaFormat(Plan)
    expect(f.strict).toBe(false)
    expect(JSON.stringify(f.schema)).not.toContain('9007199254740991')
  })

  it('validateAnswer accepts null for optional fields and unwraps { value }', () => {
    const S = z.object({ a: z.string(), b: z.number().optional() })
    expect(validateAnswer(S, { a: 'x', b: null }, false)).toEqual({ ok: true, data: { a: 'x' } })
    const U = z.union([z.object({ k: z.literal(1) }), z.object({ k: z.literal(2) })])
    expect(validateAnswer(U, { value: { k: 2 } }, true)).toEqual({ ok: true, data: { k: 2 } })
    const bad = validateAnswer(S, { a: 1 }, false)
    expect(bad.ok).toBe(false)
  })
})

describe('extractJson', () => {
  it('finds JSON in plain, fenced and chatty replies', () => {
    expect(extractJson('{"a":1}')).toEqual({ a: 1 })
    expect(extractJson('```json\n{"a":2}\n```')).toEqual({ a: 2 })
    expect(extractJson('Here you go: {"a":3} hope that helps')).toEqual({ a: 3 })
    expect(extractJson('<think>hmm</think>\n{"a":4}')).toEqual({ a: 4 })
    expect(extractJson('no json here')).toBeUndefined()
    expect(extractJson('{"a": ')).toBeUndefined()
  })
})
