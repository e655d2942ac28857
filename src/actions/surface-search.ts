/**
 * The surface half of `explore`: where to walk to see a block, a creature or a biome on the land. The world is a grid
 * of CELL-block cells visited along a square spiral out from the start cell (ring by ring), pathing to each cell's
 * centre while looking. A block of the target seen across the open land beyond the near sight is walked toward, and
 * cells looked over from afar are passed (far-look.ts); so is a block or creature the knowledge finds in some biomes
 * only, once one of them is in sight on dry land; after such a walk the spiral starts again from there. A biome is
 * seen from afar (the nearest loaded column BIOME_DEPTH inside it, as far as the server has sent the land, is walked
 * to: biome-sight.ts), and searched for toward the land whose climate is nearest its own (biome-climate.ts), else
 * along a wider square spiral out from the bot, resumed where a cut-short search left it. Returns where the target
 * was seen (explore.ts reports it); fails with `not_found` when no cell is left.
 */
import { Vec3 } from 'vec3'
import type { Target } from './names.js'
import { fail, type Run } from './types.js'
import { biomeAt } from '../perception/vision.js'
import { goals, goto } from './world.js'
import { standStill } from '../bot/body.js'
import { createKnowledge } from '../knowledge/index.js'
import { logger } from '../util/log.js'
import { roomAt, threatAt } from './threats.js'
import { climateHeading, HEADINGS, sampleClimate } from './biome-climate.js'
import { biomeInSight, COMPASS, columnKey, landInSight, standsIn } from './biome-sight.js'
import { FarLook } from './far-look.js'
import { gridCell, gridCentre } from '../util/vec.js'

const log = logger('surface-search')

export const CELL = 20

/** The one sentence for a surface search that ran out of places to walk. */
const neverSaw = (object: string): string => `I explored every place I could reach and never saw ${object}.`

/**
 * Path toward a goal while checking every 250 ms whether the target came into view; `stopIf` (checked each second)
 * ends the walk early without a find (a biome came in sight: the caller walks to it).
 */
async function moveLooking(
  run: Run,
  goal: ConstructorParameters<typeof goals.GoalXZ> | Vec3,
  look: () => Vec3 | null,
  stopIf?: () => boolean,
): Promise<Vec3 | null> {
  const g = goal instanceof Vec3 ? new goals.GoalBlock(goal.x, goal.y, goal.z) : new goals.GoalXZ(goal[0], goal[1])
  let seen: Vec3 | null = null
  let stopped = false
  let ticks = 0
  const from = run.bot.entity.position.clone()
  const startedMs = Date.now()
  const poll = setInterval(() => {
    if (seen || stopped) return
    try {
      seen = look()
      if (!seen && stopIf && ++ticks % 4 === 0) stopped = stopIf()
    } catch {
      /* chunk not loaded */
    }
    if (seen || stopped) standStill(run.bot)
  }, 250)
  try {
    // a cell it cannot reach, or a path something else stopped, is skipped; the budget and the stall check bound it
    await goto(run, g, 'the next place to look').catch(() => run.check())
  } finally {
    clearInterval(poll)
    // one line per walk (debug): where to, how long and how far it went, and how it ended
    log.debug('walk', {
      to: goal instanceof Vec3 ? `(${goal.x}, ${goal.y}, ${goal.z})` : `(${goal[0]}, ${goal[1]})`,
      ms: Date.now() - startedMs,
      moved: Math.round(run.bot.entity.position.distanceTo(from)),
      ended: seen ? 'seen' : stopped ? 'stopIf' : 'walked',
    })
  }
  return seen ?? look()
}

/** Is the centre of a search cell outside the biomes `within` (false while its chunk is not loaded)? */
function outside(run: Run, within: string[], x: number, z: number): boolean {
  const b = biomeAt(run.bot, new Vec3(x, run.bot.entity.position.y, z))
  return b !== 'unknown' && !within.includes(b)
}

/**
 * The hops of a square spiral out from `x`/`z`, `hop` blocks each (east, south, west, north with arms 1, 1, 2, 2, 3 …
 * hops long): every hop goes on from the last, where a breadth-first order over cells walks back across the start
 * between most of them. The arms lie `hop` apart and the walk passes within `hop / √2` of every point it has wound
 * round (the corners are the farthest), so land seen that far from the walk leaves no gap.
 */
export function* spiral(x: number, z: number, hop: number): Generator<[number, number]> {
  let px = x
  let pz = z
  for (let arm = 0; ; arm++) {
    const [dx, dz] = COMPASS[arm % 4]!
    for (let i = 0; i < Math.floor(arm / 2) + 1; i++) {
      px += dx * hop
      pz += dz * hop
      yield [px, pz]
    }
  }
}

