/**
 * `dig_down(ylevel, tool, watch)`: dig straight down to a y-level, with safety checks before every block (never open a
 * block that has lava or water beside or under it, never drop further than a safe fall, stop at unbreakable blocks),
 * and remember where it left the surface so `go_up` can return. When the shaft runs into a cave's deep drop or a fluid,
 * it digs a staircase down beside it through dry rock (src/actions/stairs.ts) until it can dig straight on; where no
 * side has two safe steps, it moves the shaft sideways (its own 1×2 tunnel, src/actions/tunnel.ts, to the nearest
 * column with solid rock and no fluid below — within 6 blocks, else within 16 — as a player steps around a cave) up
 * to SIDESTEPS times; where the tunnel cannot go on or no column will do, it lets the
 * pathfinder find a way down (a staircase, safe drops; once the guard has turned a walk of the run back, none along
 * a deadly drop's rim: `clearAfterTurnBack`) and digs on from there, before it gives up. With `watch` (the
 * block the dig is for) it stops as soon as one is in sight within explore's reach, as in a cave the shaft crosses.
 * Fails with `unsafe`, `no_path` (bedrock) or `missing_tool`.
 */
import type { Action } from '../schemas/action.js'
import { Vec3 } from 'vec3'
import { waitFor } from '../util/async.js'
import { BESIDE } from '../util/vec.js'
import { rememberSurface, surfaceOf } from './memory.js'
import { resolveItem, resolveTarget } from './names.js'
import { searchIds } from './ore-band.js'
import { reachableSightings } from './sighting.js'
import { reflexesOf } from './reflexes/index.js'
import { fail, type Run } from './types.js'
import { isUnderground } from '../perception/vision.js'
import { stairsDown } from './stairs.js'
import { clearAfterTurnBack, goals, goto, gotoWithin, noItemSaid } from './world.js'
import { digWith } from './retool.js'
import { corridor } from './tunnel.js'
import { noToolMessage } from '../rules/index.js'
import { logger } from '../util/log.js'
import { CENTRE_SLACK } from '../bot/body.js'
import { clearOfDanger, MAX_SAFE_DROP } from '../bot/lava-margin.js'

const log = logger('dig_down')

const FLUIDS = new Set(['lava', 'water', 'flowing_lava', 'flowing_water'])
/** Times one dig_down may move its shaft sideways around a cave or a fluid before it stops. */
const SIDESTEPS = 6
/**
 * How far sideways (blocks, each axis) a new column is looked for — the near square first, the far one when no
 * column near will do — and how deep it must be solid and dry. A shaft into a wide cave found no column within 6 in
 * both runs of a debug run (seeds 1 and 2, docs/benchmarks.md at d74: a cavern 20 blocks deep under y 30, a cave
 * floored with lava under y -43); the pathfinder's ways down there cost 30–45 s, and the nearest good column was
 * 8–17 blocks off.
 */
const SIDESTEP_REACH = 6
const SIDESTEP_FAR_REACH = 16
const SIDESTEP_DEPTH = 6
/**
 * What a level the new column is short of solid rock (down to the shaft's target) weighs against blocks of tunnel to a
 * farther column: the shaft meets the cave again that much sooner, and each move costs 8–15 s (bench d24 and d25 seed
 * 5: the nearest columns, solid for 6 levels, ran into the same cave four times in 20 levels, 60 s).
 */
const SHORT_COLUMN_COST = 0.8
/**
 * Time to tunnel over to a new column, for all the columns tried in one move: SIDESTEP_MS, and SIDESTEP_BLOCK_MS
 * more for each block the nearest column lies beyond SIDESTEP_REACH (a tunnel two blocks high is 1.5 s a block of
 * deepslate with an iron pickaxe, 3 s with a stone one).
 */
const SIDESTEP_MS = 15_000
const SIDESTEP_BLOCK_MS = 2_500
/** When no column nearby will do (a wide cave): times the pathfinder may take the bot down, and for how long. */
const PATHS_DOWN = 6
const PATH_DOWN_MS = 20_000
/**
 * Levels one path down goes at most (a goal at the target level, under the cave's floor, asks the pathfinder to weigh
 * the whole cave). bench d12 seed 5 spent two 20 s walks getting 3 blocks lower each, 75 s at one cave; with this
 * bound the walks there still got 3–4 levels lower in 20 s (d13, d14): the pathfinder digs a long staircase beside
 * the cave, which this does not change.
 */
