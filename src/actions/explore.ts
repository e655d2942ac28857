/**
 * `explore(object, strategy, near?, biome?)`: move until the object is *seen* (line of sight from the eyes, no x-ray;
 * with `near`, only an object with that block or creature in sight close by counts — the percipient's pair rule; with
 * `biome`, only a sighting from inside that biome, and cells centred in other biomes are not searched; a creature the
 * knowledge places in other biomes only, a cow seen from a desert, is looked for along the biome's edge).
 * Surface: where to walk is surface-search.ts's (a spiral of cells, a biome seen from afar). A sighting far off is
 * walked toward before the search ends (`found`).
 * Underground: branch mining at the block's best level from the knowledge (ore-search.ts), looking for every variant
 * of the block (deepslate or stone), never opening a block next to lava or water; a block `mine` found out of reach,
 * or high up the shaft above the bot, does not count as seen — but one in the wall of the shaft the bot came down is
 * fetched by climbing back up the shaft to it. Fails with `not_found` when the step or time budget runs out.
 */
import type { Bot } from 'mineflayer'
import { type Action, describeSearch } from '../schemas/action.js'
import { Vec3 } from 'vec3'
import { biomeTarget, resolveTarget, type Target } from './names.js'
import { fail, type Run } from './types.js'
import { VIEW_DISTANCE, visibleBlocks, visibleEntities } from '../perception/vision.js'
import { nearestVisible } from '../perception/percipient.js'
import { goals, gotoWithin } from './world.js'
import { branchMine } from './ore-search.js'
import { searchIds, type YBand } from './ore-band.js'
import { deepIn, standsIn } from './biome-sight.js'
import { surface } from './surface-search.js'
import { rememberSighting } from './memory.js'
import { pillarUp } from './go_up.js'
import { reachableSightings, worthDigging } from './sighting.js'
import { logger } from '../util/log.js'
import { hostilesBeside } from './threats.js'
import { bestWeapon } from './reflexes/combat.js'

const log = logger('explore')

/**
 * Where the target is in sight, within reach (sighting.ts: underground, near and not high up the shaft); on the
 * surface, while the bot has no weapon, not a block with a hostile mob beside it (threats.ts): the search walks on,
 * away from the mob, to one it can dig in peace (bench:mp5 c13 3-4 seed 2, unarmed at night: the one log in sight
 * had a zombie by it, and 20 tries at it ended in flights).
 */
function seenAt(run: Run, target: Target, underground: boolean): Vec3 | null {
  // a block `mine` could not get to (high up a shaft wall, across a cave) is no find: look past it
  if (target.kind === 'block') {
    const guarded = !underground && bestWeapon(run.bot) === null
    return (
      reachableSightings(run.bot, target.block.blockIds, underground, 4).find(
        (b) => !guarded || hostilesBeside(run.bot, b.position) === 0,
      )?.position ?? null
    )
  }
  if (target.kind === 'biome') {
    const p = run.bot.entity.position
    return deepIn(run, target.names, p.x, p.z) ? p.clone() : null
  }
  return visibleEntities(run.bot, target.names)[0]?.position ?? null
}

/** A sighting farther than this is walked toward before the search ends (see `found`). */
const FIRM_SIGHT = 16
/** How close to a far sighting the bot walks, and for how long at most. */
const FIRM_NEAR = 8
const FIRM_WALK_MS = 15_000

/**
 * The search ends at a sighting. One farther than FIRM_SIGHT is walked toward first (the later steps walk there
 * anyway): seen for a moment from a sprint, it can be out of sight where the bot comes to a stop — over a crest, or
 * behind the nearer blocks of its kind that use up the rays (bench mp5 glass seed 1: "I reported seeing sand but none
 * is in sight now", and the sub-goal turned to red sand for 180 s).
 */
async function found(run: Run, object: string, at: Vec3): Promise<string> {
  rememberSighting(run.bot, at)
  if (at.distanceTo(run.bot.entity.position) > FIRM_SIGHT)
    await gotoWithin(run, new goals.GoalNear(at.x, at.y, at.z, FIRM_NEAR), `the ${object} I saw`, FIRM_WALK_MS)
  const d = at.distanceTo(run.bot.entity.position)
  return `I can see ${object} ${d.toFixed(0)} blocks away at ${Math.floor(at.x)} ${Math.floor(at.y)} ${Math.floor(at.z)}.`
}