/** Spiral hops for a biome search: land is seen `sight` blocks around, so arms this far apart leave no gap. */
const biomeHop = (sight: number): number => Math.floor(sight * Math.SQRT2)

/** A biome search's place in its spiral, kept per bot so that a search cut short (a fight) goes on where it was. */
interface BiomeWalk {
  names: string
  origin: [number, number]
  /** The spiral's hop, from the land in sight when the walk began (the server's view distance). */
  hop: number
  /** Hops finished (reached, or found unreachable); a hop cut short is walked again. */
  done: number
  tried: Set<string>
  /** Where the walk started and every hop the climate led to: a lead goes nowhere near them again. */
  led: Array<[number, number]>
}
const biomeWalks = new WeakMap<Run['bot'], BiomeWalk>()
/** Found: the next search for a biome starts a spiral of its own, from where it starts. */
function foundBiome(run: Run, at: Vec3): Vec3 {
  biomeWalks.delete(run.bot)
  return at
}

/**
 * A hop the climate leads to (biome-climate.ts): `hop` blocks along the heading whose land in sight is clearly nearer
 * the biome's climate than the ground here, never within half a hop of a place the walk has led to or started from;
 * null when the land gives no lead.
 */
function leadHop(run: Run, names: string[], walk: BiomeWalk): [number, number] | null {
  const p = run.bot.entity.position
  const point = (i: number): [number, number] => [
    Math.floor(p.x + Math.cos(HEADINGS[i]!) * walk.hop),
    Math.floor(p.z + Math.sin(HEADINGS[i]!) * walk.hop),
  ]
  const open = (i: number): boolean => {
    const [x, z] = point(i)
    return walk.led.every(([vx, vz]) => Math.hypot(vx - x, vz - z) > walk.hop / 2)
  }
  const { gaps, here } = sampleClimate(run.bot, names, landInSight(run.bot))
  const i = climateHeading(gaps, here, open)
  return i === null ? null : point(i)
}

/**
 * A biome: walk toward the land whose climate is nearest the biome's while the land in sight leads somewhere
 * (`leadHop`), else a square spiral out from where the lead ran out (or the first search started), looking across the
 * loaded land as it goes; a column of the biome in sight ends the hop, and the bot walks into it (a column it could
 * not reach is not walked at again). A later search for the same biome (after a fight ended this one) goes on along
 * the same walk instead of starting a new one. Bounded by the action's step and time budget.
 */
async function biomeSearch(run: Run, names: string[], object: string, look: () => Vec3 | null): Promise<Vec3> {
  const p = run.bot.entity.position
  let walk = biomeWalks.get(run.bot)
  if (walk?.names !== names.join(',')) {
    const hop = biomeHop(landInSight(run.bot))
    const origin: [number, number] = [Math.floor(p.x), Math.floor(p.z)]
    walk = { names: names.join(','), origin, hop, done: 0, tried: new Set(), led: [origin] }
    biomeWalks.set(run.bot, walk)
    log.debug('biome walk', { names: walk.names, hop })
  }
  const { tried } = walk
  const inSight = (): boolean => biomeInSight(run, names, tried) !== null
  let hops = spiral(...walk.origin, walk.hop)
  for (let i = 0; i < walk.done; i++) hops.next()
  for (;;) {
    for (let there = biomeInSight(run, names, tried); there; there = biomeInSight(run, names, tried)) {
      run.step()
      tried.add(columnKey(...there))
      const seen = await moveLooking(run, there, look)
      if (seen) return foundBiome(run, seen)
    }
    const lead = leadHop(run, names, walk)
    if (lead) {
      run.step()
      walk.led.push(lead)
      log.debug('climate lead', { to: lead })
      const seen = await moveLooking(run, lead, look, inSight)
      if (seen) return foundBiome(run, seen)
      // the spiral starts again from where the lead has brought the bot
      const q = run.bot.entity.position
      walk.origin = [Math.floor(q.x), Math.floor(q.z)]
      walk.done = 0
      hops = spiral(...walk.origin, walk.hop)
      continue
    }
    const hop = hops.next()
    if (hop.done) break
    run.step()
    const seen = await moveLooking(run, hop.value, look, inSight)
    if (seen) return foundBiome(run, seen)
    walk.done++
  }
  return fail('not_found', neverSaw(object))
}

/**
 * A creature that does not live in the biome it must be seen from (a cow from a desert: animals stand on grass) is
 * seen only across the biome's edge, so only cells this near another biome are searched.
 */
