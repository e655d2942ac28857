/**
 * Name resolution for actions: turns the object of an action (a block, an item, an entity, or a group such as `log`
 * for any `*_log`) into registry ids through `bot.registry`, so every handler rejects unknown names the same way —
 * reason `invalid` with a did-you-mean. Mining targets resolve both ways: a block (iron_ore → wants raw_iron) or the
 * item it drops (cobblestone → dig stone or cobblestone).
 */
import type { Bot } from 'mineflayer'
import type { Block } from 'prismarine-block'
import { didYouMean } from '../util/text.js'
import { fail } from './types.js'

export function normalise(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/^minecraft:/, '')
    .replace(/[\s-]+/g, '_')
}

function allNames(bot: Bot): Set<string> {
  const r = bot.registry
  return new Set([...Object.keys(r.itemsByName), ...Object.keys(r.blocksByName), ...Object.keys(r.entitiesByName)])
}

function unknown(bot: Bot, name: string, what: string): never {
  const near = didYouMean(name, allNames(bot))
  fail(
    'invalid',
    `There is no ${what} called "${name}" in Minecraft ${bot.version}${near.length ? `; did you mean ${near.join(', ')}?` : '.'}`,
  )
}

/** Names in `pool` that are `name` itself or end with `_name` (group names like log, planks, wool). */
function group(name: string, pool: Record<string, unknown>): string[] {
  if (Object.hasOwn(pool, name)) return [name] // not `in`: "constructor" is in every object
  return Object.keys(pool).filter(
    (k) => k.endsWith(`_${name}`) && !k.startsWith('stripped_') && !k.startsWith('potted_'),
  )
}

export interface ItemRef {
  names: string[]
  ids: number[]
}

/** An item (or item group) the bot can hold. */
export function resolveItem(bot: Bot, raw: string): ItemRef {
  const name = normalise(raw)
  const names = group(name, bot.registry.itemsByName)
  if (names.length === 0) unknown(bot, raw, 'item')
  return { names, ids: names.map((n) => bot.registry.itemsByName[n]!.id) }
}

export interface BlockTarget {
  /** Block type ids to look for and dig. */
  blockIds: Set<number>
  blockNames: string[]
  /** Items the dug blocks yield (what "count" counts). */
  wanted: string[]
}

/**
 * Whether holding one of the items `itemIds` (empty = the bare hand) makes `block` drop anything: a block without
 * harvest tools drops by hand; stone and sandstone need a pickaxe (the one rule for "can I harvest this in the world").
 */
export function harvestedBy(block: Block, itemIds: readonly number[]): boolean {
  const tools = block.harvestTools
  return !tools || itemIds.some((id) => id in tools)
}

/** The items a block drops by the registry (stone: cobblestone, grass_block: dirt); empty when it drops nothing. */
export function dropsOf(bot: Bot, block: string): string[] {
  const reg = bot.registry
  return (reg.blocksByName[block]?.drops ?? [])
    .map((d) => reg.items[typeof d === 'number' ? d : (d as { drop: number }).drop]?.name)
    .filter((x): x is string => !!x)
}

/** Blocks to find or dig for `raw`, which may name a block, a block group or an item dropped by blocks. */
export function blockTarget(bot: Bot, raw: string): BlockTarget | null {
  const name = normalise(raw)
  const reg = bot.registry
  // a group (log, planks) means its solid members; a block named exactly counts whatever its shape (grass, poppy)
  const direct = group(name, reg.blocksByName).filter(
    (n) => n === name || reg.blocksByName[n]!.boundingBox === 'block' || n === 'water' || n === 'lava',
  )
  if (direct.length) {
    const wanted = new Set<string>()
    for (const n of direct) {
      const drops = dropsOf(bot, n)
      for (const d of drops.length ? drops : [n]) wanted.add(d)
    }
    const ids = new Set(direct.map((n) => reg.blocksByName[n]!.id))
    // a block that drops itself (cobblestone, dirt) is also got from blocks that drop it (stone, grass_block)
    const selfDrops = new Set(
      [...wanted]
        .filter((w) => direct.includes(w))
        .map((w) => reg.itemsByName[w]?.id)
        .filter((x): x is number => x !== undefined),
    )
    if (selfDrops.size)
      for (const b of Object.values(reg.blocks))
        if ((b.drops ?? []).some((d) => selfDrops.has(typeof d === 'number' ? d : (d as { drop: number }).drop)))
          ids.add(b.id)
    return { blockIds: ids, blockNames: [...ids].map((id) => reg.blocks[id]!.name), wanted: [...wanted] }
  }
  const items = group(name, reg.itemsByName)
  if (!items.length) return null
  const ids = new Set(items.map((n) => reg.itemsByName[n]!.id))
  const blocks = Object.values(reg.blocks).filter((b) =>
    (b.drops ?? []).some((d) => ids.has(typeof d === 'number' ? d : (d as { drop: number }).drop)),
  )
  if (!blocks.length) return null
  return { blockIds: new Set(blocks.map((b) => b.id)), blockNames: blocks.map((b) => b.name), wanted: items }
}

/** Entity type names for `raw` (cow, zombie, ...), or null when it is not an entity. */
export function entityTarget(bot: Bot, raw: string): string[] | null {
  const name = normalise(raw)
  return bot.registry.entitiesByName[name] ? [name] : null
}

export type Target =
  | { kind: 'block'; block: BlockTarget }
  | { kind: 'entity'; names: string[] }
  | { kind: 'biome'; names: string[] }

/** Biome names for `raw`: an exact biome (birch_forest) or a family (forest → every biome whose name has it). */
export function biomeTarget(bot: Bot, raw: string): string[] | null {
  const all = Object.values(bot.registry.biomes).map((b) => b.name)
  // the name as written first ("plains" is a biome's own name), then without a plural s ("forests")
  const name = normalise(raw)
  for (const n of [name, name.replace(/s$/, '')]) {
    const hits = all.includes(n) ? [n] : all.filter((b) => b.split('_').includes(n))
    if (hits.length > 0) return hits
  }
  return null
}

/** Whether the biome `here` is what `wanted` names, by biomeTarget's rule (the one rule for "in biome X"). */
export function inBiome(bot: Bot, wanted: string, here: string): boolean {
  return biomeTarget(bot, wanted)?.includes(here) ?? false
}

/** A thing to see, approach or use: an entity first (cow is also an item-less entity), else blocks. */
export function resolveTarget(bot: Bot, raw: string): Target {
  const ent = entityTarget(bot, raw)
  if (ent) return { kind: 'entity', names: ent }
  const block = blockTarget(bot, raw)
  if (block) return { kind: 'block', block }
  const biome = biomeTarget(bot, raw)
  if (biome) return { kind: 'biome', names: biome }
  return unknown(bot, raw, 'block, creature or biome')
}
