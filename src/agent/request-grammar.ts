/**
 * The offline request grammar: free text → `Understanding` (steps | clarify | refuse) without an LLM. Text is
 * normalised (typos, apostrophes), split into sentences and clauses ("and", "then", commas), and each clause is
 * tried against the step kinds in a fixed order — control words, questions, come/follow/goto, chests, build, guard,
 * attack, give, "bring them to me" follow-ups — before it is read as an obtain by the item grammar of
 * intent-grammar.ts (verbs, amounts, nicknames, conditions, injection). Every table is data
 * (data/intent/requests.json, words.json, nicknames.json), so phrasings not seen before still parse. Counts above
 * what a player can carry are refused with a sentence, never clamped. `confident` is false when nothing was
 * understood (an LLM may do better).
 */
import { MAX_COUNT, MAX_STEPS, type Step, type Understanding } from '../schemas/step.js'
import type { Goal } from '../schemas/goal.js'
import { conditionsOnly, INJECTION_REASON, isInjection, mergeConditions, parseOffline } from './intent-grammar.js'
import { vocabulary } from './intent-words.js'
import type { RequestKnowledge } from './request-knowledge.js'
import { normaliseRequest, leadingPhrase, requestWords } from './request-words.js'
import {
  attackClause,
  buildClause,
  controlClause,
  giveClause,
  guardClause,
  itemList,
  moveClause,
  playerName,
  questionClause,
  storeClause,
  type Clause,
  type ClauseCtx,
} from './request-clauses.js'

export interface UnderstandResult {
  understanding: Understanding
  confident: boolean
}

export const NOT_UNDERSTOOD_REQUEST =
  'I did not get that. I can get, craft, mine or find things ("bring me 4 bread"), hand over what I carry ' +
  '("give me your iron"), answer questions ("how do I make a compass?", "where are diamonds?"), come, follow, stop, or say what I am doing.'
export const TOO_MANY = `That is more than I can carry: at most ${MAX_COUNT} (36 stacks of 64) per request. Ask for fewer.`

const CONNECTORS =
  /\s*,\s*(?:and then\s+|and\s+|then\s+)?|\s+(?:and then|after that|afterwards|and after that|then|and also|and|also|plus)\s+/

function stripPolite(s: string): string {
  const { words: w } = vocabulary()
  const r = requestWords()
  const prefixes = [...w.politePrefixes.filter((p) => !['go', 'go and', 'now'].includes(p)), ...r.politePrefixes]
  const suffixes = [...w.politeSuffixes.filter((p) => !['for me', 'for us'].includes(p)), ...r.politeSuffixes]
  let out = s.trim()
  for (let i = 0; i < 6; i++) {
    const before = out
    const p = leadingPhrase(out, prefixes)
    if (p) out = out.slice(p.length).trim()
    for (const x of suffixes) if (out.endsWith(` ${x}`)) out = out.slice(0, -x.length - 1).trim()
    if (prefixes.includes(out)) out = ''
    out = out.replace(/^[,'\s]+|[,'\s]+$/g, '')
    if (out === before) break
  }
  return out
}

/** Any amount over the cap: digits above MAX_COUNT or words like "a million". */
function tooMany(c: string): boolean {
  if (requestWords().huge.some((h) => new RegExp(`(?:^|\\s)${h}(?=\\s|$)`).test(c))) return true
  return (
    [...c.matchAll(/(?:^|\s)(\d+)(?=\s|$)/g)].some((m) => Number(m[1]) > MAX_COUNT) &&
    !/\s-?\d+\s+-?\d+\s+-?\d+$/.test(c)
  )
}

interface State {
  steps: Step[]
  obtainVerb: string | null
  last: Clause | null
  injection: boolean
}

