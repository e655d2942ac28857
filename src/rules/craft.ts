/**
 * Rules of `craft(object, count, materials, tool)`: the item has a crafting recipe, the tool is the crafting table or
 * null (the 2×2 grid), the materials are held, and a table is at hand when one is named (or the recipe needs one).
 * Afterwards the materials are gone and `count` of the item is held.
 */
import type { Action } from '../schemas/action.js'
import type { ActionRules, Need } from './types.js'

/** The crafting table a 3×3 recipe needs. */
export function tableNeed(object: string): Need {
  return { kind: 'station', name: 'crafting_table', doing: `craft ${object}` }
}

export function craftMaterialsNeed(object: string, materials: Record<string, number>): Need {
  return { kind: 'items', items: materials, doing: `craft ${object}` }
}

export const craftRules: ActionRules<Extract<Action, { type: 'craft' }>> = {
  describe: (a) => `crafting ${a.count} ${a.object}`,
  budget: { steps: 64, timeMs: 40_000 },
  requires: (a, { kb }) => [
    { kind: 'valid', ok: kb.recipesFor(a.object).length > 0, message: `${a.object} has no crafting recipe.` },
    {
      kind: 'valid',
      ok: a.tool === null || a.tool === 'crafting_table',
      message: `Crafting uses "crafting_table" or null (the inventory grid), not "${a.tool}".`,
    },
    craftMaterialsNeed(a.object, a.materials),
    ...(a.tool === 'crafting_table' ? [tableNeed(a.object)] : []),
  ],
  changes: (a) => {
    const inventory: Record<string, number> = {}
    for (const [m, k] of Object.entries(a.materials)) inventory[m] = -k
    inventory[a.object] = (inventory[a.object] ?? 0) + a.count
    return { inventory }
  },
}
