/**
 * The block states and biomes the practice-world generator writes, resolved once from the registry
 * (prismarine-registry for the server's version) into plain numbers, plus the world's fixed heights (1.18+:
 * y = -64 .. 319, sea level 62). Also names the ore pairs (stone variant → deepslate variant) the ore pass uses.
 */
import { idIn } from '../../knowledge/version-data.js'

export const MIN_Y = -64
export const WORLD_HEIGHT = 384
export const MAX_Y = MIN_Y + WORLD_HEIGHT - 1
export const SEA_LEVEL = 62

/** The registry parts the generator reads (prismarine-registry objects are untyped; only these are declared). */
export interface WorldgenRegistry {
  blocksByName: Record<string, { defaultState: number; minStateId: number } | undefined>
  biomesByName: Record<string, { id: number } | undefined>
}

export const BLOCK_NAMES = [
  'air',
  'stone',
  'deepslate',
  'bedrock',
  'dirt',
  'grass_block',
  'sand',
  'sandstone',
  'gravel',
  'water',
  'lava',
  'granite',
  'diorite',
  'andesite',
  'tuff',
  'clay',
  'oak_log',
  'birch_log',
  'spruce_log',
  'oak_leaves',
  'birch_leaves',
  'spruce_leaves',
  'grass',
  'dandelion',
  'poppy',
  'cactus',
  'dead_bush',
  'sugar_cane',
  'coal_ore',
  'iron_ore',
  'copper_ore',
  'gold_ore',
  'redstone_ore',
  'lapis_ore',
  'diamond_ore',
  'deepslate_coal_ore',
  'deepslate_iron_ore',
  'deepslate_copper_ore',
  'deepslate_gold_ore',
  'deepslate_redstone_ore',
  'deepslate_lapis_ore',
  'deepslate_diamond_ore',
] as const
export type BlockName = (typeof BLOCK_NAMES)[number]

export const BIOME_NAMES = ['plains', 'forest', 'taiga', 'desert'] as const
export type BiomeName = (typeof BIOME_NAMES)[number]

export const ORES = ['coal', 'iron', 'copper', 'gold', 'redstone', 'lapis', 'diamond'] as const
export type Ore = (typeof ORES)[number]

export interface Palette {
  /** State id of each block name (default state; grass_block is the non-snowy state, logs are axis=y). */
  state: Record<BlockName, number>
  /** Block name of each state id we write (for scans and tests). */
  nameOf: Map<number, BlockName>
  biome: Record<BiomeName, number>
  /** Ore state for each ore: [in stone-like rock, in deepslate]. */
  ore: Record<Ore, [number, number]>
}

export function buildPalette(reg: WorldgenRegistry): Palette {
  const state = {} as Record<BlockName, number>
  const nameOf = new Map<number, BlockName>()
  for (const name of BLOCK_NAMES) {
    const id = idIn(name, (n) => reg.blocksByName[n] !== undefined) // 'grass' is short_grass from 1.20.3
    const b = id === undefined ? undefined : reg.blocksByName[id]
    if (!b) throw new Error(`practice world generator: block ${name} is missing from this version's registry`)
    state[name] = b.defaultState
    nameOf.set(b.defaultState, name)
  }
  const biome = {} as Record<BiomeName, number>
  for (const name of BIOME_NAMES) {
    const b = reg.biomesByName[name]
    if (!b) throw new Error(`practice world generator: biome ${name} is missing from this version's registry`)
    biome[name] = b.id
  }
  const ore = {} as Record<Ore, [number, number]>
  for (const o of ORES) ore[o] = [state[`${o}_ore`], state[`deepslate_${o}_ore`]]
  return { state, nameOf, biome, ore }
}