/** Who an obtain clause is for, and the clause without the words that said so. */
function recipientOf(c: string, ctx: ClauseCtx): { to: string | null; text: string } {
  const w = requestWords()
  for (const p of w.selfPhrases) {
    const re = new RegExp(`(?:^|\\s)${p}(?=\\s|$)`)
    if (re.test(c)) return { to: 'self', text: c.replace(re, ' ').trim() }
  }
  const forName = /\s+(?:for|to)\s+([a-z0-9_]{3,16})$/.exec(c)
  if (forName && !w.meWords.includes(forName[1]!)) {
    const name = playerName(forName[1]!, ctx)
    if (name) return { to: name, text: c.slice(0, forName.index) }
  }
  if (
    leadingPhrase(c, w.requesterOpeners) ||
    /(?:^|\s)(?:me|us|myself)(?=\s|$)/.test(c) ||
    /^(?:bring|fetch|give|hand)\b/.test(c)
  ) {
    return { to: 'requester', text: c }
  }
  return { to: null, text: c }
}

function isFind(g: Goal, kb: RequestKnowledge): boolean {
  return g.conditions !== null || (kb.isEntity(g.object) && !kb.isItem(g.object))
}

function obtainClause(c: string, ctx: ClauseCtx, st: State): Clause | null {
  const { words: w } = vocabulary()
  const verbs = [...w.obtainVerbs, ...w.craftVerbs, ...w.mineVerbs, ...w.findVerbs]
  const prev = st.steps[st.steps.length - 1]
  // "chop 5 more": the same thing as the obtain before
  const c1 = prev?.kind === 'obtain' ? c.replace(/\s(?:more|extra|additional)$/, ` ${prev.object}`) : c
  const verb = leadingPhrase(c1.replace(/^(?:go and|go)\s+/, ''), verbs)
  const opener = verb ? null : leadingPhrase(c1, requestWords().requesterOpeners)
  const text = verb || opener ? c1 : st.obtainVerb ? `${st.obtainVerb} ${c1}` : c1
  const rec = recipientOf(text, ctx)
  // an opener the item grammar does not know ("may i have") is a plain "get" for the requester
  const r = parseOffline(opener ? `get ${rec.text.slice(opener.length)}` : rec.text, ctx.kb)
  if (!r.confident && r.intent.kind === 'clarify' && !verb && !opener && !st.obtainVerb) return null
  if (r.intent.kind === 'clarify') return { t: 'clarify', question: r.intent.question, confident: r.confident }
  if (r.intent.kind === 'refuse') return { t: 'refuse', reason: r.intent.reason }
  if (verb) st.obtainVerb = verb
  const smelting = verb !== null && /^(?:smelt|cook|bake|roast)$/.test(verb)
  const steps: Step[] = r.intent.goals.map((g) => {
    const forWhom = rec.to ?? (isFind(g, ctx.kb) ? 'self' : 'requester')
    // "smelt iron ore" / "cook porkchops": what comes out of the furnace
    const object = (smelting ? ctx.kb.knowledge.smeltResult(g.object) : null) ?? g.object
    const step: Step = { kind: 'obtain', object, count: g.count, conditions: g.conditions, for: forWhom }
    return step
  })
  return { t: 'steps', steps }
}

const PARSERS: Array<(c: string, ctx: ClauseCtx) => Clause | null> = [
  (c) => controlClause(c),
  questionClause,
  moveClause,
  storeClause,
  buildClause,
  guardClause,
  attackClause,
  giveClause,
]

