/**
 * `build(blueprint)`: place the blocks of a shipped blueprint (data/blueprints/<name>.json: relative positions and
 * block names) bottom-up, on the first clear, level site 2–4 blocks from the bot (blueprint +z points away from it). Checks the materials first (`missing_materials`),
 * skips blocks already there, and fails with `no_space` when a spot is taken or has nothing to place against. Within
 * a layer a block goes next only once it has a neighbour to be placed against (a lintel after its posts); the
 * pathfinder may not spend the blueprint's blocks on scaffolding meanwhile. A chosen site never covers a container
 * (it could not open, and a click on it opens it instead of placing), and a block is placed against a container only
 * when nothing else is next to it. The finished build is verified block by
 * block (`unverified` lists mismatches, e.g. a block an admin removed). `buildBlueprintAt` is the build-at-a-place
 * skill's entry (a given site and facing, a callback per finished layer); a given site is reached first (back up the
 * shaft the materials were mined from, never pillaring with the blueprint's blocks, then leg by leg), then fitted to
 * the ground as a player would (site.ts: the spot within a few blocks needing the least work, said in the reply when
 * it moved) and levelled: what stands in the blueprint's box is dug, holes under it are filled with junk blocks.
 */
import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import type { Action } from '../schemas/action.js'
import { didYouMean } from '../util/text.js'
import type { Vec3 } from 'vec3'
import { ActionFailure, fail, countOf, type Run } from './types.js'
import { placeRefs } from './placing.js'
import { digBlock, goals, goto } from './world.js'
import { overlapsCell } from '../util/vec.js'
import { collectDrops } from './drops.js'
import { gotoXyz } from './goto.js'
import { goUp } from './go_up.js'
import { surfaceOf } from './memory.js'
import { inBox } from '../schemas/region.js'
import { isContainer } from '../rules/policy.js'
import { SCAFFOLD } from '../bot/create.js'
import { AIR, FIT_RADIUS, LIQUID, fitSite, playerInCell, siteCentre, siteWork, spotOf, type Site } from './site.js'

export const Blueprint = z.object({
  name: z.string().min(1),
  description: z.string(),
  blocks: z
    .array(z.object({ x: z.number().int(), y: z.number().int().min(0), z: z.number().int(), block: z.string().min(1) }))
    .min(1)
    .max(512),
})
export type Blueprint = z.infer<typeof Blueprint>

const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data/blueprints')

export function blueprintNames(): string[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort()
}

export function loadBlueprint(name: string): Blueprint | null {
  if (!/^[a-z0-9_]+$/.test(name) || !blueprintNames().includes(name)) return null
  return Blueprint.parse(JSON.parse(readFileSync(path.join(DIR, `${name}.json`), 'utf8')))
}

/** Where blueprint block (x, y, z) goes for an origin and a forward direction (+z away from the bot, +x right). */
function at(origin: Vec3, fx: number, fz: number, b: { x: number; y: number; z: number }): Vec3 {
  return spotOf({ origin, fx, fz }, b)
}

/** The first origin 2–4 blocks away (facing direction first) where every blueprint spot is free, none on a container. */
function chooseSite(run: Run, bp: Blueprint): { origin: Vec3; fx: number; fz: number } | null {
  const { bot } = run
  const yaw = bot.entity.yaw
  const f0x = Math.round(-Math.sin(yaw))
  const f0z = f0x !== 0 ? 0 : Math.round(-Math.cos(yaw)) || 1
  const dirs: Array<[number, number]> = [
    [f0x, f0z],
    [-f0z, f0x],
    [f0z, -f0x],
    [-f0x, -f0z],
  ]
  const me = bot.entity.position.floored()
  for (const [fx, fz] of dirs) {
    for (const dist of [2, 3, 4]) {
      const origin = me.offset(fx * dist, 0, fz * dist)
      for (let i = 0; i < 3 && bot.blockAt(origin)?.boundingBox === 'block'; i++) origin.y++
      for (let i = 0; i < 3 && bot.blockAt(origin.offset(0, -1, 0))?.boundingBox === 'empty'; i++) origin.y--
      if (bot.blockAt(origin.offset(0, -1, 0))?.boundingBox !== 'block') continue
      const ok = bp.blocks.every((b) => {
        const p = at(origin, fx, fz, b)
        const here = bot.blockAt(p)
        return (
          !!here &&
          (here.boundingBox === 'empty' || here.name === b.block) &&
          here.name !== 'lava' &&
          !isContainer(bot.blockAt(p.offset(0, -1, 0))?.name ?? '') && // never wall a chest in (it could not open)
          !(p.x === me.x && p.z === me.z && (p.y === me.y || p.y === me.y + 1))
        )
      })
      if (ok) return { origin, fx, fz }
    }
  }
  return null
}