const EDGE_SIGHT = 24
const EDGE_STEP = 8

/** Does some column within EDGE_SIGHT of x/z lie outside the biomes `within`? */
function nearEdge(run: Run, within: string[], x: number, z: number): boolean {
  const y = run.bot.entity.position.y
  for (let dx = -EDGE_SIGHT; dx <= EDGE_SIGHT; dx += EDGE_STEP)
    for (let dz = -EDGE_SIGHT; dz <= EDGE_SIGHT; dz += EDGE_STEP) {
      const b = biomeAt(run.bot, new Vec3(x + dx, y, z + dz))
      if (b !== 'unknown' && !within.includes(b)) return true
    }
  return false
}

/** The names a target stands for (a block's variants, a creature's kinds). */
const namesOf = (target: Target): string[] =>
  target.kind === 'block' ? target.block.blockNames : target.kind === 'entity' ? target.names : []

/** Does the knowledge place none of these creatures in the biomes `within` (false when it does not say where they live)? */
function livesElsewhere(run: Run, target: Target, within: string[]): boolean {
  if (target.kind !== 'entity') return false
  const kb = createKnowledge(run.bot.version)
  return target.names.every((n) => {
    const habitat = kb.biomesOf(n)
    return habitat !== null && !habitat.some((b) => within.includes(b))
  })
}

/** The biomes the knowledge finds the target in (sand: desert, beach), or null when some of its names lie anywhere. */
function homeOf(run: Run, target: Target): string[] | null {
  const kb = createKnowledge(run.bot.version)
  const all = namesOf(target).map((n) => kb.biomesOf(n))
  return all.length > 0 && all.every((b) => b !== null) ? [...new Set(all.flat())] : null
}

/** Biome categories of the game data where the water is the land (a lake or a shore is only part of others). */
const WATER_CATEGORIES = new Set(['ocean', 'river'])

/**
 * Does the target live on dry land of its `home` biomes: not a creature of the water (squid, cod: the knowledge's
 * `where`) nor a block of an ocean or a river (kelp, clay)? Only then does a walk toward its home skip the lakes.
 */
export function livesOnLand(run: Run, target: Target, home: string[]): boolean {
  const kb = createKnowledge(run.bot.version)
  if (target.kind === 'entity') return target.names.every((n) => kb.data.world.mobs[n]?.where !== 'water')
  // the game data's own table: the server's registry codec (1.20.2+) replaces the bot's and has no categories
  const category = (b: string): string | undefined =>
    (kb.data.mc.biomesByName[b] as { category?: string } | undefined)?.category
  return !home.some((b) => WATER_CATEGORIES.has(category(b) ?? '') || b.endsWith('river'))
}

/**
 * The cells a surface search walks to, in order: cell sx/sz, then a square spiral of cells around it, ring by ring,
 * leaving out those `skip` says (asked as each is reached: biomes load as the bot walks); it ends after a ring with no
 * cell left to walk. Cells `passed` says (looked over from afar already) are left out too but count as walked: the
 * spiral goes on past them.
 */
export function* searchCells(
  sx: number,
  sz: number,
  skip: (cx: number, cz: number) => boolean,
  passed: (cx: number, cz: number) => boolean = () => false,
): Generator<[number, number]> {
  yield [sx, sz]
  let ring = 1
  let walked = false
  for (const [cx, cz] of spiral(sx, sz, 1)) {
    const r = Math.max(Math.abs(cx - sx), Math.abs(cz - sz))
    if (r > ring) {
      if (!walked) return
      ring = r
      walked = false
    }
    if (skip(cx, cz)) continue
    walked = true
    if (!passed(cx, cz)) yield [cx, cz]
  }
}

/**
 * The surface search: CELL-block cells along a square spiral out from the bot's cell (every cell next to the last;
 * the breadth-first order used before walked back across the start between most cells — bench mp5 glass seed 2
 * zig-zagged 200 s within 60 blocks of its start and never reached the lake shore 67 blocks off). With `within`,
 * cells whose centre lies in another biome are not walked to (the start cell always is), nor, for a creature that
 * lives elsewhere, cells away from the biome's edge; a ring with no cell left to walk ends the search. Without it,
 * a target the knowledge finds in some biomes only (sand, cactus) is walked toward as soon as one of them is in
 * sight, and the spiral starts again from there. A cell that lies toward a hostile mob is passed over (threats.ts),
 * so a search at night walks away from the zombies that follow it. A block searched for `alone` (not with another
 * thing beside it) and not `within` biomes is also looked for across the open land (far-look.ts). A biome is searched
 * for along a wider spiral (biomeSearch).
 */