const PATH_DOWN_STEP = 12
/**
 * A path down that got lower and then has not gone lower for this long ends there, and the shaft digs on (0.75 s a
 * level with an iron pickaxe). In bench p8 nearly every path down used its whole PATH_DOWN_MS for 1–3 levels: the
 * pathfinder got a few blocks lower, then walked the cave looking for more.
 */
const PATH_DOWN_STALL_MS = 4000

/**
 * How many blocks under `top` are solid and dry (nothing fluid beside them either), counted down to `max`; -1 when
 * fluid is in the cell itself or the one above it.
 */
function solidDepth(run: Run, top: Vec3, max: number): number {
  const { bot } = run
  for (let dy = 0; dy <= 1; dy++) if (FLUIDS.has(bot.blockAt(top.offset(0, dy, 0))?.name ?? 'air')) return -1
  for (let dy = 1; dy <= max; dy++) {
    const p = top.offset(0, -dy, 0)
    const b = bot.blockAt(p)
    if (b?.boundingBox !== 'block' || b.diggable === false || b.name === 'bedrock') return dy - 1
    for (const side of BESIDE) if (FLUIDS.has(bot.blockAt(p.plus(side))?.name ?? '')) return dy - 1
  }
  return max
}

/** Cells of tunnel between two cells at one level, along one axis and then the other. */
const manhattan = (a: Vec3, b: Vec3): number => Math.abs(a.x - b.x) + Math.abs(a.z - b.z)

/** Is the column under `top` solid and dry for `depth` blocks (nothing fluid beside it either)? */
function solidColumn(run: Run, top: Vec3, depth: number): boolean {
  return solidDepth(run, top, depth) >= depth
}

/**
 * Tunnel at this level to `spot`: a straight 1×2 corridor along the longer axis, then one along the other (the ore
 * search's own tunnel, src/actions/tunnel.ts), stopping where a corridor cannot go on (no floor, fluid beside). The
 * pathfinder's walk to the same spot dug about 1.8 s a block (that debug run's seed 1: 27 s for 15 blocks of stone with an iron
 * pickaxe), twice the dig itself.
 */
async function tunnelTo(run: Run, spot: Vec3): Promise<void> {
  const feet = run.bot.entity.position.floored()
  const d = spot.minus(feet)
  const x = { dir: new Vec3(Math.sign(d.x), 0, 0), n: Math.abs(d.x) }
  const z = { dir: new Vec3(0, 0, Math.sign(d.z)), n: Math.abs(d.z) }
  for (const leg of x.n >= z.n ? [x, z] : [z, x]) {
    if (leg.n === 0) continue
    const got = await corridor(run, leg.dir, leg.n, () => null, false)
    if (got.steps < leg.n) return
  }
}

/**
 * Move the shaft: tunnel (`tunnelTo`, then the pathfinder from wherever that stopped) to a column at this level whose rock below is solid and dry for
 * SIDESTEP_DEPTH blocks at least — the nearest one, weighed by how far short of the target level its solid rock ends
 * (SHORT_COLUMN_COST) — with every step the guard would turn back ruled out (lava near, a deadly drop beside); true
 * when the bot now stands on such a column.
 */
