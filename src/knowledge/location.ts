/**
 * Where a sub-goal's block or mob is to be found (`placeToLocation`), and the level to dig down to and search at for a
 * block (`digLevel`, kept above the lava-filled caves), the rock ore forms in (`ORE_HOSTS`) and which blocks are ores
 * (`isOreBlock`). Split from the decomposer (src/knowledge/decompose.ts); the ore search and the failure analyser use
 * `digLevel` too.
 */
import type { Location } from '../schemas/subgoal.js'
import type { BlockPlace, MobPlace } from './data.js'

/**
 * The rock ore veins form in (vanilla's block tags #stone_ore_replaceables and #deepslate_ore_replaceables): where a
 * vein crosses the deepslate ones it takes its `deepslate_*` variant. The practice world generates veins in it; `mine`
 * opens only it when it looks for the rest of a vein.
 */
export const ORE_HOSTS = {
  stone: ['stone', 'granite', 'diorite', 'andesite'],
  deepslate: ['deepslate', 'tuff'],
} as const

/**
 * Whether a block is an ore: vanilla names every block of its ore tags (#coal_ores … #emerald_ores, and the nether's
 * gold and quartz ores) `*_ore`. `mine` takes the rest of an ore's vein within reach once its count is held.
 */
export const isOreBlock = (name: string): boolean => name.endsWith('_ore')

/** Blocks above the lava level a search corridor keeps: its floor then lies above the lava-filled caves. */
export const LAVA_CLEARANCE = 2

/**
 * The level to dig down to and search at for a block whose best level is `bestY`: a best level among the
 * lava-filled caves (at or below `lavaLevel` + 1) is raised to just above them when the block is found up there too,
 * as a player keeps out of the lava lakes — diamond at -59 → -53, where it is 8 % rarer but the corridor cells that
 * touch lava drop from 20.4 % to 1.1 % (practice world, 20 seeds).
 */
export function digLevel(bestY: number, yMax: number | null, lavaLevel: number | null): number {
  if (lavaLevel === null) return bestY
  const above = lavaLevel + LAVA_CLEARANCE
  return bestY < above && (yMax === null || yMax >= above) ? above : bestY
}

/**
 * Where a block or mob is found, for a sub-goal: `bestY` there is the level to dig down to (the knowledge's best
 * level, kept above the lava-filled caves by digLevel when `lavaLevel` is given).
 */
export function placeToLocation(p: BlockPlace | MobPlace, lavaLevel: number | null = null): Location {
  const yMax = 'yMax' in p && p.yMax !== undefined ? p.yMax : null
  return {
    strategy: p.where,
    yMin: 'yMin' in p && p.yMin !== undefined ? p.yMin : null,
    yMax,
    bestY: 'bestY' in p && p.bestY !== undefined ? digLevel(p.bestY, yMax, lavaLevel) : null,
    biomes: p.biomes ?? [],
    time: 'time' in p && p.time ? p.time : null,
  }
}
