/**
 * Zod → JSON schema for structured output, and tolerant JSON extraction from model text. The zod schema stays the
 * single definition: `responseFormatFor` derives an OpenAI `json_schema` response format from it (strict when the
 * schema can be expressed in OpenAI's strict subset: every property required, `additionalProperties: false`,
 * optional turned into nullable, `oneOf` → `anyOf`, unsupported keywords dropped; non-object roots wrapped in
 * `{ value }`). Schemas with free-form maps (`z.record`) cannot be strict and are sent non-strict. `extractJson`
 * copes with servers that ignore `response_format` (code fences, prose around the object).
 */
import { z } from 'zod'

type Json = Record<string, unknown>

/** Keywords OpenAI strict mode rejects or that add nothing once zod validates the answer anyway. */
const STRICT_DROP = new Set([
  '$schema',
  'default',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'uniqueItems',
])
/** Integers outside this range are zod's "safe integer" bounds: noise for a model. */
const NOISE_BOUND = 2 ** 31

export interface SchemaFormat {
  /** JSON schema to send. */
  schema: Json
  /** Whether it is valid for OpenAI strict mode. */
  strict: boolean
  /** Whether the schema root was wrapped as `{ value: ... }` (unwrap the answer before validating). */
  wrapped: boolean
}

/** Build the JSON schema for a zod schema (cached per schema object). */
export function schemaFormat(schema: z.ZodType): SchemaFormat {
  const hit = cache.get(schema)
  if (hit) return hit
  const raw = z.toJSONSchema(schema, { unrepresentable: 'any' }) as Json
  const strictOk = { ok: true }
  let root = strictify(raw, strictOk)
  let wrapped = false
  if (root.type !== 'object') {
    root = { type: 'object', properties: { value: root }, required: ['value'], additionalProperties: false }
    wrapped = true
  }
  const out: SchemaFormat = strictOk.ok
    ? { schema: root, strict: true, wrapped }
    : { schema: loosen(raw, wrapped), strict: false, wrapped }
  cache.set(schema, out)
  return out
}
const cache = new WeakMap<z.ZodType, SchemaFormat>()

function strictify(node: unknown, state: { ok: boolean }): Json {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return node as Json
  const src = node as Json
  const out: Json = {}
  for (const [k, v] of Object.entries(src)) {
    if (STRICT_DROP.has(k)) continue
    if (k === 'oneOf') {
      out.anyOf = (v as unknown[]).map((x) => strictify(x, state))
      continue
    }
    if (k === 'anyOf' || k === 'allOf' || k === 'prefixItems') {
      out[k] = (v as unknown[]).map((x) => strictify(x, state))
      continue
    }
    if (k === 'items') {
      out.items = strictify(v, state)
      continue
    }
    if (k === 'properties') continue
    if (k === 'additionalProperties') {
      if (v !== false) state.ok = false
      continue
    }
    out[k] = v
  }
  if (src.type === 'object' || src.properties) {
    const props = (src.properties ?? {}) as Record<string, unknown>
    const required = new Set((src.required as string[] | undefined) ?? [])
    const newProps: Json = {}
    for (const [name, p] of Object.entries(props)) {
      const sp = strictify(p, state)
      newProps[name] = required.has(name) ? sp : nullable(sp)
    }
    out.type = 'object'
    out.properties = newProps
    out.required = Object.keys(newProps)
    out.additionalProperties = false
    if (src.additionalProperties !== undefined && src.additionalProperties !== false) state.ok = false
  }
  return out
}

function nullable(s: Json): Json {
  if (Array.isArray(s.anyOf) && (s.anyOf as Json[]).some((x) => x.type === 'null')) return s
  if (s.type === 'null') return s
  if (typeof s.type === 'string' && !s.anyOf && !s.enum && !('const' in s)) return { ...s, type: [s.type, 'null'] }
  if (Array.isArray(s.type) && !s.enum)
    return (s.type as string[]).includes('null') ? s : { ...s, type: [...(s.type as string[]), 'null'] }
  const { description, ...rest } = s
  return description === undefined
    ? { anyOf: [rest, { type: 'null' }] }
    : { description, anyOf: [rest, { type: 'null' }] }
}

/** Non-strict form: keep guidance keywords but drop `$schema` and zod's safe-integer noise. */
function loosen(raw: Json, wrapped: boolean): Json {
  const clean = (n: unknown): unknown => {
    if (Array.isArray(n)) return n.map(clean)
    if (!n || typeof n !== 'object') return n
    const o: Json = {}
    for (const [k, v] of Object.entries(n as Json)) {
      if (k === '$schema') continue
      if ((k === 'minimum' || k === 'maximum') && typeof v === 'number' && Math.abs(v) >= NOISE_BOUND) continue
      o[k] = clean(v)
    }
    return o
  }
  const root = clean(raw) as Json
  return wrapped ? { type: 'object', properties: { value: root }, required: ['value'] } : root
}

/**
 * Find the JSON value in a model's text: the whole text, a fenced ```json block, or the outermost {...} / [...].
 * Returns undefined when nothing parses.
 */
export function extractJson(text: string): unknown {
  const t = text.trim()
  const attempts: string[] = [t]
  const fence = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/.exec(t)
  if (fence?.[1]) attempts.push(fence[1].trim())
  for (const [open, close] of [
    ['{', '}'],
    ['[', ']'],
  ] as const) {
    const a = t.indexOf(open),
      b = t.lastIndexOf(close)
    if (a >= 0 && b > a) attempts.push(t.slice(a, b + 1))
  }
  for (const s of attempts) {
    try {
      return JSON.parse(s)
    } catch {
      /* try the next candidate */
    }
  }
  return undefined
}

/** Remove properties whose value is null (what strict mode sends for fields that were optional in zod). */
export function dropNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropNulls)
  if (!v || typeof v !== 'object') return v
  const o: Json = {}
  for (const [k, x] of Object.entries(v as Json)) if (x !== null) o[k] = dropNulls(x)
  return o
}

/**
 * Validate a parsed answer: unwrap `{ value }`, try as-is, then with nulls dropped (optional fields answered as null).
 * Returns the data or a short, model-readable description of the problems.
 */
export function validateAnswer<S extends z.ZodType>(
  schema: S,
  value: unknown,
  wrapped: boolean,
): { ok: true; data: z.output<S> } | { ok: false; issues: string } {
  let v = value
  if (wrapped && v && typeof v === 'object' && !Array.isArray(v) && 'value' in v) v = (v as Json).value
  const first = schema.safeParse(v)
  if (first.success) return { ok: true, data: first.data }
  const second = schema.safeParse(dropNulls(v))
  if (second.success) return { ok: true, data: second.data }
  return { ok: false, issues: formatIssues(first.error) }
}

export function formatIssues(err: z.ZodError): string {
  return err.issues
    .slice(0, 8)
    .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
    .join('; ')
}
