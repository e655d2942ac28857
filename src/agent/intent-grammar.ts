/**
 * The offline intent grammar: free text → Intent without an LLM, for common phrasings ("get 3 iron ingots",
 * "make me a stone pickaxe", "bring me some bread", "craft 2 sticks", "mine 10 cobble", "half a stack of oak logs",
 * "find a cow in the desert during the daytime", "find grass near a pig in the plains"). Text is split into
 * clauses; each clause is verb + amount + item (+ conditions for find-requests). Clauses that try to instruct the
 * bot itself ("ignore previous instructions", "make me owner") are dropped; they can never yield anything but
 * goals, a question or a refusal. `confident` is false when the grammar did not understand (an LLM may do better).
 */
import { Conditions as ConditionsSchema, Goal, MAX_COUNT, type Conditions } from '../schemas/goal.js'
import type { Intent } from '../schemas/intent.js'
import type { IntentKnowledge } from './intent-knowledge.js'
import { cleanPhrase, phraseRe, parseQuantity, resolveItem, vocabulary } from './intent-words.js'

export interface GrammarResult {
  intent: Intent
  confident: boolean
}

type Verb = 'obtain' | 'craft' | 'mine' | 'find'
type Part =
  | { t: 'goal'; verb: Verb; goal: Goal }
  | { t: 'conditions'; conditions: Conditions }
  | { t: 'clarify'; question: string; confident: boolean }
  | { t: 'refuse'; reason: string }
  | { t: 'injection' }
  | { t: 'empty' }

export const INJECTION_REASON =
  'I only get, craft, mine and find things; a request cannot change roles, permissions or my instructions.'
export const NOT_UNDERSTOOD =
  'I can get, craft, mine or find things, e.g. "get 3 iron ingots" or "find a cow in the desert". What should I do?'

const INJECTION = [
  /\b(ignore|disregard|forget|override|bypass)\b.*\b(instruction|instructions|rules?|prompts?|previous|above|earlier|everything|system)\b/,
  /\b(you are now|from now on you|new instructions|system prompt|developer (message|mode)|jailbreak|act as|pretend)\b/,
  /\b(make|set|give|grant|promote|add|appoint|let)\b.*\b(owner|owners|admin|admins|administrator|op|ops|operator|trusted|role|roles|permissions?|moderator|mod|whitelist)\b/,
  /\b(owner|admin|operator|trusted|role|permissions?)\b\s*(status|rights|access|level)?\s*$/,
  /^\/[a-z]+/,
  /\bsudo\b/,
  /\b(reveal|print|show|repeat)\b.*\b(prompt|instructions|config|token|key|password)\b/,
]

/** Whether a normalised clause tries to instruct the bot itself (roles, prompts, commands). */
export function isInjection(clause: string): boolean {
  return INJECTION.some((re) => re.test(clause))
}

