/**
 * Furnace recipes and fuels for the server, from the shared data file data/smelting.json (also used by the
 * knowledge module; minecraft-data has no smelting data): `recipes` map input alternatives to an output (count 1
 * unless given), `fuels` give how many items one fuel smelts (`burnItems`; ×200 ticks = vanilla burn time).
 * Entries newer than the server version (`minVersion`) or naming items the registry lacks are dropped.
 */
import { readFileSync } from 'node:fs'

export interface SmeltingFile {
  recipes: Array<{ input: string[] | string; output: string; count?: number; xp?: number; minVersion?: string }>
  fuels: Array<{ items?: string[]; item?: string; burnItems: number; minVersion?: string }>
}
export interface SmeltingRegistry {
  itemsByName: Record<string, { id: number } | undefined>
  version: { '>='(v: string): boolean }
}

/** Vanilla furnace cook time per item. */
export const COOK_TICKS = 200
const DATA_URL = new URL('../../../data/smelting.json', import.meta.url)

export class SmeltingTable {
  private readonly outputs = new Map<number, { id: number; count: number; xp: number }>()
  private readonly burnTicks = new Map<number, number>()

  constructor(
    registry: SmeltingRegistry,
    file: SmeltingFile = JSON.parse(readFileSync(DATA_URL, 'utf8')) as SmeltingFile,
  ) {
    const ok = (v?: string): boolean => !v || registry.version['>='](v)
    const id = (name: string): number | undefined => registry.itemsByName[name.replace(/^minecraft:/, '')]?.id
    for (const r of file.recipes) {
      const out = id(r.output)
      if (!ok(r.minVersion) || out === undefined) continue
      for (const name of Array.isArray(r.input) ? r.input : [r.input]) {
        const inp = id(name)
        if (inp !== undefined && !this.outputs.has(inp))
          this.outputs.set(inp, { id: out, count: r.count ?? 1, xp: r.xp ?? 0 })
      }
    }
    for (const f of file.fuels) {
      if (!ok(f.minVersion)) continue
      for (const name of f.items ?? (f.item ? [f.item] : [])) {
        const fid = id(name)
        if (fid !== undefined) this.burnTicks.set(fid, Math.round(f.burnItems * COOK_TICKS))
      }
    }
  }

  /** What one `inputId` smelts into, or undefined. */
  resultFor(inputId: number): { id: number; count: number; xp: number } | undefined {
    return this.outputs.get(inputId)
  }
  /** Burn time of one fuel item in ticks (0 = not a fuel). */
  burnTime(fuelId: number): number {
    return this.burnTicks.get(fuelId) ?? 0
  }
  isFuel(id: number): boolean {
    return this.burnTime(id) > 0
  }
}

const tables = new WeakMap<object, SmeltingTable>()
export function smeltingTable(registry: SmeltingRegistry): SmeltingTable {
  let t = tables.get(registry)
  if (!t) {
    t = new SmeltingTable(registry)
    tables.set(registry, t)
  }
  return t
}
