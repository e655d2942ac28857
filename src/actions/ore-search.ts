/**
 * Searching for a block underground the way a player branch-mines: the level comes from the block's real y-distribution
 * in the knowledge (data/knowledge/world.json `yMin`/`yMax`/`bestY`, merged over the block and its deepslate/stone
 * variants), kept inside the rock (some blocks under the surface) and above the bedrock floor. The bot digs down to it
 * (the `dig_down` action, with its fluid and drop checks, moving the shaft around caves; when it must stop, the
 * pathfinder finds another way down: ore-descent.ts), then digs 1×2 corridors in rows SPACING blocks apart, joined end
 * to end (no cell walked twice), and from every STRIDE-th cell pokes 1×1 holes POKE_DEPTH deep to both sides at eye
 * level and straight up: the eyes stand inside each hole's cross-section, so every wall of it is in sight, and a poke
 * shows four new blocks per block dug against a corridor's three, with no walk (`npm run bench:search` compares the
 * patterns by the seconds to the first sighting). A cave in sight on the level comes first (cave-walk.ts): the bot
 * walks to its farthest open floor and looks at the walls before it digs on. After every block it looks (no x-ray: only
 * blocks a ray from the eyes reaches count), never opens a block beside lava or water nor under a falling block, and
 * turns onto the freshest rock when a corridor is blocked or leads only along cells already walked. Cells dug and caves
 * walked are remembered per bot, so a re-plan does not dig the same side branch or walk the same cave again.
 */
import type { Bot } from 'mineflayer'
import { Vec3 } from 'vec3'
import { digLevel } from '../knowledge/index.js'
import type { YBand } from './ore-band.js'
import { logger } from '../util/log.js'
import { makeRoom } from './junk.js'
import { surfaceOf } from './memory.js'
import type { Run } from './types.js'
import { isUnderground } from '../perception/vision.js'
import { CAVE_WALK_MS, caveSpot, caveWalk } from './cave-walk.js'
import { freshRow, ROW, SPACING, STALE_ROW, staleAhead, turnToFresh } from './ore-rows.js'
import { afterDescent, descend, LEVEL_SLACK, SHAFT_STEP, TO_LEVEL_MS, travelTo } from './ore-descent.js'
import { corridor, dugBy, type Look, pokeAround } from './tunnel.js'

const log = logger('ore-search')

/** Blocks of rock kept between the search level and the surface (under the dirt, out of the daylight). */
export const COVER = 10
/** Blocks above the world's bottom the corridor keeps (bedrock reaches up to 4 blocks). */
const FLOOR_MARGIN = 5
/** Cave walks per search before it goes back to digging (each walk ends where the next cave floor is chosen). */
const CAVE_WALKS = 8
/**
 * Cave walks that end short of their spot before a search stops walking caves: the caves in sight there are cut off
 * (lava between, a drop), and each such walk spends its whole CAVE_WALK_MS going nowhere.
 */
const CAVE_MISSES = 2

/**
 * The y-level to branch-mine at: the best level (kept above the lava-filled caves: the knowledge's digLevel, the
 * level the planner's dig_down goes to) clamped into the band, at least COVER blocks under the surface (coal's best
 * level 96 lies above most land) and above the bedrock floor. When the band lies entirely above the covered rock, the
 * highest covered level.
 */
export function searchLevel(band: YBand, surfaceY: number, minY: number): number {
  const floor = minY + FLOOR_MARGIN
  const ceiling = surfaceY - COVER
  let y = band.bestY === null ? ceiling : digLevel(band.bestY, band.yMax, band.lavaLevel ?? null)
  if (band.yMax !== null) y = Math.min(y, band.yMax)
  if (band.yMin !== null) y = Math.max(y, band.yMin)
  return Math.max(floor, Math.min(y, ceiling))
}

/** Searches started per bot: the heading turns with each. */
const searches = new WeakMap<Bot, number>()

/**
 * Branch-mine for the target from where the bot stands: down to the level, then rows of ROW cells across a heading,
 * SPACING blocks apart and joined end to end (a serpentine: no cell walked twice), turning the heading when it is
 * blocked; junk beyond a stack is dropped after each row (`keep`: what the task wants, never dropped). Returns where the target was seen, or null when every direction is
 * blocked (the step and time budgets stop it otherwise).
 */
