/**
 * Vocabulary for the offline intent grammar, loaded from data/intent/words.json and data/intent/nicknames.json:
 * amounts ("three", "21", "a stack" = 64, "half a stack" = 32, "some" = 4), nicknames (cobble → cobblestone,
 * pick → pickaxe, iron → iron_ingot, wood → oak_log), plural → singular, and the ambiguity table ("pickaxe" → which
 * one?). `resolveItem` turns an item phrase into an id, a question or a refusal using an `IntentKnowledge`.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { TimeOfDay, Weather } from '../schemas/goal.js'
import type { IntentKnowledge } from './intent-knowledge.js'
import { parseTable } from '../util/text.js'

const DATA_DIR = fileURLToPath(new URL('../../data/intent/', import.meta.url))

export interface Words {
  numbers: Record<string, number>
  quantifiers: Record<string, number>
  stack: number
  obtainVerbs: string[]
  craftVerbs: string[]
  mineVerbs: string[]
  findVerbs: string[]
  politePrefixes: string[]
  politeSuffixes: string[]
  recipients: string[]
  articles: string[]
  time: Record<TimeOfDay, string[]>
  weather: Record<Weather, string[]>
  brightness: Record<'sufficient' | 'dark', string[]>
  nearWords: string[]
}
export interface Nicknames {
  phrases: Record<string, string>
  words: Record<string, string>
  toolAdjectives: Record<string, string>
  toolWords: string[]
  ambiguous: Record<string, { question: string }>
}

let words: Words | undefined
let nicks: Nicknames | undefined
export function vocabulary(): { words: Words; nicks: Nicknames } {
  words ??= parseTable(readFileSync(`${DATA_DIR}words.json`, 'utf8')) as Words
  nicks ??= parseTable(readFileSync(`${DATA_DIR}nicknames.json`, 'utf8')) as Nicknames
  return { words, nicks }
}

/** Longest-first list of keys for prefix matching. */
const longestFirst = (xs: Iterable<string>): string[] => [...xs].sort((a, b) => b.length - a.length)
const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
export const phraseRe = (alts: string[]): RegExp =>
  new RegExp(`(?:^|\\s)(?:${longestFirst(alts).map(esc).join('|')})(?=\\s|$)`)

/** Parse a number at the start of `s`: digits, "twenty one", "twenty-one", "a dozen". */
function leadingNumber(s: string): { n: number; rest: string } | null {
  const d = /^(\d{1,5})(?:\s+|$)/.exec(s)
  if (d) return { n: Number(d[1]), rest: s.slice(d[0].length) }
  const { numbers } = vocabulary().words
  const toks = s.split(/[\s-]+/)
  const first = toks[0] ?? ''
  if (!(first in numbers)) return null
  let n = numbers[first]!
  let used = 1
  const second = toks[1] ?? ''
  if (n >= 20 && n < 100 && n % 10 === 0 && second in numbers && numbers[second]! < 10 && numbers[second]! > 0) {
    n += numbers[second]!
    used = 2
  } else if (n < 10 && second === 'hundred') {
    n *= 100
    used = 2
  } else if (n < 10 && second === 'dozen') {
    n *= 12
    used = 2
  }
  return { n, rest: toks.slice(used).join(' ') }
}

/** Split an amount off the front of a phrase. Without one, count is null (the caller decides the default). */
export function parseQuantity(phrase: string): { count: number | null; rest: string } {
  const { words: w } = vocabulary()
  let s = phrase.trim()
  const half = /^half (?:a |of a |one )?stack(?:s)?(?: of)?(?:\s+|$)/.exec(s)
  if (half) return { count: Math.floor(w.stack / 2), rest: s.slice(half[0].length) }
  // "<n> stacks of", "a stack of"
  const stackOf = /^(.*?)\s*\bstacks?(?: of)?(?:\s+|$)/.exec(s)
  if (stackOf) {
    const lead = stackOf[1]!.trim()
    const num =
      lead === '' || lead === 'a' || lead === 'an' || lead === 'one' ? { n: 1, rest: '' } : leadingNumber(lead)
    if (num && num.rest.trim() === '') return { count: num.n * w.stack, rest: s.slice(stackOf[0].length) }
  }
  const num = leadingNumber(s)
  if (num && num.n > 0) return { count: num.n, rest: num.rest.replace(/^of\s+/, '') }
  for (const q of longestFirst(Object.keys(w.quantifiers))) {
    if (s === q || s.startsWith(`${q} `)) {
      s = s
        .slice(q.length)
        .trim()
        .replace(/^of\s+/, '')
      return { count: w.quantifiers[q]!, rest: s }
    }
  }
  return { count: null, rest: s }
}

