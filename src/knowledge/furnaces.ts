/**
 * Smelting in several furnaces at once: a furnace cooks one item every SMELT_SECONDS, so `n` items shared among `k`
 * furnaces take the longest share's time instead of all of them. This module owns the sharing (`shares`: the counts
 * per furnace, as even as can be), the fuel each share burns on its own (`sharedFuel`: fuel is not shared between
 * furnaces, so coal for 8 items split three ways is 3 coal) and whether more furnaces pay for themselves
 * (`furnacesWorth`: the seconds saved against placing, digging back and picking up each one, and one craft at a table
 * when some must be made and the plan crafts none there), and the choice of how many and on which fuel
 * (`shareAmong`): the decomposer offers what its plan leaves over
 * (src/knowledge/decompose.ts, its last pass); the rule book and the smelt action read the same shares and fuel.
 */
import { MAX_FURNACES } from '../schemas/action.js'
import type { SourceIndex } from './sources.js'

export { MAX_FURNACES }

/** Seconds a furnace takes to cook one item (200 game ticks). */
export const SMELT_SECONDS = 10
/** Seconds one more furnace costs at the smelt: placing it, digging it back with a pickaxe and picking it up. */
const FURNACE_SETUP_S = 3
/** Seconds of making furnaces at a crafting table placed from the bag and picked back up (digging it by hand). */
const CRAFT_AT_TABLE_S = 5
/** Seconds more furnaces must save, net of their cost, before a plan uses them (two furnaces for two items: no). */
const MIN_SAVED_S = 5

/** The items each of `k` furnaces cooks when `n` are shared among them (largest first, as even as can be). */
export function shares(n: number, k: number): number[] {
  const used = Math.max(1, Math.min(k, n))
  return Array.from({ length: used }, (_, i) => Math.floor(n / used) + (i < n % used ? 1 : 0))
}

/** Fuel items burnt when `n` items are shared among `k` furnaces, each fuel item cooking `burnItems` items. */
export function sharedFuel(burnItems: number, n: number, k: number): number {
  return shares(n, k).reduce((a, s) => a + Math.ceil(s / burnItems - 1e-9), 0)
}

/**
 * Net seconds saved by cooking `n` items in `k` furnaces instead of one, `made` of which must first be crafted; the
 * trip to a crafting table costs nothing more when the plan crafts a furnace there anyway (`tableSunk`: 3 crafted
 * where 1 was, in the same step).
 */
export function furnacesWorth(n: number, k: number, made: number, tableSunk = false): number {
  const saved = SMELT_SECONDS * (n - (shares(n, k)[0] ?? n))
  const cost = (Math.min(k, n) - 1) * FURNACE_SETUP_S + (made > 0 && !tableSunk ? CRAFT_AT_TABLE_S : 0)
  return saved - cost - MIN_SAVED_S
}

/** A smelt's furnaces and the fuel they burn together. */
export interface FurnaceChoice {
  furnaces: number
  fuelCount: number
  /** the fuel burnt, when it is not the one the smelt picked first (that one was short for more furnaces) */
  fuel?: string
}

/**
 * A fuel a smelt may burn: `count` of it is already counted for one furnace (the first pick's count, 0 for another
 * fuel), and `spare` more is left over by the plan for the furnaces beyond the first.
 */
export interface FuelOption {
  item: string
  count: number
  burnItems: number
  spare: number
}

/** What the choice reads of the decomposer's expansion. */
export interface FurnaceView {
  /** furnaces at hand: held, and one standing within reach */
  here: number
  /** the plan crafts a furnace at a table already, so more made there cost no trip of their own */
  crafting: boolean
  /** make `count` more furnaces from what the plan leaves over; false, with nothing changed, when it cannot */
  make(count: number): boolean
}

/**
 * The furnaces to share `n` items among, best paying first, and the fuel that feeds them: the first of `fuels` (the
 * smelt's own pick) or, for as many furnaces as another spare fuel feeds where it does not, that one (2 coal feed 2
 * furnaces, 3 spare planks feed 3: 10 s of cooking, not 20). Furnaces not at hand are made from spare materials. One
 * furnace on the first fuel when none pays or can be had.
 */
export function shareAmong(n: number, fuels: readonly FuelOption[], v: FurnaceView): FurnaceChoice {
  const first = fuels[0]!
  const made = (k: number): number => Math.max(0, k - v.here)
  const worth = (k: number): number => furnacesWorth(n, k, made(k), v.crafting)
  const ks = Array.from({ length: Math.min(n, MAX_FURNACES) - 1 }, (_, i) => i + 2)
    .filter((k) => worth(k) > 0)
    .sort((a, b) => worth(b) - worth(a))
  for (const k of ks) {
    const fed = fuels.find((f) => sharedFuel(f.burnItems, n, k) - f.count <= f.spare)
    if (!fed) continue
    if (made(k) > 0 && !v.make(made(k))) continue
    const fuelCount = sharedFuel(fed.burnItems, n, k)
    return fed === first ? { furnaces: k, fuelCount } : { furnaces: k, fuelCount, fuel: fed.item }
  }
  return { furnaces: 1, fuelCount: first.count }
}

/**
 * Whether what a plan leaves over is one more furnace (beyond the one it keeps, unless one stands within reach) or
 * makes one: else sharing a smelt cannot change the plan, and the decomposer skips that pass.
 */
export function spareFurnace(src: SourceIndex, left: ReadonlyMap<string, number>, standing: boolean): boolean {
  if ((left.get('furnace') ?? 0) > (standing ? 0 : 1)) return true
  return src
    .sourcesFor('furnace')
    .some(
      (s) =>
        s.kind === 'craft' &&
        s.group.variants.some((r) => Object.entries(r.ingredients).every(([i, k]) => (left.get(i) ?? 0) >= k)),
    )
}