async function sidestep(run: Run, ylevel: number): Promise<boolean> {
  const { bot } = run
  const feet = bot.entity.position.floored()
  const needed = Math.max(1, feet.y - ylevel)
  const depth = Math.min(SIDESTEP_DEPTH, needed)
  const columns = (reach: number, inside: number): Array<{ p: Vec3; score: number }> => {
    const out: Array<{ p: Vec3; score: number }> = []
    for (let dx = -reach; dx <= reach; dx++)
      for (let dz = -reach; dz <= reach; dz++) {
        if (Math.max(Math.abs(dx), Math.abs(dz)) <= inside) continue
        const p = feet.offset(dx, 0, dz)
        const solid = solidDepth(run, p, needed)
        // weighed by the cells of tunnel to it (`tunnelTo` goes along one axis, then the other)
        if (solid >= depth) out.push({ p, score: manhattan(p, feet) + SHORT_COLUMN_COST * (needed - solid) })
      }
    return out
  }
  const near = columns(SIDESTEP_REACH, 0)
  const spots = near.length > 0 ? near : columns(SIDESTEP_FAR_REACH, SIDESTEP_REACH)
  // the nearest column that stays solid the whole way, unless a much nearer one nearly does
  spots.sort((a, b) => a.score - b.score)
  // one time limit for all the tries: spots that close share what stops the walk (bench seed 5 spent 50 s here)
  const beyond = Math.max(0, (spots[0] ? manhattan(spots[0].p, feet) : 0) - SIDESTEP_REACH)
  const deadline = Date.now() + SIDESTEP_MS + beyond * SIDESTEP_BLOCK_MS
  for (const { p: spot } of spots.slice(0, 3)) {
    const left = deadline - Date.now()
    if (left <= 0) break
    run.step()
    // through the rock, never along the cave's rim: the guard turns such a walk back at the edge (bench p7 piston seed 2)
    await clearOfDanger(bot, async () => {
      await tunnelTo(run, spot)
      if (!bot.entity.position.floored().equals(spot))
        await gotoWithin(
          run,
          new goals.GoalBlock(spot.x, spot.y, spot.z),
          'the side of the cave',
          deadline - Date.now(),
        )
    })
    const at = bot.entity.position.floored()
    log.debug('sidestep', {
      from: feet.toString(),
      spot: spot.toString(),
      at: at.toString(),
      msLeft: deadline - Date.now(),
    })
    // a walk that ended a level lower, short of its spot (the pathfinder stepped down on the way: 7 of 34 moves in
    // bench d19, d20 and d24), is as good a place to dig on from when the rock under it is solid and dry
    if (at.y <= spot.y && solidColumn(run, at, depth)) return true
  }
  return false
}

/**
 * Let the pathfinder take the bot toward `ylevel`, at most PATH_DOWN_STEP levels (a staircase, safe drops into the
 * cave), for PATH_DOWN_MS or until it stalls (PATH_DOWN_STALL_MS); true when it got at least a block lower, so the
 * shaft can go on from there.
 */
async function pathDown(run: Run, ylevel: number): Promise<boolean> {
  const { bot } = run
  const before = bot.entity.position.y
  const to = Math.max(ylevel, Math.floor(before) - PATH_DOWN_STEP)
  run.step()
  const t0 = Date.now()
  let lowest = before
  let lowestAt = t0
  const stalled = (): boolean => {
    const y = bot.entity.position.y
    if (y < lowest - 0.5) {
      lowest = y
      lowestAt = Date.now()
    }
    return lowest < before - 1 && Date.now() - lowestAt > PATH_DOWN_STALL_MS
  }
  await clearAfterTurnBack(run, () => gotoWithin(run, new goals.GoalY(to), `y ${to}`, PATH_DOWN_MS, stalled))
  log.debug('path down', { from: before, to: bot.entity.position.y, ms: Date.now() - t0 })
  return bot.entity.position.y < before - 1
}

/** What makes the next block down unsafe to open (a fluid under or beside it, lava or a deep drop below), or null. */
function shaftDanger(run: Run, feet: Vec3, maxDrop: number): string | null {
  const { bot } = run
  const below = bot.blockAt(feet.offset(0, -1, 0))
  if (below && FLUIDS.has(below.name)) return `${below.name} under me`
  for (const side of BESIDE) {
    const n = bot.blockAt(feet.offset(side.x, -1, side.z))?.name ?? ''
    if (FLUIDS.has(n)) return `${n} right beside the hole`
  }
  let drop = 0
  for (let y = feet.y - 2; y > feet.y - 3 - maxDrop; y--) {
    const b = bot.blockAt(new Vec3(feet.x, y, feet.z))
    if (!b) break
    if (FLUIDS.has(b.name) && b.name.includes('lava')) return 'lava below'
    if (b.boundingBox === 'block' || b.name.includes('water')) break
    drop++
  }
  return drop > maxDrop ? 'a deep drop below' : null
}

/**
 * The look of a dig for a block (`watch`): the nearest one in sight that explore and mine would count (all its
 * variants, within their reach underground, sighting.ts), or null; a dig with nothing to watch never sees one. The
 * shaft crosses caves on its way down, and a block in a cave wall there is found without a search (bench d43 seed 1:
 * its shaft for iron stopped at a cave at y 31 with iron ore bare in its walls 12–14 blocks off, and then searched
 * 171 s at y 16).
 */
