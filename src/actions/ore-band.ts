/**
 * Where a block lies underground, from the knowledge (data/knowledge/world.json): its y-band (`yMin`/`yMax`/`bestY`,
 * merged over the block and its deepslate/stone variants, with the level the caves turn to lava) and the ids of all
 * its variants, which every look for it counts (diamond_ore and deepslate_diamond_ore). A leaf: the search
 * (ore-search.ts), explore, dig_down's watch and perception read it without importing each other.
 */
import type { Bot } from 'mineflayer'
import { createKnowledge } from '../knowledge/index.js'

export interface YBand {
  yMin: number | null
  yMax: number | null
  bestY: number | null
  /** Caves at and below this y are lava (the knowledge's `lavaLevel`), null when unknown. */
  lavaLevel?: number | null
}

/** The y-band of `blocks` in the knowledge, merged over each block and its variants, and all those variants. */
export function bandOf(
  world: {
    blocks: Record<string, { yMin?: number; yMax?: number; bestY?: number; also?: string[] }>
    lavaLevel?: number
  },
  blocks: readonly string[],
): { band: YBand; variants: string[] } | null {
  const entries = Object.entries(world.blocks).filter(
    ([name, p]) => blocks.includes(name) || (p.also ?? []).some((a) => blocks.includes(a)),
  )
  if (entries.length === 0) return null
  // the entry that lists the others as `also` is the main one (iron_ore over deepslate_iron_ore): its bestY wins
  const main = entries.find(([, p]) => (p.also ?? []).length > 0) ?? entries[0]!
  const lows = entries.map(([, p]) => p.yMin).filter((y): y is number => y !== undefined)
  const highs = entries.map(([, p]) => p.yMax).filter((y): y is number => y !== undefined)
  const variants = new Set<string>([...blocks])
  for (const [name, p] of entries) for (const n of [name, ...(p.also ?? [])]) variants.add(n)
  return {
    band: {
      yMin: lows.length ? Math.min(...lows) : null,
      yMax: highs.length ? Math.max(...highs) : null,
      bestY: main[1].bestY ?? null,
      lavaLevel: world.lavaLevel ?? null,
    },
    variants: [...variants],
  }
}

/** The block ids the search looks for: the named blocks and their variants from the knowledge (a superset). */
export function searchIds(bot: Bot, names: readonly string[]): { ids: Set<number>; band: YBand | null } {
  const found = bandOf(createKnowledge(bot.version).data.world, names)
  const ids = new Set<number>()
  for (const n of found?.variants ?? names) {
    const id = bot.registry.blocksByName[n]?.id
    if (id !== undefined) ids.add(id)
  }
  return { ids, band: found?.band ?? null }
}