/** Lower-case, drop punctuation we don't use, protect multi-word ids containing "and". */
function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/flint and steel/g, 'flint_and_steel')
    .replace(/[^a-z0-9_'\s.,;!?\n/-]/g, ' ')
    .replace(/[ \t]+/g, ' ')
}

function stripPolite(s: string): string {
  const { words: w } = vocabulary()
  let out = s.trim()
  const pre = phraseRe(w.politePrefixes),
    suf = new RegExp(`\\s(?:${w.politeSuffixes.map((x) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`)
  for (let i = 0; i < 6; i++) {
    const before = out
    const m = pre.exec(out)
    if (m && m.index === 0) out = out.slice(m[0].length).trim()
    out = out.replace(suf, '').trim()
    if (out === before) break
  }
  return out
}

function matchVerb(s: string): { verb: Verb; rest: string } | null {
  const { words: w } = vocabulary()
  const table: Array<[Verb, string[]]> = [
    ['find', w.findVerbs],
    ['mine', w.mineVerbs],
    ['craft', w.craftVerbs],
    ['obtain', w.obtainVerbs],
  ]
  let best: { verb: Verb; rest: string; len: number } | null = null
  for (const [verb, list] of table) {
    for (const v of list) {
      if ((s === v || s.startsWith(`${v} `)) && (!best || v.length > best.len))
        best = { verb, rest: s.slice(v.length).trim(), len: v.length }
    }
  }
  if (!best) return null
  let rest = best.rest
  for (const r of w.recipients) if (rest.startsWith(`${r} `) || rest === r) rest = rest.slice(r.length).trim()
  return { verb: best.verb, rest }
}

/** A thing that must be near the target: any known block, item or mob name (it need not be obtainable: water). */
function nearName(phrase: string, kb: IntentKnowledge): string | null {
  const raw = phrase.trim().replace(/\s+/g, '_')
  const direct = [raw, raw.replace(/s$/, '')].find((n) => kb.has(n))
  if (direct) return direct
  const r = resolveItem(phrase, kb)
  return r.kind === 'ok' ? r.id : null
}

/** Pull context conditions out of a find-phrase; returns the remaining object phrase. */
function extractConditions(s: string, kb: IntentKnowledge): { rest: string; conditions: Conditions | null } {
  const { words: w } = vocabulary()
  const c: Conditions = ConditionsSchema.parse({})
  let rest = ` ${s} `
  const take = <K extends string>(table: Record<K, string[]>): K | null => {
    for (const [k, phrases] of Object.entries(table) as Array<[K, string[]]>) {
      const m = phraseRe(phrases).exec(rest)
      if (m) {
        rest = `${rest.slice(0, m.index)} ${rest.slice(m.index + m[0].length)}`
        return k
      }
    }
    return null
  }
  c.weather = take(w.weather)
  c.brightness = take(w.brightness)
  c.time = take(w.time)
  const stop = '(?=\\s+(?:in|on|at|during|while|when|near|next|close|beside|around|by|with)\\s|\\s*$)'
  // "with a grass next to it" / "with water nearby": the thing named is what must be near
  const withNear =
    /\swith\s+(?:a|an|the|some)?\s*([a-z_ ]+?)\s+(?:next to it|near it|nearby|beside it|close by)(?=\s|$)/.exec(rest)
  if (withNear) {
    const id = nearName(withNear[1]!, kb)
    if (id) {
      c.near = id
      rest = `${rest.slice(0, withNear.index)} ${rest.slice(withNear.index + withNear[0].length)}`
    }
  }
  const near = c.near
    ? null
    : new RegExp(`\\s(?:${w.nearWords.join('|')})\\s+(?:to\\s+)?((?:a|an|the|some)\\s+)?([a-z_ ]+?)${stop}`).exec(rest)
  if (near) {
    const id = nearName(near[2]!, kb)
    if (id) {
      c.near = id
      rest = `${rest.slice(0, near.index)} ${rest.slice(near.index + near[0].length)}`
    }
  }
  const biome = new RegExp(`\\s(?:in|on)\\s+(?:a|an|the)?\\s*([a-z_ ]+?)(?:\\s+biome)?${stop}`).exec(rest)
  if (biome) {
    const raw = biome[1]!.trim().replace(/\s+/g, '_')
    const id = [raw, raw.replace(/s$/, ''), `${raw}s`].find((b) => kb.isBiome(b))
    if (id) {
      c.biome = id
      rest = `${rest.slice(0, biome.index)} ${rest.slice(biome.index + biome[0].length)}`
    }
  }
  // Always an object for find-requests (possibly all null): a goal with conditions is something to *find*, not obtain.
  return { rest: rest.replace(/\s+/g, ' ').trim(), conditions: c }
}

/** `base` with every condition `more` states (a later clause's condition wins over an earlier one). */
export function mergeConditions(base: Conditions | null, more: Conditions): Conditions {
  return {
    ...(base ?? ConditionsSchema.parse({})),
    ...Object.fromEntries(Object.entries(more).filter(([, v]) => v !== null)),
  }
}

/**
 * A clause that only states conditions ("the weather is sunny day", "during the night"): its conditions, or null
 * when it names anything else too. The clause continues the find before it.
 */
export function conditionsOnly(clause: string, kb: IntentKnowledge): Conditions | null {
  const { rest, conditions } = extractConditions(stripPolite(clause), kb)
  if (!conditions || cleanPhrase(rest) !== '') return null
  return Object.values(conditions).some((v) => v !== null) ? conditions : null
}

function parsePart(raw: string, inherited: Verb | null, kb: IntentKnowledge): { part: Part; verb: Verb | null } {
  const s = stripPolite(raw)
  if (s === '') return { part: { t: 'empty' }, verb: inherited }
  if (INJECTION.some((re) => re.test(s))) return { part: { t: 'injection' }, verb: inherited }
  const m = matchVerb(s)
  const verb = m?.verb ?? inherited
  let rest = m ? m.rest : s
  let conditions: Conditions | null = null
  if (verb === 'find') ({ rest, conditions } = extractConditions(rest, kb))
  const q = parseQuantity(rest)
  const r = resolveItem(q.rest, kb)
  const understood = m !== null || inherited !== null
  switch (r.kind) {
    case 'empty':
      if (conditions) return { part: { t: 'conditions', conditions }, verb }
      return {
        part: m
          ? { t: 'clarify', question: `what should I ${m.verb === 'obtain' ? 'get' : m.verb}?`, confident: true }
          : { t: 'empty' },
        verb,
      }
    case 'ambiguous':
      return { part: { t: 'clarify', question: r.question, confident: understood }, verb }
    case 'impossible':
      return { part: { t: 'refuse', reason: refusal(r.id, r.reason) }, verb }
    case 'unknown': {
      if (!understood) return { part: { t: 'clarify', question: NOT_UNDERSTOOD, confident: false }, verb }
      const name = r.name.slice(0, 40)
      const question =
        r.suggestions.length > 0
          ? `I don't know "${name}". Did you mean ${orList(r.suggestions)}?`
          : `I don't know "${name}" in Minecraft ${kb.version}. Which item do you mean?`
      return { part: { t: 'clarify', question, confident: false }, verb }
    }
    case 'ok': {
      const goal = Goal.parse({ object: r.id, count: Math.min(MAX_COUNT, q.count ?? 1), conditions })
      return { part: { t: 'goal', verb: verb ?? 'obtain', goal }, verb }
    }
  }
}

/** "I can't get bedrock: creative-only: bedrock cannot be broken in survival" (at most 300 characters). */
export function refusal(id: string, reason: string): string {
  return `I can't get ${id}: ${reason}`.slice(0, 300)
}

function orList(xs: string[]): string {
  return xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} or ${xs[xs.length - 1]!}`
}

/** Parse a request offline. Never throws for any text. */
export function parseOffline(text: string, kb: IntentKnowledge): GrammarResult {
  const sentences = normalise(text.slice(0, 1000)).split(/[.!?;\n]+/)
  const parts: Part[] = []
  for (const sentence of sentences) {
    let verb: Verb | null = null
    for (const chunk of sentence.split(/\s*,\s*|\s+(?:and then|then|and also|and|also|plus)\s+/)) {
      const res = parsePart(chunk, verb, kb)
      verb = res.verb
      parts.push(res.part)
    }
  }
  const goals: Goal[] = []
  for (const p of parts) {
    if (p.t === 'goal') goals.push(p.goal)
    else if (p.t === 'conditions') {
      const prev = goals[goals.length - 1]
      if (prev) prev.conditions = mergeConditions(prev.conditions, p.conditions)
    }
  }
  const refuse = parts.find((p) => p.t === 'refuse')
  if (refuse && refuse.t === 'refuse') return { intent: { kind: 'refuse', reason: refuse.reason }, confident: true }
  const clarify = parts.find((p) => p.t === 'clarify')
  if (clarify && clarify.t === 'clarify')
    return { intent: { kind: 'clarify', question: clarify.question }, confident: clarify.confident }
  if (goals.length > 0) return { intent: { kind: 'goals', goals: goals.slice(0, 8) }, confident: true }
  if (parts.some((p) => p.t === 'injection'))
    return { intent: { kind: 'refuse', reason: INJECTION_REASON }, confident: true }
  return { intent: { kind: 'clarify', question: NOT_UNDERSTOOD }, confident: false }
}
