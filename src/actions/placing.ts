/**
 * Placing one block from the inventory next to the bot (a station, a furnace, a block a player asked for): on solid
 * ground, else in a pocket dug beside a 1×1 shaft, else (a full block that stays put) against the side of a block in
 * reach and in sight, over a short drop first; never inside a protected area, where a player's body is, or on,
 * through or against a block kept for a later step. Also which neighbours a block at a cell can be clicked against
 * (build.ts places each blueprint block by the same rule). Fails with `no_space`, `missing_materials` or `unsafe`.
 */
import type { Bot } from 'mineflayer'
import type { Block } from 'prismarine-block'
import { Vec3 } from 'vec3'
import { fallFrom } from '../bot/lava-margin.js'
import { leftStations } from '../perception/own-stations.js'
import { canSee, REACH, reachTo } from '../perception/vision.js'
import { usedOnClick } from '../rules/policy.js'
import { describeBox, inBox } from '../schemas/region.js'
import { sleep } from '../util/async.js'
import { BESIDE, overlapsCell, overlapsColumn } from '../util/vec.js'
import { playerInCell } from './site.js'
import { fail, type Run } from './types.js'
import { digBlock, falls } from './world.js'

function solid(b: Block | null): boolean {
  return !!b && b.boundingBox === 'block'
}
function free(b: Block | null): boolean {
  return !!b && b.boundingBox === 'empty' && b.name !== 'lava' && b.name !== 'water'
}

/**
 * Whether no block may be placed at `p`: inside a protected area, or where a player's box is — the server refuses a
 * solid block there, and ours straddles cells when it stands near an edge (bench p3: a pocket offered in a 1-wide
 * tunnel was the cell the bot's body reached into, and the second furnace of a shared smelt was refused).
 */
function barred(run: Run, p: Vec3): boolean {
  const { bot } = run
  return run.protected.some((b) => inBox(b, p)) || overlapsCell(bot.entity.position, p) || !!playerInCell(bot, p)
}

/**
 * From a cell to the neighbours it can be placed against, in order of preference: the block below first (as a player
 * builds), the top last (the face vector `placeBlock` takes is the opposite: from the neighbour to the cell).
 */
const PLACE_FACES = [
  new Vec3(0, -1, 0),
  new Vec3(1, 0, 0),
  new Vec3(-1, 0, 0),
  new Vec3(0, 0, 1),
  new Vec3(0, 0, -1),
  new Vec3(0, 1, 0),
]

/**
 * The solid neighbours a block placed at `pos` can be clicked against, in PLACE_FACES order, those a click opens or
 * uses instead of placing against (a table, a furnace, a door: rules/policy.ts `usedOnClick`) last.
 */
export function placeRefs(bot: Bot, pos: Vec3): Block[] {
  const refs = PLACE_FACES.map((f) => bot.blockAt(pos.plus(f))).filter((b): b is Block => solid(b))
  return refs.filter((b) => !usedOnClick(b.name)).concat(refs.filter((b) => usedOnClick(b.name)))
}

/**
 * Free spots next to the bot (not its own column, nor a cell any player's body is in) with solid ground under them,
 * nearest first.
 */
function placeSpots(run: Run, radius = 2): Vec3[] {
  const { bot } = run
  const me = bot.entity.position.floored()
  const out: Vec3[] = []
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -radius; dx <= radius; dx++) {
      for (let dz = -radius; dz <= radius; dz++) {
        if (Math.abs(dx) + Math.abs(dz) === 0 || Math.abs(dx) + Math.abs(dz) > radius + 1) continue
        const p = me.offset(dx, dy, dz)
        if (barred(run, p)) continue
        if (free(bot.blockAt(p)) && solid(bot.blockAt(p.offset(0, -1, 0))) && free(bot.blockAt(p.offset(0, 1, 0))))
          out.push(p)
      }
    }
  }
  return out.sort((a, b) => a.distanceTo(me) - b.distanceTo(me) || Math.abs(a.y - me.y) - Math.abs(b.y - me.y))
}

/**
 * In a 1×1 shaft or tunnel there is no free spot: dig out one side pocket at foot level (two blocks high, solid
 * floor, no liquid next to it) with the best tool held, and offer it as the spot. Blocks at `keep` are never dug (the
 * furnaces a shared smelt placed a moment before: bench d19 seed 10 dug its first furnace out for the second's pocket
 * and loaded the one furnace twice), and no pocket is offered on top of a block `onTop` refuses (a table left standing
 * under an open cell: bench d24 seeds 5 and 7 offered that cell, the server refused the furnace, and the smelt went
 * up to the surface — 35 s up, and as far again back down).
 */
async function digSpot(run: Run, keep: readonly Vec3[], onTop: (p: Vec3) => boolean): Promise<Vec3[]> {
  const { bot } = run
  const me = bot.entity.position.floored()
  for (const side of BESIDE) {
    const p = me.plus(side)
    const foot = bot.blockAt(p)
    const head = bot.blockAt(p.offset(0, 1, 0))
    if (!foot || !head || !solid(bot.blockAt(p.offset(0, -1, 0))) || onTop(p) || barred(run, p)) continue
    const around = [...BESIDE.map((d) => p.plus(d)), p.offset(0, 2, 0)].map((q) => bot.blockAt(q)?.name)
    if (around.some((n) => n === 'lava' || n === 'water')) continue
    const toDig = [foot, head].filter((b) => !free(b))
    if (toDig.some((b) => keep.some((k) => k.equals(b.position)))) continue
    if (toDig.some((b) => !b.diggable || b.name === 'bedrock' || !bot.canDigBlock(b))) continue
    for (const b of toDig) {
      const tool = bot.pathfinder.bestHarvestTool(b)
      if (tool) await bot.equip(tool, 'hand')
      await digBlock(run, b)
    }
    if (free(bot.blockAt(p)) && free(bot.blockAt(p.offset(0, 1, 0)))) return [p]
  }
  return []
}

