/**
 * Rules of `build(blueprint)`: a shipped blueprint (data/blueprints/*.json) and every block it consumes held.
 * Also loads the shipped blueprints as "name → blocks consumed" for the rule context.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Action } from '../schemas/action.js'
import { protectedProblem } from './policy.js'
import type { ActionRules } from './types.js'

const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data/blueprints')
let shipped: Record<string, Record<string, number>> | undefined

/** Blueprint name → blocks it consumes, read once from data/blueprints. */
export function shippedBlueprints(): Record<string, Record<string, number>> {
  if (shipped) return shipped
  const out: Record<string, Record<string, number>> = {}
  for (const f of readdirSync(DIR)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    const bp = JSON.parse(readFileSync(path.join(DIR, f), 'utf8')) as { blocks: Array<{ block: string }> }
    const need: Record<string, number> = {}
    for (const b of bp.blocks) need[b.block] = (need[b.block] ?? 0) + 1
    out[f.slice(0, -5)] = need
  }
  shipped = out
  return out
}

export const buildRules: ActionRules<Extract<Action, { type: 'build' }>> = {
  describe: (a) => `building a ${a.blueprint}`,
  budget: { steps: 300, timeMs: 240_000 },
  requires: (a, { blueprints }) => {
    const blocks = blueprints[a.blueprint]
    if (!blocks)
      return [
        {
          kind: 'valid',
          ok: false,
          message: `no blueprint "${a.blueprint}"; shipped: ${Object.keys(blueprints).join(', ')}.`,
        },
      ]
    return [{ kind: 'items', items: blocks, doing: `build the ${a.blueprint}` }]
  },
  changes: (a, { blueprints }) => ({
    inventory: Object.fromEntries(Object.entries(blueprints[a.blueprint] ?? {}).map(([b, k]) => [b, -k])),
  }),
  policy: (_a, view) => protectedProblem(view, 'build'),
}