export type { Site }

function loadOrFail(name: string): Blueprint {
  const bp = loadBlueprint(name)
  if (!bp) {
    const near = didYouMean(name, blueprintNames())
    fail(
      'invalid',
      `There is no blueprint called "${name}"; I know ${near.length ? near.join(', ') : blueprintNames().join(', ')}.`,
    )
  }
  return bp
}

/** Blocks a blueprint consumes, by name. */
export function blueprintNeeds(bp: Blueprint): Record<string, number> {
  const need: Record<string, number> = {}
  for (const b of bp.blocks) need[b.block] = (need[b.block] ?? 0) + 1
  return need
}

/** Every blueprint block that is not what the blueprint says, as "x y z: want cobblestone, found air". */
export function verifyBuild(bot: Run['bot'], bp: Blueprint, site: Site): string[] {
  return bp.blocks.flatMap((spec) => {
    const p = at(site.origin, site.fx, site.fz, spec)
    const found = bot.blockAt(p)?.name ?? 'unloaded'
    return found === spec.block ? [] : [`${p.x} ${p.y} ${p.z}: want ${spec.block}, found ${found}`]
  })
}

/** Called after each layer of a build, awaited before the next one starts. */
export type OnLayer = (done: number, total: number) => void | Promise<void>

/** Place the blueprint's blocks bottom-up at `site`; `onLayer(done, total)` after each layer. Returns blocks placed. */
async function placeAll(run: Run, bp: Blueprint, site: Site, onLayer?: OnLayer): Promise<number> {
  const { bot } = run
  const { origin, fx, fz } = site
  const order = [...bp.blocks].sort(
    (a, b) => a.y - b.y || Math.abs(a.x) + Math.abs(a.z) - (Math.abs(b.x) + Math.abs(b.z)),
  )
  const inProtected = order.map((spec) => at(origin, fx, fz, spec)).find((p) => run.protected.some((b) => inBox(b, p)))
  if (inProtected)
    fail(
      'unsafe',
      `I never build inside a protected area; the ${bp.name} would reach ${inProtected.x} ${inProtected.y} ${inProtected.z}.`,
    )
  const layers = [...new Set(order.map((b) => b.y))]
  let placed = 0
  for (const [i, y] of layers.entries()) {
    const pending = order.filter((b) => b.y === y)
    while (pending.length > 0) {
      run.check()
      // next: the nearest block that already has something to be placed against (a lintel waits for its posts), one
      // a player stands in last (they may have stepped out by then)
      const ready = (spec: (typeof order)[number], free: boolean): boolean =>
        hasSupport(bot, at(origin, fx, fz, spec)) && (!free || !playerInCell(bot, at(origin, fx, fz, spec)))
      const first = pending.findIndex((spec) => ready(spec, true))
      const k = Math.max(0, first >= 0 ? first : pending.findIndex((spec) => ready(spec, false)))
      const spec = pending.splice(k, 1)[0]!
      if (await placeOne(run, spec.block, at(origin, fx, fz, spec))) placed++
    }
    await onLayer?.(i + 1, layers.length)
  }
  return placed
}

function hasSupport(bot: Run['bot'], pos: Vec3): boolean {
  return bot.blockAt(pos)?.boundingBox === 'block' || placeRefs(bot, pos).length > 0
}

/** Passes over a site's digging and filling (sand falls, leaves hang on) before the build gives up on levelling. */
const PREPARE_PASSES = 3

/**
 * Level a fitted site as a player would: dig what stands inside the blueprint's box (top first, with the best tool
 * at hand), then fill the holes under its footprint with junk blocks (dirt first; the blueprint's own blocks only
 * beyond what it needs). A hole with nothing to fill it or nothing to place against is left: the walls still go in.
 */