function parseClause(raw: string, ctx: ClauseCtx, st: State): Clause | null {
  const c = stripPolite(raw)
  if (c === '') return null
  if (isInjection(c)) {
    st.injection = true
    return null
  }
  const w = requestWords()
  if (w.fillers.includes(c)) return null
  const prev0 = st.steps[st.steps.length - 1] ?? null
  if (w.keepClauses.includes(c))
    return {
      t: 'ref',
      build: (prev) => (prev?.kind === 'obtain' ? [{ ...prev, for: 'self' }] : prev ? [prev] : 'keep what?'),
    }
  // "…and your gold": a bare item phrase continues the list of the give/store before it
  if (
    (prev0?.kind === 'give' || prev0?.kind === 'store') &&
    prev0.items.length > 0 &&
    !leadingPhrase(c, [...w.giveVerbs, ...w.depositVerbs, ...w.withdrawVerbs])
  ) {
    const l = itemList(
      c,
      ctx,
      prev0.items.every((i) => i.count === null),
    )
    if ('items' in l && l.items.length)
      return {
        t: 'ref',
        build: (prev) =>
          prev && (prev.kind === 'give' || prev.kind === 'store')
            ? [{ ...prev, items: [...prev.items, ...l.items] }]
            : 'which items?',
      }
  }
  // "…, the weather is sunny day and the brightness is sufficient": more conditions of the find before it
  const more = prev0?.kind === 'obtain' && prev0.conditions !== null ? conditionsOnly(c, ctx.kb) : null
  if (more)
    return {
      t: 'ref',
      build: (prev) =>
        prev?.kind === 'obtain' && prev.conditions
          ? [{ ...prev, conditions: mergeConditions(prev.conditions, more) }]
          : 'what should I look for?',
    }
  for (const p of PARSERS) {
    const r = p(c, ctx)
    if (r) return r
  }
  // "…and a clock" after a question: the same question about the next subject
  const prev = st.steps[st.steps.length - 1]
  if (prev?.kind === 'answer' && prev.subject !== null && st.last?.t === 'steps') {
    const q = questionClause(`${TEMPLATE_FOR[prev.question] ?? ''} ${c}`.trim(), ctx)
    if (q) return q
  }
  if (tooMany(c)) return { t: 'refuse', reason: TOO_MANY }
  return obtainClause(c, ctx, st)
}

const TEMPLATE_FOR: Partial<Record<string, string>> = {
  recipe: 'how do i make',
  where: 'where are',
  drops: 'what drops',
  smelt: 'how do i smelt',
  needs: 'what would you need for',
}

/** Parse a request offline. Never throws for any text. */
export function understandOffline(text: string, kb: RequestKnowledge): UnderstandResult {
  const ctx: ClauseCtx = { kb, raw: text.slice(0, 1000) }
  const norm = normaliseRequest(ctx.raw)
  const st: State = { steps: [], obtainVerb: null, last: null, injection: false }
  const problems: Clause[] = []
  for (const sentence of norm.split(/[.!?;\n]+/)) {
    const whole = stripPolite(sentence)
    const w = whole ? (questionClause(whole, ctx) ?? storeClause(whole, ctx)) : null
    const clauses = w && w.t !== 'clarify' ? [w] : null
    for (const chunk of clauses ? [null] : sentence.split(CONNECTORS)) {
      const r = clauses ? clauses[0]! : parseClause(chunk ?? '', ctx, st)
      st.last = r
      if (!r) continue
      if (r.t === 'steps') st.steps.push(...r.steps)
      else if (r.t === 'ref') {
        const prev = st.steps.pop() ?? null
        const out = r.build(prev)
        if (typeof out === 'string') {
          if (prev) st.steps.push(prev)
          problems.push({ t: 'clarify', question: out, confident: true })
        } else st.steps.push(...out)
      } else problems.push(r)
    }
  }
  const refuse = problems.find((p) => p.t === 'refuse')
  if (refuse?.t === 'refuse') return { understanding: { kind: 'refuse', reason: refuse.reason }, confident: true }
  const clarify = problems.find((p) => p.t === 'clarify')
  if (clarify?.t === 'clarify')
    return { understanding: { kind: 'clarify', question: clarify.question }, confident: clarify.confident }
  if (st.steps.length > MAX_STEPS)
    return {
      understanding: { kind: 'refuse', reason: `That is too much at once: at most ${MAX_STEPS} steps per request.` },
      confident: true,
    }
  if (st.steps.length > 0) return { understanding: { kind: 'steps', steps: st.steps }, confident: true }
  if (st.injection) return { understanding: { kind: 'refuse', reason: INJECTION_REASON }, confident: true }
  return { understanding: { kind: 'clarify', question: NOT_UNDERSTOOD_REQUEST }, confident: false }
}