export async function branchMine(
  run: Run,
  band: YBand | null,
  look: Look,
  keep: ReadonlySet<string> = new Set(),
): Promise<Vec3 | null> {
  const { bot } = run
  const game = bot.game as typeof bot.game & { minY?: number }
  const feet = (): Vec3 => bot.entity.position.floored()
  const surfaceY = !isUnderground(bot) ? feet().y : (surfaceOf(bot)?.y ?? feet().y + COVER)
  const floor = (game.minY ?? -64) + FLOOR_MARGIN
  let level = band ? searchLevel(band, surfaceY, game.minY ?? -64) : feet().y
  const dirs = [new Vec3(1, 0, 0), new Vec3(0, 0, 1), new Vec3(-1, 0, 0), new Vec3(0, 0, -1)]
  // each search from here heads another way: one stopped by a reflex (lava ahead) does not walk back into it
  const calls = (searches.get(bot) ?? 0) + 1
  searches.set(bot, calls)
  const d0 = (Math.abs(Math.floor(bot.entity.position.x * 7 + bot.entity.position.z * 13)) + calls) % 4
  let { d, rowDir } = turnToFresh(dugBy(bot), feet(), dirs, [d0, d0 + 1, d0 + 3, d0 + 2])
  log.debug('search', { level, at: feet().toString(), heading: dirs[d % 4]!.toString() })
  // down among the lava-filled caves (a fall, a path down that went too far): back up to the level first, where the
  // rock is dry — every corridor down there is blocked by lava, and the search would end at once (bench p7 piston
  // seed 2: four searches from y -57 ended in 200 ms each)
  const lava = band?.lavaLevel ?? null
  if (lava !== null && feet().y <= lava && level > feet().y) {
    const seen = await travelTo(run, level, look, TO_LEVEL_MS)
    if (seen) return seen
  }
  /** Headings found blocked since the last corridor that got somewhere: a turn tries the others first. */
  const blocked = new Set<number>()
  let blockedInARow = 0
  let moved = 0
  let walks = 0
  let misses = 0
  let shaftMoves = 0
  let descents = 0
  let poked = false
  while (blockedInARow < 4 || moved < 2) {
    if (blockedInARow >= 4) {
      // boxed in on this level (fluids, drops all round): a few blocks down, or up when bedrock is near, once or twice
      moved++
      blockedInARow = 0
      const seen =
        feet().y - 3 >= floor
          ? await descend(run, feet().y - 3, look)
          : await travelTo(run, feet().y + 4, look, CAVE_WALK_MS)
      if (seen) return seen
    }
    if (feet().y > level + LEVEL_SLACK) {
      const before = feet().y
      const seen = await descend(run, level, look)
      if (seen) return seen
      const next = afterDescent(before, feet().y, level, { shaftMoves, descents })
      descents = next === 'descend' ? descents + 1 : 0
      if (next === 'descend') continue
      if (next === 'move shaft') {
        shaftMoves++
        const m = await corridor(run, dirs[d % 4]!, SHAFT_STEP, look, false)
        if (m.seen) return m.seen
        if (m.steps === 0) d++
        continue
      }
      if (next === 'search here') level = feet().y
    }
    const spot = walks < CAVE_WALKS && misses < CAVE_MISSES ? caveSpot(bot, level, dugBy(bot)) : null
    if (spot) {
      walks++
      const walk = await caveWalk(run, spot, look)
      if (walk.seen) return walk.seen
      if (!walk.reached) misses++
      continue
    }
    const main = dirs[d % 4]!
    // the first look around on the level costs no walk: pokes from where the bot stands (the foot of its shaft)
    if (!poked) {
      poked = true
      // on the level now: head for the freshest rock from here (a search after another one's rows)
      ;({ d, rowDir } = turnToFresh(dugBy(bot), feet(), dirs, [d, d + 1, d + 3, d + 2]))
      const seen = await pokeAround(run, rowDir, look, true)
      if (seen) return seen
    }
    // a row that would run beside old rows — the leg along the heading cut short by a cave (the rows would lie a few
    // blocks apart), a cave walk that left the bot on an old row, a search after another's rows — turns to the
    // freshest way first (bench d15 seed 7: 150 s of rows 1–4 blocks beside its own, their pokes finding dug rock)
    if (staleAhead(dugBy(bot), feet(), rowDir) > STALE_ROW) ({ d, rowDir } = freshRow(dugBy(bot), feet(), dirs))
    // a row across the heading, then SPACING cells along it, and the next row back the other way: every cell dug
    // is new rock (no walk back to a junction), and the rows lie SPACING apart
    const row = await corridor(run, rowDir, ROW, look)
    if (row.seen) return row.seen
    const m = await corridor(run, main, SPACING, look)
    if (m.seen) return m.seen
    // a leg along old cells only is no way on either: between two open cells with every cell beyond refused, it
    // walked to and fro for good (bench d27 seed 7: 157 s between two cells at y -52, 657 one-cell corridors)
    if (m.fresh === 0) {
      blockedInARow++
      blocked.add(d % 4)
      const open = [d + 1, d + 3, d + 2].filter((i) => !blocked.has(i % 4))
      ;({ d, rowDir } = turnToFresh(dugBy(bot), feet(), dirs, open.length ? open : [d + 1]))
      continue
    }
    blockedInARow = 0
    blocked.clear()
    rowDir = rowDir.scaled(-1)
    // the rock dug piles up: keep one stack of building blocks and drop (or store) the rest before the bag fills
    await makeRoom(run, keep)
  }
  return null
}
