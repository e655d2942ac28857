/**
 * The search's tunnels, shared by the ore search (src/actions/ore-search.ts) and the shaft's way round a cave
 * (src/actions/dig_down.ts): a straight 1×2 corridor dug STRIDE cells ahead of each walk (never into a cell with
 * fluid beside it or no floor under it; falling gravel dug again), the look after every block, the 1×1 pokes from a
 * stand, and the cells each bot has dug, so a search knows the rock it has already looked at.
 */
import type { Bot } from 'mineflayer'
import { Vec3 } from 'vec3'
import { logger } from '../util/log.js'
import { sleep } from '../util/async.js'
import type { Run } from './types.js'
import { digWith } from './retool.js'
import { falls, fluidNear, goals, gotoWithin } from './world.js'
import { POKE_DEPTH, STRIDE } from './ore-rows.js'

const log = logger('ore-search')

/** What a search sees after a block is dug or a step taken: the target's position, or null. */
export type Look = () => Vec3 | null

/** Longest walk to a corridor's face, STRIDE cells of dug tunnel (about 0.6 s when nothing is in the way). */
const CORRIDOR_WALK_MS = 8000
const dugCells = new WeakMap<Bot, Set<string>>()
export function dugBy(bot: Bot): Set<string> {
  let s = dugCells.get(bot)
  if (!s) {
    s = new Set()
    dugCells.set(bot, s)
  }
  return s
}

/** Open the 1×2 cell at `next` (head first; falling gravel is dug again); false when it must not or cannot be. */
async function openCell(run: Run, next: Vec3, look: Look): Promise<Vec3 | null | false> {
  const { bot } = run
  if (fluidNear(bot, next) || fluidNear(bot, next.offset(0, 1, 0))) return false
  if (bot.blockAt(next.offset(0, -1, 0))?.boundingBox !== 'block') return false
  for (const q of [next.offset(0, 1, 0), next]) {
    for (let tries = 0; tries < 4; tries++) {
      const b = bot.blockAt(q)
      if (b?.boundingBox !== 'block') break
      if (b.diggable === false || b.hardness === null || b.name === 'bedrock') return false
      await digWith(run, b, null, true)
      const seen = look()
      if (seen) return seen
    }
    if (bot.blockAt(q)?.boundingBox === 'block') return false
  }
  return null
}

const UP = new Vec3(0, 1, 0)

/**
 * Dig one block of a poke hole: 'stop' when the poke ends here (air: a cave opened, look at it; fluid beside it; a
 * falling block over an upward poke; bedrock), else what the look saw after the dig.
 */
async function pokeBlock(run: Run, p: Vec3, step: Vec3, look: Look): Promise<Vec3 | null | 'stop'> {
  const { bot } = run
  const b = bot.blockAt(p)
  if (b?.boundingBox !== 'block' || b.diggable === false || b.hardness === null || b.name === 'bedrock') return 'stop'
  if (fluidNear(bot, p)) return 'stop'
  if (step.y > 0 && (falls(b.name) || falls(bot.blockAt(p.plus(UP))?.name ?? ''))) return 'stop'
  await digWith(run, b, null, true)
  return look()
}

/**
 * From the cell the bot stands in: 1×1 holes at eye level to both sides of `dir` and one straight up; with `ahead`,
 * also along `dir` and back (the foot of a shaft, where no corridor has looked yet: bench d12 and d13 seed 2 stood 3
 * blocks from iron at the foot of the same shaft; one run's pokes went its way and found it at once, the other's
 * went across and its search took 131 s).
 */
export async function pokeAround(run: Run, dir: Vec3, look: Look, ahead = false): Promise<Vec3 | null> {
  const head = run.bot.entity.position.floored().plus(UP)
  const across = new Vec3(-dir.z, 0, dir.x)
  const t0 = Date.now()
  let blocks = 0
  const steps = ahead ? [across, across.scaled(-1), dir, dir.scaled(-1), UP] : [across, across.scaled(-1), UP]
  for (const step of steps) {
    for (let k = 1; k <= POKE_DEPTH; k++) {
      const r = await pokeBlock(run, head.plus(step.scaled(k)), step, look)
      if (r === 'stop') break
      blocks++
      if (r) return r
    }
  }
  log.debug('pokes', { blocks, ms: Date.now() - t0 })
  return null
}

/** How far a corridor got: the target if it came in sight, cells walked, and how many of those it walked first. */
export interface Leg {
  seen: Vec3 | null
  steps: number
  /** Cells walked that no corridor had walked before: only these look at new rock. */
  fresh: number
}

/**
 * Dig and walk a straight corridor of up to `length` cells, poking holes from every stand (`pokes`); stops at the
 * first sight of the target.
 */
export async function corridor(run: Run, dir: Vec3, length: number, look: Look, pokes = true): Promise<Leg> {
  const { bot } = run
  const dug = dugBy(bot)
  let cur = bot.entity.position.floored()
  let steps = 0
  let fresh = 0
  while (steps < length) {
    const t0 = Date.now()
    // open up to STRIDE cells ahead (all within reach) before walking: one walk per stride
    let open = 0
    for (let k = 1; k <= Math.min(STRIDE, length - steps); k++) {
      const opened = await openCell(run, cur.plus(dir.scaled(k)), look)
      if (opened) return { seen: opened, steps, fresh }
      if (opened === false) break
      open = k
    }
    if (open === 0) break
    const next = cur.plus(dir.scaled(open))
    run.step()
    const t1 = Date.now()
    // a walk of a few dug cells that takes longer is not going to happen: the corridor ends and the search turns
    // (bench d25 seed 7: at a face that opened onto a cave over a lava lake, the unbounded walk hung until the explore
    // stalled, six explores in a row)
    await gotoWithin(run, new goals.GoalBlock(next.x, next.y, next.z), 'the tunnel face', CORRIDOR_WALK_MS)
    const at = bot.entity.position.floored()
    log.debug('corridor', { cells: open, digMs: t1 - t0, walkMs: Date.now() - t1, at: at.toString() })
    const before = dug.size
    for (let k = 1; k <= open; k++) dug.add(cur.plus(dir.scaled(k)).toString())
    if (!at.equals(next)) break
    cur = next
    steps += open
    fresh += dug.size - before
    const seen = look() ?? (pokes ? await pokeAround(run, dir, look) : null)
    if (seen) return { seen, steps, fresh }
    await sleep(0, run.signal).catch(() => run.check())
  }
  return { seen: null, steps, fresh }
}
