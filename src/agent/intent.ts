/**
 * Intent: a player's free text → `Intent` (goals | clarify | refuse), the only shapes a request can turn into.
 * Offline it uses the grammar in intent-grammar.ts; with an LLM it asks for an `IntentReply` through structured
 * output (prompts/intent.md, player text as quoted JSON in a data block) and then checks every object id against the
 * knowledge (unknown → did-you-mean question, impossible → refusal), so a model cannot smuggle in anything else.
 * Strategy 'grammar-first' (default) uses the LLM only when the grammar did not understand; budget or model errors
 * fall back to the grammar's answer.
 */
import { type Conditions, Goal } from '../schemas/goal.js'
import { IntentReply, type Intent } from '../schemas/intent.js'
import type { Llm } from '../llm/client.js'
import { loadPrompt, PROMPT_SLOTS, quoteData, type PromptTemplate, type SlotsOf } from '../llm/prompts.js'
import { GhostError } from '../util/errors.js'
import { logger } from '../util/log.js'
import { parseOffline, refusal, INJECTION_REASON } from './intent-grammar.js'
import type { IntentKnowledge } from './intent-knowledge.js'
import { resolveItem } from './intent-words.js'

const log = logger('intent')

export interface IntentMeta {
  player: string
  requestId?: string
  signal?: AbortSignal
}
export interface IntentResult {
  intent: Intent
  /** Which path produced it. */
  via: 'grammar' | 'llm' | 'grammar-fallback'
}

export interface IntentParserOptions {
  kb: IntentKnowledge
  /** Without an LLM, only the offline grammar is used. */
  llm?: Llm | null
  /** 'grammar-first' (default): ask the LLM only when the grammar did not understand. 'llm-first': always ask it. */
  strategy?: 'grammar-first' | 'llm-first'
  promptsDir?: string
}

export interface IntentParser {
  parse(text: string, meta: IntentMeta): Promise<IntentResult>
}

export function createIntentParser(opts: IntentParserOptions): IntentParser {
  const { kb } = opts
  const llm = opts.llm ?? null
  const strategy = opts.strategy ?? 'grammar-first'
  const template: PromptTemplate<SlotsOf<'intent'>> | null = llm
    ? loadPrompt('intent', PROMPT_SLOTS.intent, ...(opts.promptsDir ? [opts.promptsDir] : []))
    : null

  async function viaLlm(text: string, meta: IntentMeta): Promise<Intent> {
    const prompt = template!.render({ player: quoteData(meta.player), request: quoteData(text), version: kb.version })
    const reply = await llm!.complete(IntentReply, prompt, {
      player: meta.player,
      goalKey: null,
      requestId: meta.requestId ?? null,
      ...(meta.signal ? { signal: meta.signal } : {}),
    })
    return checkReply(reply, kb)
  }

  return {
    async parse(text, meta) {
      const offline = parseOffline(text, kb)
      if (!llm || (strategy === 'grammar-first' && offline.confident)) return { intent: offline.intent, via: 'grammar' }
      try {
        return { intent: await viaLlm(text, meta), via: 'llm' }
      } catch (err) {
        if (!(err instanceof GhostError) || err.code === 'aborted' || meta.signal?.aborted) throw err
        log.info('LLM intent failed; using the grammar', { code: err.code, msg: err.message })
        return { intent: offline.intent, via: 'grammar-fallback' }
      }
    },
  }
}

/** Validate an LLM reply against the knowledge and complete goals with the Goal schema's defaults. */
/** Model-given conditions checked against the game data: unknown biomes and things to be near are dropped. */
export function checkConditions(conditions: Conditions | null | undefined, kb: IntentKnowledge): Conditions | null {
  if (!conditions) return null
  const near = conditions.near ? resolveItem(conditions.near, kb) : null
  const checked: Conditions = {
    ...conditions,
    biome: conditions.biome && kb.isBiome(conditions.biome) ? conditions.biome : null,
    near: near?.kind === 'ok' ? near.id : null,
  }
  return Object.values(checked).every((v) => v === null) ? null : checked
}

export function checkReply(reply: IntentReply, kb: IntentKnowledge): Intent {
  if (reply.kind === 'clarify') return { kind: 'clarify', question: reply.question.slice(0, 300) }
  if (reply.kind === 'refuse') return { kind: 'refuse', reason: reply.reason.slice(0, 300) || INJECTION_REASON }
  const goals: Goal[] = []
  for (const g of reply.goals) {
    const r = resolveItem(g.object.toLowerCase(), kb)
    switch (r.kind) {
      case 'ok':
        break
      case 'ambiguous':
        return { kind: 'clarify', question: r.question }
      case 'impossible':
        return { kind: 'refuse', reason: refusal(r.id, r.reason) }
      case 'empty':
        continue
      case 'unknown':
        return {
          kind: 'clarify',
          question: r.suggestions.length
            ? `I don't know "${r.name.slice(0, 40)}". Did you mean ${r.suggestions.join(', ')}?`
            : `I don't know "${r.name.slice(0, 40)}". Which item do you mean?`,
        }
    }
    goals.push(Goal.parse({ object: r.id, count: g.count, conditions: checkConditions(g.conditions, kb) }))
  }
  return goals.length > 0 ? { kind: 'goals', goals } : { kind: 'clarify', question: 'what should I get?' }
}