async function prepareSite(run: Run, bp: Blueprint, site: Site): Promise<{ dug: number; filled: number }> {
  const { bot } = run
  const need = blueprintNeeds(bp)
  let dug = 0
  let filled = 0
  for (let pass = 0; pass < PREPARE_PASSES; pass++) {
    const work = siteWork(bot, bp, site, run.protected)
    if (!work) fail('no_space', `The ground for the ${bp.name} changed while I cleared it; it can't go there now.`)
    if (!work.dig.length && !work.fill.length) break
    for (const p of work.dig) {
      const b = bot.blockAt(p)
      if (!b || AIR.has(b.name)) continue
      await bot.tool.equipForBlock(b, {}).catch(() => {})
      await digBlock(run, b)
      dug++
    }
    if (dug && work.fill.length) await collectDrops(run, siteCentre(bp, site), 6, 3000)
    for (const p of work.fill) {
      const filler = fillerFor(bot, need)
      if (!filler || !hasSupport(bot, p) || bot.blockAt(p)?.boundingBox === 'block') continue
      if (await placeOne(run, filler, p).catch(skipNoSpace)) filled++
    }
    if (!work.dig.length) break
  }
  return { dug, filled }
}

/** A no_space failure while filling a hole is skipped (the hole stays); anything else ends the build. */
function skipNoSpace(err: unknown): false {
  if (err instanceof ActionFailure && err.reason === 'no_space') return false
  throw err
}

/** A block to fill a hole with: junk first, else one of the blueprint's blocks it has beyond the blueprint's needs. */
function fillerFor(bot: Run['bot'], need: Record<string, number>): string | null {
  const items = bot.inventory.items()
  const junk = SCAFFOLD.find((n) => !(n in need) && items.some((i) => i.name === n))
  if (junk) return junk
  return Object.keys(need).find((n) => countOf(bot, [n]) > need[n]!) ?? null
}

/** Tries at one block: a placement the server did not take (the bot's body in the way, a lost packet) is tried again. */
const PLACE_TRIES = 2

/** One block of `block` at `pos`; false when it was already there. */
async function placeOne(run: Run, block: string, pos: Vec3): Promise<boolean> {
  const { bot } = run
  const here = bot.blockAt(pos)
  if (here?.name === block) return false
  if (here && here.boundingBox !== 'empty' && here.name !== 'water')
    fail('no_space', `Something (${here.name}) is in the way at ${pos.x} ${pos.y} ${pos.z}.`)
  // a flower, a sapling or snow is not replaced by a placed block (tall grass is): cleared first, as a player would
  if (here && !AIR.has(here.name) && !LIQUID.has(here.name)) await digBlock(run, here)
  for (let tries = 1; ; tries++) {
    const player = bot.registry.blocksByName[block]?.boundingBox === 'block' ? playerInCell(bot, pos) : null
    if (player) fail('no_space', `${player} is standing where a block goes, at ${pos.x} ${pos.y} ${pos.z}.`)
    if (overlapsCell(bot.entity.position, pos))
      await goto(run, new goals.GoalInvert(new goals.GoalNear(pos.x, pos.y, pos.z, 1)), 'a spot out of the way')
    if (bot.entity.position.distanceTo(pos.offset(0.5, 0.5, 0.5)) > 4)
      await goto(run, new goals.GoalNear(pos.x, pos.y, pos.z, 3), 'the building site')
    // a click on a container (a table, a door) opens or uses it instead of placing: any other neighbour first
    const ref = placeRefs(bot, pos)[0]
    if (!ref) fail('no_space', `There is nothing to place ${block} against at ${pos.x} ${pos.y} ${pos.z}.`)
    const item = bot.inventory.items().find((i) => i.name === block)
    if (!item) fail('missing_materials', `I ran out of ${block}.`)
    run.step()
    await bot.equip(item, 'hand')
    await bot.placeBlock(ref, pos.minus(ref.position)).catch(() => {})
    if (bot.blockAt(pos)?.name === block) break
    if (tries >= PLACE_TRIES) fail('no_space', `Placing ${block} at ${pos.x} ${pos.y} ${pos.z} did not work.`)
  }
  run.progress.work(1)
  return true
}