/** English plural → singular for the last word of a name (tried only after the plural form failed). */
export function singular(word: string): string {
  if (/ies$/.test(word) && word.length > 4) return `${word.slice(0, -3)}y`
  if (/oes$/.test(word)) return word.slice(0, -2)
  if (/(ches|shes|xes|sses)$/.test(word)) return word.slice(0, -2)
  if (/[^s]s$/.test(word)) return word.slice(0, -1)
  return word
}

export type ItemResolution =
  | { kind: 'ok'; id: string }
  | { kind: 'ambiguous'; question: string }
  | { kind: 'impossible'; id: string; reason: string }
  | { kind: 'unknown'; name: string; suggestions: string[] }
  | { kind: 'empty' }

/** Strip articles and possessive noise from an item phrase. */
export function cleanPhrase(phrase: string): string {
  const { articles } = vocabulary().words
  let s = phrase.trim().replace(/\s+/g, ' ')
  for (let changed = true; changed; ) {
    changed = false
    for (const a of articles)
      if (s.startsWith(`${a} `)) {
        s = s.slice(a.length + 1)
        changed = true
      }
  }
  return s.replace(/\b(please|pls|thanks)\b/g, '').trim()
}

/** Resolve an item/block/entity phrase ("iron ingots", "stone pick", "cobble") against the knowledge. */
export function resolveItem(phrase: string, kb: IntentKnowledge): ItemResolution {
  const { nicks: n } = vocabulary()
  const clean = cleanPhrase(phrase)
  if (clean === '') return { kind: 'empty' }
  const spaced = clean.replace(/_/g, ' ')
  const toks = spaced.split(/[\s-]+/).map((t) => n.words[t] ?? t)
  for (let i = 0; i + 1 < toks.length; i++) {
    const adj = n.toolAdjectives[toks[i]!]
    if (adj && n.toolWords.includes(singular(toks[i + 1]!))) toks[i] = adj
  }
  const last = toks[toks.length - 1]!
  // singular first: "potatoes"/"carrots" are crop blocks too, but a player asking for them means the item
  const forms = [[...toks.slice(0, -1), singular(last)], toks]
  // "zombies", "cookies", "pies": the -ies rule gives zomby; also try dropping the s alone
  if (/ies$/.test(last)) forms.push([...toks.slice(0, -1), last.slice(0, -1)])
  for (const f of forms) {
    const amb = n.ambiguous[f.join(' ')]
    if (amb) return { kind: 'ambiguous', question: amb.question }
  }
  const candidates: string[] = []
  const phraseHit = n.phrases[spaced]
  if (phraseHit) candidates.push(phraseHit)
  for (const f of forms) {
    const p = n.phrases[f.join(' ')]
    if (p) candidates.push(p)
    candidates.push(f.join('_'))
  }
  for (const id of candidates.map((c) => kb.current?.(c) ?? c)) {
    if (!kb.has(id)) continue
    const reason = kb.impossibleReason(id)
    return reason ? { kind: 'impossible', id, reason } : { kind: 'ok', id }
  }
  // An id the knowledge does not list but the table knows is impossible (e.g. "water" as an item).
  for (const id of candidates) {
    const reason = kb.impossibleReason(id)
    if (reason) return { kind: 'impossible', id, reason }
  }
  const best = forms[0]!.join('_')
  // Names are short; a long phrase is a sentence we did not understand, and did-you-mean on it is wasted work.
  const nameLike = toks.length <= 4 && best.length <= 40
  return { kind: 'unknown', name: clean, suggestions: nameLike ? kb.suggest(best) : [] }
}
