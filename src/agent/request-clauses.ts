/**
 * Clause parsers of the request grammar for every step kind except obtain: control words, questions (templates per
 * question kind, subject resolved against the knowledge), come/follow/goto, chests (deposit/withdraw), build, guard,
 * attack and give (what the bot already carries). Each takes one normalised clause and returns a `Clause` or null
 * when the clause is not of its kind; the dispatcher in request-grammar.ts tries them in order. Item phrases go
 * through the same `resolveItem` (nicknames, plurals, ambiguity, did-you-mean) as obtain-requests.
 */
import type { ItemCount, QuestionKind, Step } from '../schemas/step.js'
import { cleanPhrase, parseQuantity, resolveItem, singular } from './intent-words.js'
import type { RequestKnowledge } from './request-knowledge.js'
import { isOneOf, leadingPhrase, matchTemplate, requestWords } from './request-words.js'

export type Clause =
  | { t: 'steps'; steps: Step[] }
  /** A follow-up about the previous step ("bring them to me", "put it in the chest"): the steps *replace* it. */
  | { t: 'ref'; build: (prev: Step | null) => Step[] | string }
  | { t: 'clarify'; question: string; confident: boolean }
  | { t: 'refuse'; reason: string }

export interface ClauseCtx {
  kb: RequestKnowledge
  raw: string
}

