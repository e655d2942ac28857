/**
 * The word tables of the request grammar (data/intent/requests.json): typo fixes, control words, question templates
 * per question kind, movement, chest, build, guard, attack and give words, recipients and "huge amount" words.
 * Templates are compiled once into anchored regular expressions: `*` is the subject phrase, `#` a list of items the
 * player says they have, `[a|b]` alternatives and `[a|b|]` an optional alternative. Also the text normaliser the
 * grammar runs first (lower case, apostrophes, typos word by word, numbers joined across commas).
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { ControlOp, QuestionKind } from '../schemas/step.js'

const FILE = fileURLToPath(new URL('../../data/intent/requests.json', import.meta.url))

export interface RequestWords {
  politePrefixes: string[]
  politeSuffixes: string[]
  typos: Record<string, string>
  control: Record<ControlOp, string[]>
  questions: Record<QuestionKind, string[]>
  come: string[]
  follow: string[]
  moveVerbs: string[]
  places: Record<string, string>
  depositVerbs: string[]
  withdrawVerbs: string[]
  blueprints: Record<string, string>
  buildVerbs: string[]
  guard: string[]
  attackVerbs: string[]
  giveVerbs: string[]
  possessives: string[]
  everything: string[]
  pronouns: string[]
  deliveryTails: string[]
  requesterOpeners: string[]
  requesterWords: string[]
  selfPhrases: string[]
  keepClauses: string[]
  fillers: string[]
  huge: string[]
  playerWords: string[]
  meWords: string[]
}

export interface Template {
  re: RegExp
  source: string
}
export interface CompiledWords extends RequestWords {
  questionRes: Array<{ kind: QuestionKind; t: Template }>
  followRes: Template[]
  guardRes: Template[]
}

const esc = (s: string): string => s.replace(/[.*+?^${}()|\\]/g, '\\$&')

/**
 * Compile a template into an anchored regex with named groups `s` (subject) and `h` (stated inventory). Every part
 * starts with its own separator, so match it against the text with one leading space (`matchTemplate`).
 */
export function compileTemplate(t: string): Template {
  const parts: string[] = []
  const word = (a: string): string =>
    a === '*' ? '(?<s>.+?)' : a === '#' ? '(?<h>.+?)' : a.split(/\s+/).map(esc).join('\\s+')
  const re = /\[([^\]]*)\]|(\S+)/g
  for (let m = re.exec(t); m; m = re.exec(t)) {
    if (m[1] === undefined) {
      parts.push(`\\s+${word(m[2]!)}`)
      continue
    }
    const alts = m[1].split('|')
    const body = alts
      .filter((a) => a !== '')
      .map(word)
      .join('|')
    parts.push(alts.includes('') ? `(?:\\s+(?:${body}))?` : `\\s+(?:${body})`)
  }
  return { re: new RegExp(`^${parts.join('')}$`), source: t }
}

/** Match a compiled template against a normalised clause; the groups, or null. */
export function matchTemplate(t: Template, s: string): { s?: string; h?: string } | null {
  const m = t.re.exec(` ${s.trim()}`)
  return m ? { ...(m.groups?.s ? { s: m.groups.s } : {}), ...(m.groups?.h ? { h: m.groups.h } : {}) } : null
}

let cached: CompiledWords | undefined
export function requestWords(): CompiledWords {
  if (cached) return cached
  const w = JSON.parse(readFileSync(FILE, 'utf8')) as RequestWords
  const questionRes: CompiledWords['questionRes'] = []
  // subject-less questions first: "where are you" is about the bot, not an item called "you"
  const order: QuestionKind[] = [
    'position',
    'doing',
    'capabilities',
    'inventory',
    'needs',
    'smelt',
    'drops',
    'where',
    'recipe',
  ]
  for (const kind of order) for (const t of w.questions[kind] ?? []) questionRes.push({ kind, t: compileTemplate(t) })
  cached = { ...w, questionRes, followRes: w.follow.map(compileTemplate), guardRes: w.guard.map(compileTemplate) }
  return cached
}

/** Lower case, plain apostrophes, typos fixed word by word, "10, 64, -20" joined, protected multi-word ids. */
export function normaliseRequest(text: string): string {
  const { typos } = requestWords()
  const s = text
    .toLowerCase()
    .replace(/[\u2018\u2019`]/g, "'")
    .replace(/flint and steel/g, 'flint_and_steel')
    .replace(/(-?\d+)\s*,\s*(?=-?\d)/g, '$1 ')
    .replace(/[^a-z0-9_'\s.,;!?\n/+&-]/g, ' ')
    .replace(/(\d)\s*k\b/g, '$1000')
  return s
    .split(/([\s.,;!?\n]+)/)
    .map((tok) => typos[tok] ?? tok)
    .join('')
    .replace(/[ \t]+/g, ' ')
    .trim()
}

/** True when `s` is exactly one of the phrases (after trimming). */
export function isOneOf(s: string, phrases: string[]): boolean {
  return phrases.includes(s.trim())
}

/** The longest phrase of the list that `s` starts with (as whole words), or null. */
export function leadingPhrase(s: string, phrases: string[]): string | null {
  let best: string | null = null
  for (const p of phrases) if ((s === p || s.startsWith(`${p} `)) && (!best || p.length > best.length)) best = p
  return best
}