/** A free cell to place a block in and the solid block clicked to place it there. */
interface Spot {
  at: Vec3
  ref: Block
  /** The block, once picked back up, would fall deeper than SIDE_DROP or into lava. */
  lost?: boolean
}

/**
 * Deepest a side spot's block may fall once picked back up for its drop to land where the pick-up looks (drops.ts
 * `pickUp` looks 4 blocks round), on a floor or in water, not in lava: such spots go first. A spot over a deeper drop
 * still beats none (a lost furnace costs 8 cobblestone; no spot sent the smelt up to the surface).
 */
const SIDE_DROP = 3

/**
 * Where no spot on the ground is left and no pocket can be dug (a ledge over a cave: bench d64 seed 42 went 93 s up
 * to the surface with the raw iron for its furnace in hand), free cells within reach beside any solid block, as a
 * player places against a wall: in sight from the eyes (never behind a wall), never in a column the bot's body is in
 * (its way up and down), on top of a block `onTop` refuses, against a kept block or one a click opens. Those whose
 * block would fall no deeper than SIDE_DROP first, then nearest first.
 */
function sideSpots(run: Run, kept: readonly Vec3[], onTop: (p: Vec3) => boolean): Spot[] {
  const { bot } = run
  const me = bot.entity.position.floored()
  const out: Spot[] = []
  for (let dy = -1; dy <= 2; dy++) {
    for (let dx = -2; dx <= 2; dx++) {
      for (let dz = -2; dz <= 2; dz++) {
        const at = me.offset(dx, dy, dz)
        const cell = bot.blockAt(at)
        if (!cell || !free(cell) || overlapsColumn(bot.entity.position, at) || barred(run, at) || onTop(at)) continue
        if (reachTo(bot, at) > REACH) continue
        const ref = placeRefs(bot, at).find((b) => !usedOnClick(b.name) && !kept.some((k) => k.equals(b.position)))
        if (ref && canSee(bot, cell)) out.push({ at, ref, lost: fallFrom(bot, at, SIDE_DROP) !== 'none' })
      }
    }
  }
  return out.sort((a, b) => Number(a.lost) - Number(b.lost) || a.at.distanceTo(me) - b.at.distanceTo(me))
}

/**
 * Place one `name` from the inventory next to the bot: on solid ground, else in a pocket it digs, else against the
 * side of a block within reach; never on or through a block at `keep` or a station the bot left standing for a later
 * step. Returns the placed block.
 */
export async function placeNear(run: Run, name: string, keep: readonly Vec3[] = []): Promise<Block> {
  const { bot } = run
  const item = bot.inventory.items().find((i) => i.name === name)
  if (!item) fail('missing_materials', `I have no ${name} to place.`)
  const box = run.protected.find((b) => inBox(b, bot.entity.position, 2))
  if (box)
    fail('unsafe', `I never place blocks inside the protected area ${describeBox(box)}, and I am standing at its edge.`)
  // a station left standing for a later step is kept like `keep` (bench d30 seed 1 dug out the table it had left for
  // its pickaxe to make a pocket for a second furnace)
  const kept = [...keep, ...leftStations(bot).map((b) => b.position)]
  // not on top of a kept block, nor of a block a click opens: a click on a furnace or a table opens it (the second
  // furnace of a shared smelt, placed on the first or on the table left standing, was refused: "the block is still air")
  const onTop = (p: Vec3): boolean => {
    const below = p.offset(0, -1, 0)
    return kept.some((k) => k.equals(below)) || usedOnClick(bot.blockAt(below)?.name ?? '')
  }
  const onGround = (ps: Vec3[]): Spot[] => ps.map((at) => ({ at, ref: bot.blockAt(at.offset(0, -1, 0))! }))
  let spots = onGround(placeSpots(run).filter((p) => !onTop(p)))
  if (!spots.length) spots = onGround(await digSpot(run, kept, onTop))
  // against a side only a full block that stays put: a torch there becomes a wall torch, sand falls
  const staysPut = bot.registry.blocksByName[name]?.boundingBox === 'block' && !falls(name)
  if (!spots.length && staysPut) spots = sideSpots(run, kept, onTop)
  if (!spots.length) fail('no_space', `There is no free spot next to me to place ${name}, and I could not dig one.`)
  let lastErr = ''
  for (const { at, ref } of spots.slice(0, 4)) {
    run.check()
    await bot.equip(item, 'hand')
    const face = at.minus(ref.position)
    try {
      // at the middle of the face clicked (the top of the ground for a spot on it)
      await bot.lookAt(ref.position.offset(0.5, 0.5, 0.5).plus(face.scaled(0.5)), true)
      await bot.placeBlock(ref, face)
    } catch (err) {
      lastErr = (err as Error).message
    }
    await sleep(150, run.signal).catch(() => run.check())
    const placed = bot.blockAt(at)
    if (
      placed?.name === name ||
      (placed && placed.name !== 'air' && bot.registry.blocksByName[name]?.id === placed.type)
    )
      return placed
  }
  return fail('no_space', `Placing ${name} next to me failed${lastErr ? `: ${lastErr}` : ''}.`)
}
