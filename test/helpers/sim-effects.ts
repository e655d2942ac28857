/**
 * The sim world's effects that turn materials into items (test/helpers/sim-world.ts), and why explore finds nothing: mining a block until the wanted
 * total is held (the real drops, fractions carried over), crafting with a real recipe variant and smelting with the
 * fuel the rule book counts. Each one judges its needs with the rule book first and ends the action through `fail`
 * (a fixed FailureReason and one sentence), as every sim action does. Used only by tests.
 */
import type { Knowledge } from '../../src/knowledge/index.js'
import { fmtItems, judge, type RuleWorld } from '../../src/rules/index.js'
import { tableNeed } from '../../src/rules/craft.js'
import { harvestNeed } from '../../src/rules/mine.js'
import { smeltItemsNeed, fuelFor } from '../../src/rules/smelt.js'
import type { Action, FailureReason } from '../../src/schemas/action.js'
import type { TimeOfDay } from '../../src/schemas/goal.js'

/** Thrown inside a handler to end the action with a failure result. */
export class SimFail {
  constructor(
    readonly reason: FailureReason,
    readonly message: string,
  ) {}
}
export function fail(reason: FailureReason, message: string): never {
  throw new SimFail(reason, message)
}

/** What the effects read and change in the sim world: its knowledge, bag, sight and carried-over drop fractions. */
export interface SimStock extends RuleWorld {
  readonly kb: Knowledge
  readonly visible: Map<string, number>
  count(item: string): number
  add(item: string, n: number): void
  take(item: string, n: number): void
  yieldFrom(source: string, drops: Map<string, number> | Record<string, number>, n: number): void
}

const FLUIDS = new Set(['water', 'lava', 'powder_snow'])

/** Why `name` cannot be found by exploring now, or null when it can. */
export function notFindable(
  w: SimStock & { readonly underground: boolean; readonly y: number; readonly time: TimeOfDay },
  name: string,
  strategy: 'surface' | 'underground',
  absent: readonly string[],
): string | null {
  const world = w.kb.data.world
  if (absent.includes(name)) return `I searched but found no ${name} around here.`
  if (w.kb.data.mc.biomesByName[name]) return null
  if (w.count(name) > 0 && w.kb.isBlock(name)) return null
  const natural = world.blocks[name] ?? Object.values(world.blocks).find((p) => p.also?.includes(name))
  if (natural) {
    if (natural.where === 'underground') {
      if (strategy !== 'underground' && !w.underground)
        return `${name} is found underground; I should explore underground for it.`
      if ((natural.yMin ?? -64) > w.y + 8 || (natural.yMax ?? 320) < w.y - 8)
        return `no ${name} at y=${w.y}; it lies between y=${natural.yMin} and y=${natural.yMax}.`
    } else if (w.underground && natural.biomes?.length) return `${name} grows on the surface and I am underground.`
    return null
  }
  const mob = world.mobs[name]
  if (mob) {
    if (mob.where === 'surface' && w.underground) return `${name} lives on the surface and I am underground.`
    if (mob.time === 'night' && w.time !== 'night') return `${name} only comes out at night and it is ${w.time}.`
    return null
  }
  if (FLUIDS.has(name) || world.apply.some((a) => a.target === name) || world.collect.some((c) => c.near === name))
    return null
  return w.kb.resolveName(name).ok
    ? `I explored but there is no natural ${name} to find.`
    : `I don't know anything called ${name}.`
}

type Effect = { message: string; durationMs: number }

/** The block to dig for `object` (a block name or one of its drops) and the item whose total counts. */
function mineTarget(w: SimStock, object: string): { blocks: string[]; wanted: string } {
  const world = w.kb.data.world
  const natural = (b: string): boolean =>
    world.blocks[b] !== undefined || Object.values(world.blocks).some((p) => p.also?.includes(b))
  // as in the real action: a block that drops itself (dirt) is also got from blocks that drop it (grass_block)
  const sources = w.kb.sources.sourcesFor(object).flatMap((s) => (s.kind === 'mine' ? [s.block, ...s.also] : []))
  if (w.kb.isBlock(object) && (natural(object) || w.visible.has(object))) {
    const drops = [...w.kb.sources.dropsOf(object)].sort((x, y) => y[1] - x[1])
    const also = world.blocks[object]?.also ?? []
    return { blocks: [...new Set([object, ...also, ...sources])], wanted: drops[0]?.[0] ?? object }
  }
  if (sources.length === 0) fail('invalid', `${object} is not something I can dig.`)
  return { blocks: sources, wanted: object }
}

