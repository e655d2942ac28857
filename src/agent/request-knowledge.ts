/**
 * What the request grammar and the step checker need to know beyond `IntentKnowledge`: whether an id is an entity
 * (something to attack or guard against) or an item (something to hand over), and the names of the shipped
 * blueprints (data/blueprints/*.json). Built from the shared knowledge base; one instance per Knowledge.
 */
import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { createKnowledge, type Knowledge } from '../knowledge/index.js'
import { fromKnowledge, type IntentKnowledge } from './intent-knowledge.js'

const BLUEPRINTS = fileURLToPath(new URL('../../data/blueprints/', import.meta.url))

export interface RequestKnowledge extends IntentKnowledge {
  isEntity(id: string): boolean
  isItem(id: string): boolean
  /** Shipped blueprint names, sorted. */
  readonly blueprints: readonly string[]
  /** The full knowledge base (answers read recipes, sources, smelting from it). */
  readonly knowledge: Knowledge
}

const cache = new WeakMap<Knowledge, RequestKnowledge>()

export function requestKnowledge(k: Knowledge | string): RequestKnowledge {
  const kn = typeof k === 'string' ? createKnowledge(k) : k
  const hit = cache.get(kn)
  if (hit) return hit
  const base = fromKnowledge(kn)
  const blueprints = readdirSync(BLUEPRINTS)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort()
  const rk: RequestKnowledge = {
    version: base.version,
    has: (id) => base.has(id),
    suggest: (n) => base.suggest(n),
    impossibleReason: (id) => base.impossibleReason(id),
    isBiome: (id) => base.isBiome(id),
    current: (id) => base.current?.(id) ?? id,
    isEntity: (id) => kn.isEntity(id),
    isItem: (id) => kn.isItem(id),
    blueprints,
    knowledge: kn,
  }
  cache.set(kn, rk)
  return rk
}