/** Blocks above the feet a block may lie and still be dug from where the bot stands. */
const REACH_RISE = 4

/**
 * A wanted block in the wall of the shaft the bot just came down (seen up the open column above it): climb back up
 * the shaft (pillaring) until it is at eye level — far cheaper than a branch-mining search. Null when none is.
 */
async function climbToShaftOre(run: Run, target: Target): Promise<Vec3 | null> {
  const { bot } = run
  if (target.kind !== 'block') return null
  const feet = bot.entity.position.floored()
  const openTo = (y: number): boolean => {
    for (let yy = feet.y + 2; yy <= y + 1; yy++)
      if (bot.blockAt(new Vec3(feet.x, yy, feet.z))?.boundingBox !== 'empty') return false
    return true
  }
  const ore = visibleBlocks(bot, target.block.blockIds, VIEW_DISTANCE, 8).find(
    (b) =>
      b.position.y > feet.y + REACH_RISE &&
      Math.abs(b.position.x - feet.x) <= 1 &&
      Math.abs(b.position.z - feet.z) <= 1 &&
      worthDigging(bot, b.position) &&
      openTo(b.position.y),
  )
  if (!ore) return null
  run.step()
  log.debug('shaft ore', { at: ore.position.toString(), from: feet.toString() })
  if (!(await pillarUp(run, ore.position.y - 1, null, new Set()))) return null
  return ore.position
}

/**
 * A block target counting every variant of its blocks (ore-band.ts), with its y-band; any other target as it is
 * (no band). Computed once per explore: its first look, the shaft ore and the branch mine all use it.
 */
function withVariants(bot: Bot, target: Target): { target: Target; band: YBand | null } {
  if (target.kind !== 'block') return { target, band: null }
  const { ids, band } = searchIds(bot, target.block.blockNames)
  return { target: { kind: 'block', block: { ...target.block, blockIds: ids } }, band }
}

/** `wanted` counts every variant (withVariants); `band` is its y-band, null for a target without one. */
async function searchUnderground(
  run: Run,
  wanted: Target,
  band: YBand | null,
  object: string,
  look: (() => Vec3 | null) | null,
): Promise<string> {
  const up = look ? null : await climbToShaftOre(run, wanted)
  if (up) return found(run, object, up)
  const keep = new Set(wanted.kind === 'block' ? [...wanted.block.blockNames, ...wanted.block.wanted] : [])
  const seen = await branchMine(run, band, look ?? (() => seenAt(run, wanted, true)), keep)
  if (seen) return found(run, object, seen)
  return fail('not_found', `I branch-mined as far as I safely could and never saw ${object}.`)
}

export async function explore(run: Run, action: Extract<Action, { type: 'explore' }>): Promise<string> {
  const target = resolveTarget(run.bot, action.object)
  const { near } = action
  // an unknown name fails `invalid` now, not after a fruitless walk
  if (near) resolveTarget(run.bot, near)
  const within = action.biome
    ? (biomeTarget(run.bot, action.biome) ?? fail('invalid', `There is no biome called "${action.biome}".`))
    : null
  const underground = action.strategy === 'underground'
  // underground, a block counts in all its variants from the first look on, as in the search and in dig_down's watch
  // (the dig stopped at a deepslate_iron_ore it saw: explore for iron_ore must see it too)
  const { target: seen, band } = underground ? withVariants(run.bot, target) : { target, band: null }
  // with `near`, only a sighting with that thing next to it counts (a pig with grass by it); with `biome`, only one
  // seen from inside it
  const sight = near
    ? () => nearestVisible(run.bot, action.object, near)?.at ?? null
    : () => seenAt(run, seen, underground)
  const look = within ? () => (standsIn(run, within) ? sight() : null) : sight
  const now = look()
  if (now) return found(run, action.object, now)
  const what = describeSearch(action)
  return underground
    ? searchUnderground(run, seen, band, what, near || within ? look : null)
    : found(run, what, await surface(run, target, what, look, within, !near))
}
