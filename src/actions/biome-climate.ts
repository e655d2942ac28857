/**
 * Which way the climate leads to a biome: the game data gives every biome a temperature and whether it rains there
 * (minecraft-data's `temperature`, `has_precipitation`), and 1.18+ places biomes by climate, so a desert lies beyond
 * savanna and plains, not beyond taiga. `climateGap` says how unlike the target biomes a biome is; `climateHeading`
 * picks, from samples of the land the server has sent, the one of eight headings whose land is clearly nearer the
 * target's climate than the ground under the bot, or none. surface-search.ts walks a biome search that way before it
 * falls back to its blind spiral (mp5 2-3 and 3-3 seeds 2 and 3: deserts 350–380 blocks off took the spiral 330–590 s).
 */
import type { Bot } from 'mineflayer'
import { Vec3 } from 'vec3'
import { biomeAt } from '../perception/vision.js'

/** What rain against none weighs, in degrees of the game's temperature scale (0 snowy … 2 desert). */
const RAIN_GAP = 1
/** How much nearer the target's climate a heading's land must be than the bot's ground to lead the search. */
const CLIMATE_LEAD = 0.25
/** The eight headings, as angles (radians, 0 = east, turning toward +z). */
export const HEADINGS = Array.from({ length: 8 }, (_, i) => (i * Math.PI) / 4)
/** Samples per heading: these fractions of the sight, at the heading and 15° to each side. */
const SAMPLE_REACH = [0.4, 0.6, 0.8, 1]
const SAMPLE_SPREAD = [-Math.PI / 12, 0, Math.PI / 12]

interface Climate {
  temperature: number
  rain: boolean
}

function climateOf(bot: Bot, biome: string): Climate | null {
  // minecraft-data names biomes plainly; once the server's registry codec is loaded (1.20.2+), mineflayer keys them
  // `minecraft:desert` (the entries keep their plain `name`)
  const byName = bot.registry.biomesByName as Record<string, { temperature?: number; has_precipitation?: boolean }>
  const b = byName[biome] ?? byName[`minecraft:${biome}`]
  return b?.temperature === undefined ? null : { temperature: b.temperature, rain: b.has_precipitation !== false }
}

/** How unlike the nearest of `targets` the climate of `biome` is (0: the same); null when either is unknown. */
export function climateGap(bot: Bot, biome: string, targets: readonly string[]): number | null {
  const here = climateOf(bot, biome)
  if (!here) return null
  let best: number | null = null
  for (const t of targets) {
    const c = climateOf(bot, t)
    if (!c) continue
    const gap = Math.abs(here.temperature - c.temperature) + (here.rain === c.rain ? 0 : RAIN_GAP)
    if (best === null || gap < best) best = gap
  }
  return best
}

/**
 * The heading (an index into HEADINGS) whose mean gap is lowest and at least CLIMATE_LEAD below `here`, among the
 * headings `open` allows; null when none leads. `gaps[i]` holds the gaps sampled along heading i (empty: not loaded).
 */
export function climateHeading(gaps: number[][], here: number, open: (i: number) => boolean): number | null {
  let best: number | null = null
  let bestMean = here - CLIMATE_LEAD
  gaps.forEach((g, i) => {
    if (g.length === 0 || !open(i)) return
    const mean = g.reduce((s, x) => s + x, 0) / g.length
    if (mean <= bestMean) {
      best = i
      bestMean = mean
    }
  })
  return best
}

/** The gaps sampled along each heading over the land within `sight` blocks of the bot, and the gap where it stands. */
export function sampleClimate(bot: Bot, targets: readonly string[], sight: number): { gaps: number[][]; here: number } {
  const p = bot.entity.position
  const gapAt = (x: number, z: number): number | null => {
    const b = biomeAt(bot, new Vec3(x, p.y, z))
    return b === 'unknown' ? null : climateGap(bot, b, targets)
  }
  const gaps = HEADINGS.map((a) => {
    const out: number[] = []
    for (const f of SAMPLE_REACH)
      for (const s of SAMPLE_SPREAD) {
        const g = gapAt(p.x + Math.cos(a + s) * f * sight, p.z + Math.sin(a + s) * f * sight)
        if (g !== null) out.push(g)
      }
    return out
  })
  return { gaps, here: gapAt(p.x, p.z) ?? Number.POSITIVE_INFINITY }
}
