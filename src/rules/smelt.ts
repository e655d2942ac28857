/**
 * Rules of `smelt(object, count, materials, fuel, furnaces)`: the item comes out of a furnace, the fuel burns, a
 * furnace is at hand, and the inputs plus enough fuel (one fuel item smelts `burnItems` items; with several furnaces,
 * each burns its own: src/knowledge/furnaces.ts) are held. Afterwards inputs and fuel
 * are gone and `count` of the item is held.
 */
import type { Knowledge } from '../knowledge/index.js'
import type { Action } from '../schemas/action.js'
import type { ActionRules, Need } from './types.js'
import { sharedFuel } from '../knowledge/furnaces.js'

export function furnaceNeed(object: string): Need {
  return { kind: 'station', name: 'furnace', doing: `smelt ${object}` }
}

/**
 * Fuel items needed to smelt `count` items shared among `furnaces` (each burns its own; null when the item does not
 * burn).
 */
export function fuelFor(kb: Knowledge, fuel: string, count: number, furnaces = 1): number | null {
  const burn = kb.burnItems(fuel)
  return burn === null ? null : sharedFuel(burn, count, furnaces)
}

/**
 * The most furnaces, at least one and at most `most` and `count`, that `held` of `fuel` feeds when `count` items are
 * shared among them, each burning its own (fuelFor).
 */
export function furnacesFed(kb: Knowledge, fuel: string, count: number, most: number, held: number): number {
  let k = Math.max(1, Math.min(most, count))
  while (k > 1 && held < (fuelFor(kb, fuel, count, k) ?? Infinity)) k--
  return k
}

/** Inputs and fuel together (a fuel that is also an input counts twice). */
export function smeltItems(inputs: Record<string, number>, fuel: string, fuelCount: number): Record<string, number> {
  const items = { ...inputs }
  items[fuel] = (items[fuel] ?? 0) + fuelCount
  return items
}

export function smeltItemsNeed(object: string, count: number, items: Record<string, number>): Need {
  return { kind: 'items', items, doing: `smelt ${count} ${object}` }
}

export const smeltRules: ActionRules<Extract<Action, { type: 'smelt' }>> = {
  describe: (a) => `smelting ${a.count} ${a.object}`,
  budget: { steps: 64, timeMs: 180_000 },
  requires: (a, { kb }) => {
    const fuel = fuelFor(kb, a.fuel, a.count, a.furnaces ?? 1)
    return [
      {
        kind: 'valid',
        ok: kb.smeltingFor(a.object).length > 0,
        message: `${a.object} cannot be smelted in a furnace.`,
      },
      { kind: 'valid', ok: fuel !== null, message: `${a.fuel} is not a furnace fuel.` },
      smeltItemsNeed(a.object, a.count, smeltItems(a.materials, a.fuel, fuel ?? 1)),
      furnaceNeed(a.object),
    ]
  },
  changes: (a, { kb }) => {
    const inventory: Record<string, number> = {}
    for (const [m, k] of Object.entries(
      smeltItems(a.materials, a.fuel, fuelFor(kb, a.fuel, a.count, a.furnaces ?? 1) ?? 0),
    ))
      inventory[m] = -k
    inventory[a.object] = (inventory[a.object] ?? 0) + a.count
    return { inventory }
  },
}