function watchFor(run: Run, watch: string | null): () => Vec3 | null {
  if (watch === null) return () => null
  const target = resolveTarget(run.bot, watch)
  if (target.kind !== 'block') return () => null
  const { ids } = searchIds(run.bot, target.block.blockNames)
  return () => reachableSightings(run.bot, ids, true, 1)[0]?.position ?? null
}

export async function digDown(run: Run, action: Extract<Action, { type: 'dig_down' }>): Promise<string> {
  const { bot } = run
  const tool = action.tool === null ? null : resolveItem(bot, action.tool).names[0]!
  if (tool && !bot.inventory.items().some((i) => i.name === tool))
    fail('missing_tool', noItemSaid(bot, tool, noToolMessage(tool, 'dig down')))
  const start = bot.entity.position.floored()
  if (start.y <= action.ylevel) return `I am already at y ${start.y}, at or below ${action.ylevel}.`
  if (!isUnderground(bot) || !surfaceOf(bot)) rememberSurface(bot, start)
  const maxDrop = reflexesOf(bot)?.options.maxSafeDrop ?? MAX_SAFE_DROP
  const centre = async (): Promise<void> => {
    const p = bot.entity.position
    const f = p.floored()
    // further off the middle than CENTRE_SLACK, the body hangs on the edge of the block beside the hole (suite G: a bot
    // 0.2–0.25 off dug the block under it and stayed up for 20 s)
    if (Math.abs(p.x - (f.x + 0.5)) > CENTRE_SLACK || Math.abs(p.z - (f.z + 0.5)) > CENTRE_SLACK)
      await goto(run, new goals.GoalBlock(f.x, f.y, f.z), 'the middle of my hole').catch(() => run.check())
  }
  run.progress.setTarget(() => bot.entity.position.y - action.ylevel)
  const sighted = watchFor(run, action.watch ?? null)
  const shaftSafe = (at: Vec3): boolean => shaftDanger(run, at, maxDrop) === null
  let stairs = 0
  let sidesteps = 0
  let pathsDown = 0
  while (Math.floor(bot.entity.position.y + 0.01) > action.ylevel) {
    run.check()
    const feet = bot.entity.position.floored()
    const seen = sighted()
    if (seen) {
      log.debug('watched', { at: seen.toString(), from: feet.toString() })
      return `I stopped digging at y ${feet.y}: I can see ${action.watch} at ${seen.x} ${seen.y} ${seen.z}.`
    }
    const below = bot.blockAt(feet.offset(0, -1, 0))
    if (!below) fail('error', 'The ground under me is not loaded.')
    if (
      below.boundingBox === 'block' &&
      (below.diggable === false || below.hardness === null || below.name === 'bedrock')
    )
      fail('no_path', `I reached ${below.name} at y ${below.position.y} and cannot dig deeper.`)
    const danger = shaftDanger(run, feet, maxDrop)
    if (danger) {
      log.debug('danger', { at: feet.toString(), danger, stairs, sidesteps, pathsDown })
      // a staircase always ends lower when it succeeds, so it needs no count of its own to end
      if (await stairsDown(run, action.ylevel, tool, shaftSafe)) {
        stairs++
        continue
      }
      if (sidesteps < SIDESTEPS && (await sidestep(run, action.ylevel))) {
        sidesteps++
        continue
      }
      if (pathsDown < PATHS_DOWN && (await pathDown(run, action.ylevel))) {
        pathsDown++
        continue
      }
      fail('unsafe', `I stopped digging at y ${feet.y} because there is ${danger}.`)
    }
    if (below.boundingBox === 'block') {
      await centre()
      await digWith(run, below, tool)
    } else run.step()
    await waitFor(
      () => bot.entity.onGround && bot.entity.position.y < feet.y - 0.5,
      4000,
      'falling into the hole',
      50,
      run.signal,
    ).catch(() => run.check())
  }
  const y = Math.floor(bot.entity.position.y + 0.01)
  return `I dug down to y ${y}${surfaceOf(bot) ? '; I remember where I left the surface' : ''}.`
}