export async function surface(
  run: Run,
  target: Target,
  object: string,
  look: () => Vec3 | null,
  within: string[] | null,
  alone = true,
): Promise<Vec3> {
  if (target.kind === 'biome') return biomeSearch(run, target.names, object, look)
  const edgeOnly = within !== null && livesElsewhere(run, target, within)
  const home = within === null ? homeOf(run, target) : null
  const tried = new Set<string>()
  const dry = home !== null && livesOnLand(run, target, home)
  const homeInSight = (): [number, number] | null =>
    home && !standsIn(run, home) ? biomeInSight(run, home, tried, dry) : null
  // blocks seen across the open land lead the walk, and cells looked over from afar are passed (far-look.ts); not in
  // a search `within` (cells bound it) nor one for the target with something beside it (`alone` false: a pig by the
  // grass is seen within the near sight only, so land looked over for grass is not looked over for it)
  const far = target.kind === 'block' && within === null && alone ? new FarLook(run, target.block.blockIds, CELL) : null
  const leadInSight = (): [number, number] | null => far?.lead() ?? homeInSight()
  const leads = far !== null || home !== null
  for (;;) {
    const p = run.bot.entity.position
    const [sx, sz] = gridCell(p, CELL)
    const centre = (cx: number, cz: number): [number, number] => gridCentre(cx, cz, CELL)
    const skip = (cx: number, cz: number): boolean =>
      within !== null &&
      (outside(run, within, ...centre(cx, cz)) || (edgeOnly && !nearEdge(run, within, ...centre(cx, cz))))
    let diverted = false
    // cells that lie toward a hostile mob are passed over for the next ones (threats.ts); after a ring's worth of
    // them in a row the bot walks to the one with the most room, and the spiral starts again from there
    const deferred: Array<[number, number]> = []
    far?.lookOver()
    // past cells looked over from afar, the next cell can lie across the start: once a cell beyond the start cell has
    // been walked, such a jump starts the spiral again from where the bot is, so the nearest land not seen yet comes
    // first (bench:diamond seed 35 crossed its start four times, 80–100 blocks each)
    let jumpFree = true
    for (const [cx, cz] of searchCells(sx, sz, skip, (cx, cz) => far?.passed(cx, cz) ?? false)) {
      if (far && !jumpFree && cellsApart(run, cx, cz) > 1) {
        diverted = true
        break
      }
      const there = leadInSight()
      if (there) {
        run.step()
        tried.add(columnKey(...there))
        far?.walkedTo(there)
        const seen = await moveLooking(run, there, look)
        if (seen) return seen
        diverted = true
        break
      }
      const c = centre(cx, cz)
      if (threatAt(run.bot, ...c) > 0) {
        deferred.push(c)
        // a ring's worth: past cells looked over from afar, the first cells walked can lie in an outer ring
        if (deferred.length < RING_CELLS * Math.max(1, Math.abs(cx - sx), Math.abs(cz - sz))) continue
        break
      }
      deferred.length = 0
      run.step()
      const seen = await moveLooking(run, c, look, leads ? () => leadInSight() !== null : undefined)
      if (seen) return seen
      far?.lookOver()
      if (cx !== sx || cz !== sz) jumpFree = false
    }
    if (diverted) continue
    if (deferred.length === 0) return fail('not_found', neverSaw(object))
    const seen = await walkRoomiest(run, deferred, look)
    if (seen) return seen
  }
}

/** How many cells apart the bot's cell and cell cx/cz lie (the larger of the two axes). */
function cellsApart(run: Run, cx: number, cz: number): number {
  const p = run.bot.entity.position
  const [px, pz] = gridCell(p, CELL)
  return Math.max(Math.abs(px - cx), Math.abs(pz - cz))
}

/** Cells in the first ring round a search's start; a ring's worth passed over in a row for hostiles ends the wait. */
const RING_CELLS = 8

/** Every cell left lay toward hostile mobs: walk to the one with the most room from them (the spiral restarts there). */
async function walkRoomiest(run: Run, cells: Array<[number, number]>, look: () => Vec3 | null): Promise<Vec3 | null> {
  const room = (c: [number, number]): number => roomAt(run.bot, ...c)
  const roomiest = cells.sort((a, b) => room(b) - room(a))[0]!
  log.debug('away from hostiles', { to: roomiest, room: Math.round(room(roomiest)) })
  run.step()
  return moveLooking(run, roomiest, look)
}