export const NEVER_PLAYERS = 'I never attack players.'
const NAME = /^[a-z0-9_]{3,16}$/
const alt = (xs: string[]): string =>
  [...xs]
    .sort((a, b) => b.length - a.length)
    .map((x) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|')

/** A player name as typed (original case from the raw text), or null when `word` does not look like one. */
export function playerName(word: string, ctx: ClauseCtx): string | null {
  const w = word.trim()
  if (!NAME.test(w) || ctx.kb.has(w) || ctx.kb.has(singular(w)) || requestWords().playerWords.includes(w)) return null
  if (['the', 'a', 'an', 'my', 'your', 'our', 'some', 'all', 'it', 'them', 'here', 'there', 'base', 'home'].includes(w))
    return null
  const m = new RegExp(`(?:^|[^A-Za-z0-9_])(${w})(?![A-Za-z0-9_])`, 'i').exec(ctx.raw)
  return m ? m[1]! : w
}

/** "me"/"us" → requester, a player name → that name, else null. */
function who(word: string, ctx: ClauseCtx): string | null {
  const w = word.trim().replace(/^(?:to|for)\s+/, '')
  if (requestWords().meWords.includes(w)) return 'requester'
  return playerName(w, ctx)
}

/** Resolve a subject phrase of a question: impossible items are fine (the answer says why). */
function subject(phrase: string, ctx: ClauseCtx): { id: string } | { question: string } {
  const q = parseQuantity(cleanPhrase(phrase.replace(/\b(?:one|ones)$/, '').trim()))
  const r = resolveItem(q.rest, ctx.kb)
  switch (r.kind) {
    case 'ok':
      return { id: r.id }
    case 'impossible':
      return { id: r.id }
    case 'ambiguous':
      return { question: r.question }
    case 'empty':
      return { question: 'about what?' }
    case 'unknown':
      return {
        question: r.suggestions.length
          ? `I don't know "${r.name.slice(0, 40)}". Did you mean ${r.suggestions.join(', ')}?`
          : `I don't know "${r.name.slice(0, 40)}" in Minecraft ${ctx.kb.version}.`,
      }
  }
}

/** "2 iron and 3 sticks", "your cobble", "everything": items with counts (null = all of it). */
export function itemList(
  phrase: string,
  ctx: ClauseCtx,
  defaultAll: boolean,
): { items: ItemCount[] } | { question: string } | { pronoun: true } {
  const w = requestWords()
  const p = phrase.trim()
  if (isOneOf(p, w.everything)) return { items: [] }
  if (isOneOf(p, w.pronouns) || /^(?:all of |all )?(?:it|them|those|these)$/.test(p)) return { pronoun: true }
  const items: ItemCount[] = []
  for (const part of p.split(/\s*(?:,|\band\b|&|\+)\s*/).filter(Boolean)) {
    let s = part
    let all = defaultAll
    // "3 of your bread": the amount may come before the possessive
    const lead = parseQuantity(s)
    const ofPos =
      lead.count !== null
        ? (/^of\s+(.*)$/.exec(lead.rest) ?? (leadingPhrase(lead.rest, w.possessives) ? [lead.rest, lead.rest] : null))
        : null
    if (ofPos) s = ofPos[1]!
    const pos = leadingPhrase(s, w.possessives)
    if (pos) {
      s = s.slice(pos.length).trim()
      all = true
    }
    if (s.startsWith('of ')) s = s.slice(3)
    const q = ofPos ? { count: lead.count, rest: parseQuantity(s).rest } : parseQuantity(s)
    const r = resolveItem(q.rest, ctx.kb)
    if (r.kind === 'ok' || r.kind === 'impossible')
      items.push({ object: r.kind === 'ok' ? r.id : r.id, count: q.count ?? (all ? null : 1) })
    else if (r.kind === 'ambiguous') return { question: r.question }
    else if (r.kind === 'unknown')
      return {
        question: r.suggestions.length
          ? `I don't know "${r.name.slice(0, 40)}". Did you mean ${r.suggestions.join(', ')}?`
          : `I don't know "${r.name.slice(0, 40)}".`,
      }
  }
  return items.length ? { items } : { question: 'which items?' }
}

export function controlClause(c: string): Clause | null {
  for (const [op, phrases] of Object.entries(requestWords().control)) {
    if (isOneOf(c, phrases))
      return { t: 'steps', steps: [{ kind: 'control', op: op as Extract<Step, { kind: 'control' }>['op'] }] }
  }
  return null
}

const SUBJECTLESS: QuestionKind[] = ['doing', 'position', 'capabilities']

export function questionClause(c: string, ctx: ClauseCtx): Clause | null {
  for (const { kind, t } of requestWords().questionRes) {
    const m = matchTemplate(t, c)
    if (!m) continue
    if (SUBJECTLESS.includes(kind) || (kind === 'inventory' && !m.s))
      return { t: 'steps', steps: [{ kind: 'answer', question: kind, subject: null, have: null }] }
    let have: ItemCount[] | null = null
    if (m.h) {
      const l = itemList(m.h, ctx, false)
      if ('question' in l) return { t: 'clarify', question: l.question, confident: true }
      have = 'items' in l ? l.items : null
    } else if (kind === 'needs' && /^what (?:do|would|will|should) (?:i|we)\b/.test(c)) have = []
    const steps: Step[] = []
    for (const part of m.s!.split(/\s*(?:,|\band\b|&)\s*/).filter(Boolean)) {
      const s = subject(part, ctx)
      if ('question' in s) return { t: 'clarify', question: s.question, confident: true }
      steps.push({ kind: 'answer', question: kind, subject: s.id, have })
    }
    return { t: 'steps', steps }
  }
  return null
}

export function moveClause(c: string, ctx: ClauseCtx): Clause | null {
  const w = requestWords()
  if (isOneOf(c, w.come)) return { t: 'steps', steps: [move('come', 'requester')] }
  for (const t of w.followRes) {
    const m = matchTemplate(t, c)
    if (!m) continue
    const p = m.s ? who(m.s, ctx) : 'requester'
    if (!p)
      return {
        t: 'clarify',
        question: `who is "${m.s!.slice(0, 20)}"? I can follow a player by name.`,
        confident: true,
      }
    return { t: 'steps', steps: [move('follow', p)] }
  }
  const verb = leadingPhrase(c, w.moveVerbs)
  if (!verb) return null
  const rest = c
    .slice(verb.length)
    .trim()
    .replace(/^(?:over to|back to|to|towards|toward)\s+/, '')
  const xyz = /^(?:x\s*)?(-?\d{1,8})\s+(?:y\s*)?(-?\d{1,4})\s+(?:z\s*)?(-?\d{1,8})$/.exec(rest)
  if (xyz)
    return {
      t: 'steps',
      steps: [
        {
          kind: 'move',
          mode: 'goto',
          player: null,
          x: Number(xyz[1]),
          y: Number(xyz[2]),
          z: Number(xyz[3]),
          place: null,
        },
      ],
    }
  const place = w.places[rest]
  if (place)
    return { t: 'steps', steps: [{ kind: 'move', mode: 'goto', player: null, x: null, y: null, z: null, place }] }
  if (w.meWords.includes(rest) || rest === 'me') return { t: 'steps', steps: [move('come', 'requester')] }
  return null
}

function move(mode: 'come' | 'follow', player: string): Step {
  return { kind: 'move', mode, player, x: null, y: null, z: null, place: null }
}

const CHEST_TAIL =
  '(?:the |a |my |our |that |this |your )?((?:[a-z0-9_]+ ){0,2})chest(?: (?:at|in|near|by|next to|on) (?:the |my |our )?([a-z0-9_ ]{1,30}))?'

export function storeClause(c: string, ctx: ClauseCtx): Clause | null {
  const w = requestWords()
  const dep = new RegExp(`^(?:${alt(w.depositVerbs)}) (.+?) (?:in|into|inside|in to|to) ${CHEST_TAIL}$`).exec(c)
  const wd = dep
    ? null
    : new RegExp(`^(?:${alt(w.withdrawVerbs)}) (?:(me|us) )?(.+?) (?:from|out of|outta|in) ${CHEST_TAIL}$`).exec(c)
  if (!dep && !wd) return null
  const op = dep ? ('deposit' as const) : ('withdraw' as const)
  const itemsPhrase = dep ? dep[1]! : wd![2]!
  const adj = (dep ? dep[2] : wd![3])?.trim() ?? ''
  const at = (dep ? dep[3] : wd![4])?.trim() ?? ''
  const chest = [adj, adj || at ? 'chest' : '', at ? `at ${at}` : ''].filter(Boolean).join(' ') || null
  const forMe = wd?.[1] !== undefined
  const l = itemList(itemsPhrase, ctx, true)
  if ('question' in l) return { t: 'clarify', question: l.question, confident: true }
  const giveAfter = (items: ItemCount[]): Step[] => (forMe ? [{ kind: 'give', items, to: 'requester' }] : [])
  if ('items' in l) return { t: 'steps', steps: [{ kind: 'store', op, items: l.items, chest }, ...giveAfter(l.items)] }
  return {
    t: 'ref',
    build: (prev) => {
      const items = itemsOf(prev)
      if (!prev || !items) return `${op} what?`
      const kept: Step = prev.kind === 'obtain' ? { ...prev, for: 'self' } : prev
      return [kept, { kind: 'store', op, items, chest }, ...giveAfter(items)]
    },
  }
}

/** The items a previous step produced or moved, for "it"/"them" follow-ups. */
export function itemsOf(prev: Step | null): ItemCount[] | null {
  if (!prev) return null
  if (prev.kind === 'obtain') return [{ object: prev.object, count: prev.count }]
  if (prev.kind === 'store' || prev.kind === 'give') return prev.items.length ? prev.items : null
  return null
}

export function buildClause(c: string, ctx: ClauseCtx): Clause | null {
  const w = requestWords()
  const verb = leadingPhrase(c, w.buildVerbs)
  if (!verb) return null
  let rest = c
    .slice(verb.length)
    .trim()
    .replace(/^(?:me|us)\s+/, '')
  let where: string | null = null
  const wm = /\s+(here|there|right here|over there|(?:at|near|next to|by|on|behind|in front of) .+)$/.exec(rest)
  if (wm) {
    where = wm[1]!
    rest = rest.slice(0, wm.index)
  }
  rest = cleanPhrase(rest).replace(/^(?:small|little|simple|quick|basic)\s+/, '')
  const bp = w.blueprints[rest] ?? w.blueprints[singular(rest)] ?? (ctx.kb.blueprints.includes(rest) ? rest : null)
  if (bp) return { t: 'steps', steps: [{ kind: 'build', blueprint: bp, where }] }
  if (['build', 'construct', 'set up', 'put up', 'erect'].includes(verb)) {
    return { t: 'clarify', question: `I can build ${ctx.kb.blueprints.join(', ')}. Which one?`, confident: true }
  }
  return null
}

export function guardClause(c: string, ctx: ClauseCtx): Clause | null {
  for (const t of requestWords().guardRes) {
    const m = matchTemplate(t, c)
    if (!m?.s) continue
    const s = m.s.replace(/^(?:my|your)$/, (x) => (x === 'my' ? 'me' : 'you'))
    if (['you', 'yourself'].includes(s))
      return { t: 'clarify', question: 'whom should I guard? Say "guard me" or a player name.', confident: true }
    const p = who(s, ctx)
    if (!p)
      return {
        t: 'clarify',
        question: `I can only guard players. Whom should I guard ("${s.slice(0, 20)}" is not a player I know)?`,
        confident: true,
      }
    return { t: 'steps', steps: [{ kind: 'guard', player: p }] }
  }
  return null
}

export function attackClause(c: string, ctx: ClauseCtx): Clause | null {
  const w = requestWords()
  const verb = leadingPhrase(c, w.attackVerbs)
  if (!verb) return null
  const rest = c
    .slice(verb.length)
    .trim()
    .replace(/^(?:all (?:the |of the )?|that |those |these |this |every )/, '')
  if (rest === '') return { t: 'clarify', question: 'attack what?', confident: true }
  if (w.playerWords.includes(rest) || w.meWords.includes(rest) || /^(?:you|yourself|urself)$/.test(rest))
    return { t: 'refuse', reason: NEVER_PLAYERS }
  const q = parseQuantity(cleanPhrase(rest))
  const r = resolveItem(q.rest, ctx.kb)
  const mob = r.kind === 'ok' ? r.id : null
  if (mob && ctx.kb.isEntity(mob)) {
    if (mob === 'player') return { t: 'refuse', reason: NEVER_PLAYERS }
    return { t: 'steps', steps: [{ kind: 'attack', mob }] }
  }
  // an entity id that is also an item ("chicken", "cow" spawn eggs aside) resolves above; a bare unknown word is a name
  const single = q.rest.trim()
  const ent = [single, singular(single)].map((x) => x.replace(/\s+/g, '_')).find((x) => ctx.kb.isEntity(x))
  if (ent)
    return ent === 'player'
      ? { t: 'refuse', reason: NEVER_PLAYERS }
      : { t: 'steps', steps: [{ kind: 'attack', mob: ent }] }
  if (NAME.test(single) && !ctx.kb.has(single)) return { t: 'refuse', reason: NEVER_PLAYERS }
  return null
}

export function giveClause(c: string, ctx: ClauseCtx): Clause | null {
  const w = requestWords()
  const verb = leadingPhrase(c, w.giveVerbs)
  if (!verb) return null
  let rest = c.slice(verb.length).trim()
  let to: string | null = null
  const tail = /\s+(?:to|over to|back to|for)\s+([a-z0-9_]+)(?:\s+(?:please|now))?$/.exec(rest)
  if (tail) {
    to = who(tail[1]!, ctx)
    if (!to) return null
    rest = rest.slice(0, tail.index)
  }
  const lead = /^([a-z0-9_]+)\s+(.+)$/.exec(rest)
  if (!to && lead && (w.meWords.includes(lead[1]!) || playerName(lead[1]!, ctx))) {
    to = who(lead[1]!, ctx)
    rest = lead[2]!
  }
  rest = rest.replace(/\s+(?:back|over|here|over here|now|please|my way)$/, '').replace(/^(?:back|over)\s+/, '')
  const pron = isOneOf(rest, w.pronouns) || /^(?:all of |all )?(?:it|them|those|these|em)$/.test(rest)
  if (pron) {
    const target = to ?? 'requester'
    return { t: 'ref', build: (prev) => deliverPrev(prev, target) }
  }
  const possessive = leadingPhrase(rest, w.possessives) ?? (/^\S+ of (?:your|ur|my)\s/.test(rest) ? 'your' : null)
  const everything = isOneOf(rest, w.everything)
  if (!possessive && !everything) return null // "give me 3 bread" is an obtain for the requester
  const l = itemList(rest, ctx, true)
  if ('question' in l) return { t: 'clarify', question: l.question, confident: true }
  if (!('items' in l)) return null
  return { t: 'steps', steps: [{ kind: 'give', items: l.items, to: to ?? 'requester' }] }
}

/** "…and bring them to me": the previous obtain is for that player; after a withdraw, a give. */
export function deliverPrev(prev: Step | null, to: string): Step[] | string {
  if (prev?.kind === 'obtain') return [{ ...prev, for: to }]
  const items = itemsOf(prev)
  if (!prev || !items) return 'give you what?'
  return [prev, { kind: 'give', items, to }]
}
