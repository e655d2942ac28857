/**
 * Prompt templates: every LLM prompt is a file in prompts/ with an `=== system ===` section (instructions) and an
 * `=== user ===` section (data), and named slots `{{slot}}`. `loadPrompt(name, slots)` checks at load time that the
 * template uses exactly the slots the code fills — a slot the code fills but the template lacks, or a template slot
 * the code never fills, is a GhostError('config') before any call is made. Rendering is a single pass (filled values
 * are never re-scanned for slots). Player text goes in through `quoteData`: JSON-encoded, with `<` and `>` escaped so
 * it cannot close the surrounding `<data>` block.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { GhostError } from '../util/errors.js'
import type { Prompt } from './client.js'

export const PROMPTS_DIR = fileURLToPath(new URL('../../prompts/', import.meta.url))

/** The slots each shipped prompt is filled with (the code side of the load-time check). */
export const PROMPT_SLOTS = {
  intent: ['player', 'request', 'version'],
  planner: ['goal', 'inventory', 'biome', 'y', 'ground', 'reference_plan', 'lessons', 'feedback'],
  analyser: ['goal', 'steps', 'state', 'nearby', 'progress', 'offline_guess'],
  summarise: ['goal', 'plans'],
  request: ['player', 'request', 'version', 'blueprints'],
} as const satisfies Record<string, readonly string[]>
export type PromptName = keyof typeof PROMPT_SLOTS
export type SlotsOf<N extends PromptName> = (typeof PROMPT_SLOTS)[N][number]

const SLOT_RE = /\{\{\s*([a-z][a-z0-9_]*)\s*\}\}/g
const SECTION_RE = /^===\s*(system|user)\s*===\s*$/m

export interface PromptTemplate<S extends string> {
  readonly name: string
  readonly slots: readonly S[]
  render(values: Record<S, string>): Prompt
}

/** Parse and check a template's text (exported for tests; `loadPrompt` reads the file). */
export function parseTemplate<S extends string>(name: string, text: string, slots: readonly S[]): PromptTemplate<S> {
  const parts = text.split(SECTION_RE)
  // split with a capture group: [before, 'system', body, 'user', body]
  const sections: Record<string, string> = {}
  for (let i = 1; i + 1 < parts.length; i += 2) sections[parts[i]!] = parts[i + 1]!.trim()
  if (sections.system === undefined || sections.user === undefined) {
    throw new GhostError('config', `prompt ${name}: needs an "=== system ===" and an "=== user ===" section`)
  }
  const used = new Set([...text.matchAll(SLOT_RE)].map((m) => m[1]!))
  const filled = new Set<string>(slots)
  const missing = [...filled].filter((s) => !used.has(s))
  const unfilled = [...used].filter((s) => !filled.has(s))
  if (missing.length > 0 || unfilled.length > 0) {
    const why = [
      missing.length
        ? `the code fills ${missing.map((s) => `{{${s}}}`).join(', ')} but the template has no such slot`
        : '',
      unfilled.length ? `the template has ${unfilled.map((s) => `{{${s}}}`).join(', ')} that the code never fills` : '',
    ]
      .filter(Boolean)
      .join('; ')
    throw new GhostError('config', `prompt ${name}: ${why}`)
  }
  const system = sections.system,
    user = sections.user
  const fill = (t: string, values: Record<string, string>): string =>
    t.replace(SLOT_RE, (_, s: string) => {
      const v = values[s]
      if (v === undefined) throw new GhostError('internal', `prompt ${name}: no value for {{${s}}}`)
      return v
    })
  return {
    name,
    slots,
    render: (values) => ({ name, system: fill(system, values), user: fill(user, values) }),
  }
}

const cache = new Map<string, PromptTemplate<string>>()

/** Load prompts/<name>.md and check its slots against `slots`. Cached per directory and name. */
export function loadPrompt<S extends string>(name: string, slots: readonly S[], dir = PROMPTS_DIR): PromptTemplate<S> {
  const key = `${dir}\0${name}`
  const hit = cache.get(key)
  if (hit) return hit as unknown as PromptTemplate<S>
  let text: string
  try {
    text = readFileSync(`${dir.replace(/\/?$/, '/')}${name}.md`, 'utf8')
  } catch (err) {
    throw new GhostError('config', `prompt ${name}: cannot read ${name}.md in ${dir}`, undefined, { cause: err })
  }
  const t = parseTemplate(name, text, slots)
  cache.set(key, t as unknown as PromptTemplate<string>)
  return t
}

export type ShippedPrompts = { [N in PromptName]: PromptTemplate<SlotsOf<N>> }

/** Load and check every shipped prompt at once (call at start-up so a broken template fails early). */
export function loadPrompts(dir = PROMPTS_DIR): ShippedPrompts {
  const out: Partial<Record<PromptName, PromptTemplate<string>>> = {}
  for (const name of Object.keys(PROMPT_SLOTS) as PromptName[]) out[name] = loadPrompt(name, PROMPT_SLOTS[name], dir)
  return out as ShippedPrompts
}

/** Encode a value (player text, game data) as JSON data for a `<data>` block: never readable as a closing tag. */
export function quoteData(value: unknown): string {
  return (JSON.stringify(value, null, 0) ?? 'null').replace(/</g, '\\u003c').replace(/>/g, '\\u003e')
}
