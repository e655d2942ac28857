/**
 * Block loot for the practice world, as a pure function: given a registry (minecraft-data 1.20.2 through
 * prismarine-registry), the broken block's name, the held tool and a random source, `rollBlockLoot` returns the
 * items to drop. It starts from minecraft-data's `blockLoot` (a lossy summary of vanilla loot tables: alternatives
 * come out as entries with dropChance 0.5 and a silkTouch/noSilkTouch flag) and corrects it: harvest tools are
 * enforced (stone by hand drops nothing), silk-touch/no-silk-touch alternatives are exclusive and certain, and the
 * blocks whose vanilla table is random or multi-count (leaves, grass, gravel, ores, glowstone ...) use vanilla
 * chances and counts without Fortune. No server here: the drops plugin calls it, and unit tests call it directly.
 */

/** One item to spawn: its registry name and stack count. */
export interface LootDrop {
  name: string
  count: number
}

/** What the player held when the block broke (null/undefined = empty hand). */
export interface LootTool {
  name: string
  silkTouch?: boolean
}

/** The registry parts we read (prismarine-registry's objects are untyped, so only these fields are declared). */
export interface LootRegistry {
  blocksByName: Record<string, { name: string; harvestTools?: Record<string, boolean> } | undefined>
  itemsByName: Record<string, { id: number } | undefined>
  blockLoot?: Record<
    string,
    | {
        drops: Array<{
          item: string
          dropChance: number
          stackSizeRange: Array<number | null>
          silkTouch?: boolean
          noSilkTouch?: boolean
        }>
      }
    | undefined
  >
}

export type Random = () => number

/** Vanilla counts (no Fortune) for the no-silk-touch drop of ores and similar blocks; minecraft-data's are wrong. */
const COUNT_RANGES: Record<string, [number, number]> = {
  coal: [1, 1],
  raw_iron: [1, 1],
  raw_gold: [1, 1],
  diamond: [1, 1],
  emerald: [1, 1],
  quartz: [1, 1],
  raw_copper: [2, 5],
  redstone: [4, 5],
  lapis_lazuli: [4, 9],
  gold_nugget: [2, 6],
  glowstone_dust: [2, 4],
  melon_slice: [3, 7],
  clay_ball: [4, 4],
  snowball: [4, 4],
  book: [3, 3],
  prismarine_crystals: [2, 3],
  amethyst_shard: [4, 4],
}

/** Sapling chance per leaves block (vanilla 1/20, jungle 1/40). Mangrove leaves drop no sapling. */
const SAPLING_CHANCE: Record<string, number> = { jungle_leaves: 1 / 40 }
const APPLE_LEAVES = new Set(['oak_leaves', 'dark_oak_leaves'])
const SAPLING_OF: Record<string, string> = { azalea_leaves: 'azalea', flowering_azalea_leaves: 'flowering_azalea' }

const intBetween = (rng: Random, min: number, max: number): number => min + Math.floor(rng() * (max - min + 1))
const isShears = (tool: LootTool | null | undefined): boolean => tool?.name === 'shears'

/** Leaves: the block itself only with shears or silk touch; else sapling 5 %, 1–2 sticks 2 %, apple 0.5 % (oak). */
function leavesLoot(block: string, tool: LootTool | null | undefined, rng: Random, reg: LootRegistry): LootDrop[] {
  if (isShears(tool) || tool?.silkTouch) return [{ name: block, count: 1 }]
  const out: LootDrop[] = []
  const sapling = SAPLING_OF[block] ?? block.replace(/_leaves$/, '_sapling')
  if (block !== 'mangrove_leaves' && reg.itemsByName[sapling] && rng() < (SAPLING_CHANCE[block] ?? 1 / 20))
    out.push({ name: sapling, count: 1 })
  if (rng() < 0.02) out.push({ name: 'stick', count: intBetween(rng, 1, 2) })
  if (APPLE_LEAVES.has(block) && rng() < 0.005) out.push({ name: 'apple', count: 1 })
  return out
}

/** Grass and ferns: themselves only with shears; else wheat seeds 1/8. */
function grassLoot(block: string, tool: LootTool | null | undefined, rng: Random): LootDrop[] {
  if (isShears(tool) || tool?.silkTouch) {
    const self = block === 'tall_grass' ? 'grass' : block === 'large_fern' ? 'fern' : block
    return [{ name: self, count: block === 'tall_grass' || block === 'large_fern' ? 2 : 1 }]
  }
  return rng() < 1 / 8 ? [{ name: 'wheat_seeds', count: 1 }] : []
}

const SPECIAL: Record<
  string,
  (block: string, tool: LootTool | null | undefined, rng: Random, reg: LootRegistry) => LootDrop[]
> = {
  gravel: (_b, tool, rng) => [{ name: !tool?.silkTouch && rng() < 0.1 ? 'flint' : 'gravel', count: 1 }],
  grass: (b, t, r) => grassLoot(b, t, r),
  fern: (b, t, r) => grassLoot(b, t, r),
  tall_grass: (b, t, r) => grassLoot(b, t, r),
  large_fern: (b, t, r) => grassLoot(b, t, r),
  dead_bush: (_b, tool, rng) =>
    isShears(tool)
      ? [{ name: 'dead_bush', count: 1 }]
      : [{ name: 'stick', count: intBetween(rng, 0, 2) }].filter((d) => d.count > 0),
  cobweb: (_b, tool) =>
    isShears(tool) || tool?.silkTouch
      ? [{ name: 'cobweb', count: 1 }]
      : tool?.name.endsWith('_sword')
        ? [{ name: 'string', count: 1 }]
        : [],
}

/** True when `tool` may harvest `block` (blocks without harvestTools drop with anything, even a bare hand). */
export function canHarvest(reg: LootRegistry, block: string, tool: LootTool | null | undefined): boolean {
  const harvest = reg.blocksByName[block]?.harvestTools
  if (!harvest) return true
  if (!tool) return false
  const id = reg.itemsByName[tool.name]?.id
  return id !== undefined && harvest[String(id)] === true
}

/** The items a block drops when broken in survival with `tool`. Unknown blocks (air, water, barrier ...) drop nothing. */
export function rollBlockLoot(
  reg: LootRegistry,
  block: string,
  tool: LootTool | null | undefined,
  rng: Random = Math.random,
): LootDrop[] {
  if (!canHarvest(reg, block, tool)) return []
  if (block.endsWith('_leaves')) return leavesLoot(block, tool, rng, reg)
  const special = SPECIAL[block]
  if (special) return special(block, tool, rng, reg)
  const table = reg.blockLoot?.[block]
  if (!table) return []
  const silk = tool?.silkTouch === true
  const out: LootDrop[] = []
  for (const entry of table.drops) {
    if (!reg.itemsByName[entry.item]) continue
    if (entry.silkTouch && !silk) continue
    if (entry.noSilkTouch && silk) continue
    // Flagged entries are the two sides of a silk-touch alternative: the surviving side always drops.
    const chance = entry.silkTouch || entry.noSilkTouch ? 1 : entry.dropChance
    if (chance < 1 && rng() >= chance) continue
    const fixed = silk ? undefined : COUNT_RANGES[entry.item]
    const [min, max] = fixed ?? [entry.stackSizeRange[0] ?? 1, entry.stackSizeRange[1] ?? entry.stackSizeRange[0] ?? 1]
    const count = intBetween(rng, min, max)
    if (count > 0) out.push({ name: entry.item, count })
  }
  return out
}