export function simMine(w: SimStock, a: Extract<Action, { type: 'mine' }>): Effect {
  const { blocks, wanted } = mineTarget(w, a.object)
  const sight = judge([{ kind: 'sight', object: a.object, anyOf: blocks }], w, w.kb)
  if (!sight.ok) fail(sight.reason, sight.message)
  const block = blocks.find((b) => w.visible.has(b))!
  const harvest = judge([harvestNeed(block, a.tool)], w, w.kb)
  if (!harvest.ok) fail(harvest.reason, harvest.message)
  const drops = w.kb.sources.dropsOf(block)
  if ((drops.get(wanted) ?? 0) <= 0) fail('invalid', `Digging ${block} does not give ${wanted}.`)
  let dug = 0
  while (w.count(wanted) < a.count && dug < 4096) {
    w.yieldFrom(`dig:${block}`, drops, 1)
    dug++
  }
  return {
    message: `I have ${w.count(wanted)} ${wanted} now (mined ${dug} ${block}).`,
    durationMs: 1500 * dug + 200,
  }
}

/** Craft with a real recipe variant: the listed materials if they make one, else any variant the inventory holds. */
export function simCraft(w: SimStock, a: Extract<Action, { type: 'craft' }>): Effect {
  if (!w.kb.isItem(a.object)) fail('invalid', `${a.object} is not an item I can craft.`)
  const variants = w.kb.recipesFor(a.object).flatMap((g) => g.variants)
  const listed = (v: (typeof variants)[number]): boolean => Object.keys(v.ingredients).every((i) => i in a.materials)
  const needs = (v: (typeof variants)[number]): Record<string, number> => {
    const runs = Math.ceil(a.count / v.count)
    return Object.fromEntries(Object.entries(v.ingredients).map(([i, k]) => [i, k * runs]))
  }
  const held = (v: (typeof variants)[number]): boolean => Object.entries(needs(v)).every(([i, k]) => w.count(i) >= k)
  const recipe = variants.find((v) => listed(v) && held(v)) ?? variants.find(held)
  if (!recipe) {
    const short = judge(
      [{ kind: 'items', items: needs(variants.find(listed) ?? variants[0]!), doing: `craft ${a.object}` }],
      w,
      w.kb,
    )
    fail(
      'missing_materials',
      `I lack the materials for any recipe of ${a.object}${short.ok ? '' : `: ${short.message}`}`,
    )
  }
  if (recipe.needsTable) {
    const table = judge([tableNeed(a.object)], w, w.kb)
    if (!table.ok) fail(table.reason, table.message)
  }
  const used = needs(recipe)
  const runs = Math.ceil(a.count / recipe.count)
  for (const [i, k] of Object.entries(used)) w.take(i, k)
  w.add(a.object, recipe.count * runs)
  return { message: `I crafted ${recipe.count * runs} ${a.object} from ${fmtItems(used)}.`, durationMs: 500 * runs }
}

/** Smelt the listed input (or any input the inventory holds) with the fuel the rule book counts. */
export function simSmelt(w: SimStock, a: Extract<Action, { type: 'smelt' }>): Effect {
  const inputs = w.kb.smeltingFor(a.object).flatMap((r) => r.inputs)
  const input = Object.keys(a.materials).find((m) => inputs.includes(m)) ?? inputs.find((i) => w.count(i) > 0)
  if (!input)
    fail(
      'invalid',
      `None of ${Object.keys(a.materials).join(', ') || 'the materials'} smelts into ${a.object}; use ${inputs.slice(0, 2).join(' or ')}.`,
    )
  const fuelNeeded = fuelFor(w.kb, a.fuel, a.count)!
  const items: Record<string, number> = { [input]: a.count }
  items[a.fuel] = (items[a.fuel] ?? 0) + fuelNeeded
  const v = judge([smeltItemsNeed(a.object, a.count, items)], w, w.kb)
  if (!v.ok) fail(v.reason, v.message)
  for (const [m, k] of Object.entries(items)) w.take(m, k)
  w.add(a.object, a.count)
  return {
    message: `I smelted ${a.count} ${a.object} from ${input} using ${fuelNeeded} ${a.fuel}.`,
    durationMs: 10_000 * a.count,
  }
}