/** A site farther than this is walked to first, leg by leg (the goto skill), not in one pathfinder search. */
const NEAR_SITE = 6

/**
 * Get to a given site first: back up the shaft `dig_down` remembered when the bot is still below it (materials were
 * just mined), then walk there leg by leg. A shaft it cannot climb is left to the walk; no way there → `no_path`.
 */
async function reachSite(run: Run, origin: Vec3, keep: ReadonlySet<string>): Promise<void> {
  const { bot } = run
  const home = surfaceOf(bot)
  if (home && bot.entity.position.y < home.y - 1)
    await goUp(run, { type: 'go_up', tool: null }, keep).catch((err: unknown) => {
      run.check()
      if (!(err instanceof ActionFailure)) throw err
    })
  if (bot.entity.position.distanceTo(origin) > NEAR_SITE)
    await gotoXyz(run, { type: 'goto', x: origin.x, y: origin.y, z: origin.z })
}

/** What the reply adds about levelling: how far the site moved from the asked spot, what was dug and filled. */
function siteNote(moved: number, work: { dug: number; filled: number }): string {
  const parts = [
    ...(moved ? [`${moved} block${moved === 1 ? '' : 's'} from the spot asked, where the ground was more level`] : []),
    ...(work.dug || work.filled ? [`after clearing ${work.dug} and filling ${work.filled} blocks`] : []),
  ]
  return parts.length ? ` (${parts.join(', ')})` : ''
}

/** Check materials, place, then verify block by block (`unverified` lists the mismatches). */
export async function buildSite(run: Run, bp: Blueprint, site: Site | null, onLayer?: OnLayer): Promise<string> {
  const { bot } = run
  const need = blueprintNeeds(bp)
  const short = Object.entries(need)
    .filter(([n, c]) => countOf(bot, [n]) < c)
    .map(([n, c]) => `${c - countOf(bot, [n])} ${n}`)
  if (short.length) fail('missing_materials', `To build the ${bp.name} I am short of ${short.join(', ')}.`)
  let where = site ?? chooseSite(run, bp)
  if (!where) fail('no_space', `There is no clear, level spot next to me for the ${bp.name}.`)
  let note = ''
  // the pathfinder must not spend the blueprint's blocks on scaffolding (it towers up with dirt or cobblestone)
  const moves = bot.pathfinder.movements
  const scaffold = moves.scafoldingBlocks
  moves.scafoldingBlocks = scaffold.filter((id) => !((bot.registry.items[id]?.name ?? '') in need))
  let placed: number
  try {
    if (site) {
      await reachSite(run, site.origin, new Set(Object.keys(need)))
      const fit = fitSite(bot, bp, site, run.protected)
      const a = site.origin
      if (!fit)
        fail(
          'no_space',
          `There is no spot within ${FIT_RADIUS} blocks of ${a.x} ${a.y} ${a.z} where the ${bp.name} can go (water, lava, a protected area, a container or someone's blocks are in the way).`,
        )
      where = fit.site
      note = siteNote(fit.moved, await prepareSite(run, bp, fit.site))
    }
    placed = await placeAll(run, bp, where, onLayer)
  } finally {
    moves.scafoldingBlocks = scaffold
  }
  const wrong = verifyBuild(bot, bp, where)
  const o = where.origin
  if (wrong.length)
    fail(
      'unverified',
      `I built the ${bp.name} at ${o.x} ${o.y} ${o.z} but ${wrong.length} block${wrong.length === 1 ? ' is' : 's are'} not as planned: ${wrong.slice(0, 4).join('; ')}${wrong.length > 4 ? ' …' : ''}.`,
    )
  return `I built the ${bp.name} (${placed} blocks placed, all ${bp.blocks.length} checked) at ${o.x} ${o.y} ${o.z}${note}.`
}

export async function build(run: Run, action: Extract<Action, { type: 'build' }>): Promise<string> {
  return buildSite(run, loadOrFail(action.blueprint), null)
}

/** The `build … at a place` skill's entry: a named blueprint at a given site (not a planner action). */
export function buildBlueprintAt(run: Run, name: string, site: Site, onLayer?: OnLayer): Promise<string> {
  return buildSite(run, loadOrFail(name), site, onLayer)
}
