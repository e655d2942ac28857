/**
 * Understanding a request: free text → `Understanding` (steps | clarify | refuse). The offline grammar
 * (request-grammar.ts) answers first; with an LLM and strategy 'grammar-first' the model is asked only when the
 * grammar did not understand, through structured output over the same `Understanding` schema (prompts/request.md,
 * the player's text quoted as data). Either way every step is checked against the knowledge the same way: names
 * resolved (nicknames, plurals) or turned into a did-you-mean question, impossible obtains refused with the reason,
 * blueprints and mobs checked, attacks on players refused — so a model cannot smuggle in anything else.
 */
import type { Llm } from '../llm/client.js'
import { loadPrompt, PROMPT_SLOTS, quoteData, type PromptTemplate, type SlotsOf } from '../llm/prompts.js'
import { Understanding, type ItemCount, type Step } from '../schemas/step.js'
import { GhostError } from '../util/errors.js'
import { logger } from '../util/log.js'
import { checkConditions } from './intent.js'
import { refusal } from './intent-grammar.js'
import { resolveItem } from './intent-words.js'
import { NEVER_PLAYERS } from './request-clauses.js'
import { understandOffline } from './request-grammar.js'
import type { RequestKnowledge } from './request-knowledge.js'

const log = logger('understand')

export interface UnderstandMeta {
  player: string
  requestId?: string
  signal?: AbortSignal
}
export interface UnderstandOutcome {
  understanding: Understanding
  via: 'grammar' | 'llm' | 'grammar-fallback'
}
export interface Understander {
  understand(text: string, meta: UnderstandMeta): Promise<UnderstandOutcome>
}

export function createUnderstander(opts: {
  kb: RequestKnowledge
  llm?: Llm | null
  strategy?: 'grammar-first' | 'llm-first'
  promptsDir?: string
}): Understander {
  const { kb } = opts
  const llm = opts.llm ?? null
  const template: PromptTemplate<SlotsOf<'request'>> | null = llm
    ? loadPrompt('request', PROMPT_SLOTS.request, ...(opts.promptsDir ? [opts.promptsDir] : []))
    : null
  return {
    async understand(text, meta) {
      const offline = understandOffline(text, kb)
      if (!llm || ((opts.strategy ?? 'grammar-first') === 'grammar-first' && offline.confident))
        return { understanding: offline.understanding, via: 'grammar' }
      try {
        const prompt = template!.render({
          player: quoteData(meta.player),
          request: quoteData(text),
          version: kb.version,
          blueprints: kb.blueprints.join(', '),
        })
        const reply = await llm.complete(Understanding, prompt, {
          player: meta.player,
          goalKey: null,
          requestId: meta.requestId ?? null,
          ...(meta.signal ? { signal: meta.signal } : {}),
        })
        return { understanding: checkUnderstanding(reply, kb, meta.player), via: 'llm' }
      } catch (err) {
        if (!(err instanceof GhostError) || err.code === 'aborted' || meta.signal?.aborted) throw err
        log.info('LLM understanding failed; using the grammar', { code: err.code, msg: err.message })
        return { understanding: offline.understanding, via: 'grammar-fallback' }
      }
    },
  }
}

type Checked = { ok: true; id: string } | { ok: false; out: Understanding }

function checkName(name: string, kb: RequestKnowledge, allowImpossible: boolean): Checked {
  const r = resolveItem(name.toLowerCase().replace(/^minecraft:/, ''), kb)
  switch (r.kind) {
    case 'ok':
      return { ok: true, id: r.id }
    case 'impossible':
      return allowImpossible
        ? { ok: true, id: r.id }
        : { ok: false, out: { kind: 'refuse', reason: refusal(r.id, r.reason) } }
    case 'ambiguous':
      return { ok: false, out: { kind: 'clarify', question: r.question } }
    case 'empty':
      return { ok: false, out: { kind: 'clarify', question: 'which item do you mean?' } }
    case 'unknown':
      return {
        ok: false,
        out: {
          kind: 'clarify',
          question: r.suggestions.length
            ? `I don't know "${r.name.slice(0, 40)}". Did you mean ${r.suggestions.join(', ')}?`
            : `I don't know "${r.name.slice(0, 40)}". Which item do you mean?`,
        },
      }
  }
}

/** A player name equal to the requester's is "requester"; "self"/"requester" stay. */
const recipient = (who: string, player: string): string =>
  who.toLowerCase() === player.toLowerCase() ? 'requester' : who

/** Validate model (or any) steps against the knowledge; the first problem becomes the question or refusal. */
export function checkUnderstanding(u: Understanding, kb: RequestKnowledge, player: string): Understanding {
  if (u.kind !== 'steps')
    return u.kind === 'clarify'
      ? { kind: 'clarify', question: u.question.slice(0, 300) }
      : { kind: 'refuse', reason: u.reason.slice(0, 300) }
  const steps: Step[] = []
  const items = (xs: ItemCount[]): ItemCount[] | Understanding => {
    const out: ItemCount[] = []
    for (const i of xs) {
      const c = checkName(i.object, kb, true)
      if (!c.ok) return c.out
      out.push({ object: c.id, count: i.count })
    }
    return out
  }
  for (const s of u.steps) {
    switch (s.kind) {
      case 'obtain': {
        const c = checkName(s.object, kb, false)
        if (!c.ok) return c.out
        steps.push({ ...s, object: c.id, conditions: checkConditions(s.conditions, kb), for: recipient(s.for, player) })
        break
      }
      case 'give':
      case 'store': {
        const xs = items(s.items)
        if (!Array.isArray(xs)) return xs
        steps.push(s.kind === 'give' ? { ...s, items: xs, to: recipient(s.to, player) } : { ...s, items: xs })
        break
      }
      case 'answer': {
        if (s.subject === null) {
          steps.push(s)
          break
        }
        const c = checkName(s.subject, kb, true)
        if (!c.ok) return c.out
        const have = s.have ? items(s.have) : null
        if (have && !Array.isArray(have)) return have
        steps.push({ ...s, subject: c.id, have })
        break
      }
      case 'attack': {
        const c = checkName(s.mob, kb, true)
        if (!c.ok || !kb.isEntity(c.id) || c.id === 'player')
          return {
            kind: 'refuse',
            reason: c.ok && c.id !== 'player' ? `${c.id} is not a mob I can attack.` : NEVER_PLAYERS,
          }
        steps.push({ ...s, mob: c.id })
        break
      }
      case 'build':
        if (!kb.blueprints.includes(s.blueprint))
          return { kind: 'clarify', question: `I can build ${kb.blueprints.join(', ')}. Which one?` }
        steps.push(s)
        break
      case 'guard':
        steps.push({ ...s, player: recipient(s.player, player) })
        break
      case 'move':
        steps.push(s.player ? { ...s, player: recipient(s.player, player) } : s)
        break
      case 'control':
        steps.push(s)
        break
    }
  }
  return { kind: 'steps', steps }
}
