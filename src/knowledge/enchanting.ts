/**
 * Enchanting, as far as the planner needs it: the chance that one enchanting-table attempt puts an enchantment (in
 * practice Silk Touch) on a tool, computed exactly from minecraft-data's enchantment table (weights, level ranges,
 * exclusions, categories) and the tool material's enchantability (data/knowledge/enchanting.json); the experience
 * points a level needs; and the two kinds of pseudo-items the decomposer uses: `experience` (points, gained by
 * hunting) and `<tool>+<enchantment>` (e.g. `wooden_shovel+silk_touch`, a tool carrying that enchantment). Pure
 * functions, no game state.
 */
import type { McData } from './data.js'

/** Pseudo-item: experience points. Obtained by hunting, spent by enchanting. */
export const EXPERIENCE = 'experience'

/** Key of a tool carrying an enchantment, e.g. `wooden_shovel+silk_touch`. No real item name contains '+'. */
export function enchantedKey(tool: string, enchantment: string): string {
  return `${tool}+${enchantment}`
}

/** Split an enchanted-tool key; null for ordinary item names. */
export function parseEnchanted(key: string): { tool: string; enchantment: string } | null {
  const i = key.indexOf('+')
  return i > 0 && i < key.length - 1 ? { tool: key.slice(0, i), enchantment: key.slice(i + 1) } : null
}

/** Whether `name` is one of the decomposer's pseudo-items rather than a game item. */
export function isPseudoItem(name: string): boolean {
  return name === EXPERIENCE || parseEnchanted(name) !== null
}

/** Total experience points needed to reach `level` from 0 (Java Edition formula). */
export function pointsForLevel(level: number): number {
  if (level <= 16) return level * level + 6 * level
  if (level <= 31) return Math.round(2.5 * level * level - 40.5 * level + 360)
  return Math.round(4.5 * level * level - 162.5 * level + 2220)
}

/** Experience points for `attempts` enchants at `level`: reach the level once, then regain what each attempt costs. */
export function experienceFor(level: number, levelsPerAttempt: number, attempts: number): number {
  return pointsForLevel(level) + (attempts - 1) * (pointsForLevel(level) - pointsForLevel(level - levelsPerAttempt))
}

interface Candidate {
  name: string
  weight: number
  exclude: string[]
}

/** Enchantments an enchanting table can offer for `item` at a (modified) level, each at its highest fitting level. */
function available(mc: McData, item: string, level: number): Candidate[] {
  const cats = new Set(mc.itemsByName[item]?.enchantCategories ?? [])
  const out: Candidate[] = []
  for (const e of mc.enchantmentsArray) {
    if (e.treasureOnly || !e.discoverable || !cats.has(e.category)) continue
    const cost = (c: { a?: number; b?: number }, lvl: number): number => (c.a ?? 0) * lvl + (c.b ?? 0)
    for (let lvl = e.maxLevel; lvl >= 1; lvl--) {
      if (level >= cost(e.minCost, lvl) && level <= cost(e.maxCost, lvl)) {
        out.push({ name: e.name, weight: e.weight, exclude: e.exclude })
        break
      }
    }
  }
  return out
}

const compatible = (a: Candidate, b: Candidate): boolean =>
  a.name !== b.name && !a.exclude.includes(b.name) && !b.exclude.includes(a.name)

/**
 * P(`target` is among the enchantments picked from `list`): the first pick is weighted; then, while
 * `nextInt(50) <= level`, the list loses what the last pick excludes, another is picked and the level halves.
 */
function pickChance(list: Candidate[], level: number, target: string): number {
  const total = list.reduce((s, c) => s + c.weight, 0)
  if (total <= 0) return 0
  const more = Math.min(1, (level + 1) / 50)
  let p = 0
  for (const c of list) {
    const w = c.weight / total
    if (c.name === target) {
      p += w
      continue
    }
    const rest = list.filter((x) => compatible(c, x))
    if (rest.length) p += w * more * pickChance(rest, Math.floor(level / 2), target)
  }
  return p
}

/** CDF of (u1 + u2 - 1) * 0.15 for independent uniform u1, u2: P(bonus < x). */
function bonusBelow(x: number): number {
  const s = x / 0.15 + 1
  if (s <= 0) return 0
  if (s >= 2) return 1
  return s <= 1 ? (s * s) / 2 : 1 - ((2 - s) * (2 - s)) / 2
}

/**
 * Chance that one enchanting-table attempt at `level` on `item` (enchantability `enchantability`) yields `target`.
 * Vanilla: level + 1 + rand(e/4+1) + rand(e/4+1), times 1 ± a triangular 15 %, rounded; then the weighted picks.
 * Exact over the integer rolls and the rounding; 0 when the item cannot take the enchantment.
 */
export function enchantChance(mc: McData, item: string, enchantability: number, level: number, target: string): number {
  if (enchantability <= 0) return 0
  const q = Math.floor(enchantability / 4) + 1
  let p = 0
  for (let r1 = 0; r1 < q; r1++) {
    for (let r2 = 0; r2 < q; r2++) {
      const m = level + 1 + r1 + r2
      for (let k = Math.max(1, Math.floor(m * 0.85) - 1); k <= Math.ceil(m * 1.15) + 1; k++) {
        const pk = bonusBelow((k + 0.5) / m - 1) - bonusBelow((k - 0.5) / m - 1)
        if (pk > 0) p += (pk / (q * q)) * pickChance(available(mc, item, k), k, target)
      }
    }
  }
  return p
}
