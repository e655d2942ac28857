/**
 * Where a blueprint goes and what the ground there needs first, read from the bot's loaded world (no actions). A
 * `Site` is an origin block and a forward direction; `spotOf` maps a blueprint block to the world. `fitSite` looks
 * around an asked site (a few blocks either way, a block or two up or down) for the spot that needs the least work,
 * as a player would choose on uneven ground: every solid block inside the blueprint's bounding box that is not
 * already the planned block must be dug (a tree, a hillside, tall grass), every hole under its footprint filled;
 * spots that would touch a protected area, a container, lava or water, a player, a block a player placed, or an
 * unbreakable block are never chosen. `siteWork` lists that work for a site as it stands now (it is re-read after
 * each pass, since sand falls and leaves hang on).
 */
import type { Bot } from 'mineflayer'
import { Vec3 } from 'vec3'
import type { Blueprint } from './build.js'
import { playerPlacedAt } from '../perception/placed.js'
import { inBox, type Box } from '../schemas/region.js'
import { isContainer } from '../rules/policy.js'
import { overlapsCell } from '../util/vec.js'

/** Where a blueprint goes: its origin block and forward direction (+z of the blueprint). */
export interface Site {
  origin: Vec3
  fx: number
  fz: number
}

/** Where blueprint block (x, y, z) goes for an origin and a forward direction (+z away from the bot, +x right). */
export function spotOf(site: Site, b: { x: number; y: number; z: number }): Vec3 {
  const { origin, fx, fz } = site
  return origin.offset(-fz * b.x + fx * b.z, b.y, fx * b.x + fz * b.z)
}

/** The work a site needs before its blocks go in: blocks to dig (top first) and holes under the footprint to fill. */
export interface SiteWork {
  dig: Vec3[]
  fill: Vec3[]
}

/** A site that needs work, and how far it is from the one asked for (0: the asked spot itself). */
export interface SiteFit {
  site: Site
  work: SiteWork
  moved: number
}

/** How far around the asked origin `fitSite` looks, sideways and up/down. */
export const FIT_RADIUS = 4
const FIT_RISE = 2
/** Blocks that are empty space, and liquids (a block may be placed into these without digging). */
export const AIR: ReadonlySet<string> = new Set(['air', 'cave_air', 'void_air'])
export const LIQUID: ReadonlySet<string> = new Set(['water', 'lava', 'bubble_column'])

/** Every spot of the blueprint's bounding box (blueprint coordinates), with the planned block or null (kept clear). */
function boxCells(bp: Blueprint): Array<{ x: number; y: number; z: number; block: string | null }> {
  const xs = bp.blocks.map((b) => b.x)
  const zs = bp.blocks.map((b) => b.z)
  const top = Math.max(...bp.blocks.map((b) => b.y))
  const planned = new Map(bp.blocks.map((b) => [`${b.x} ${b.y} ${b.z}`, b.block]))
  const cells: Array<{ x: number; y: number; z: number; block: string | null }> = []
  for (let y = 0; y <= top; y++)
    for (let x = Math.min(...xs); x <= Math.max(...xs); x++)
      for (let z = Math.min(...zs); z <= Math.max(...zs); z++)
        cells.push({ x, y, z, block: planned.get(`${x} ${y} ${z}`) ?? null })
  return cells
}

/** A block the bot may dig to clear a site (not protected, not a player's, not a container, not unbreakable). */
function diggable(bot: Bot, p: Vec3, name: string, hardness: number | null, boxes: readonly Box[]): boolean {
  if (isContainer(name) || hardness === null || hardness < 0 || hardness > 50) return false
  if (boxes.some((b) => inBox(b, p))) return false
  return playerPlacedAt(bot, p)?.block !== name
}

/**
 * The digging and filling `site` needs now, or null when it can never be built there (unloaded, protected, a
 * container, lava or water, a player standing in it, an unbreakable or player-placed block in the way).
 */
export function siteWork(bot: Bot, bp: Blueprint, site: Site, boxes: readonly Box[]): SiteWork | null {
  const dig: Vec3[] = []
  const fill: Vec3[] = []
  for (const cell of boxCells(bp)) {
    const p = spotOf(site, cell)
    const b = bot.blockAt(p)
    if (!b || LIQUID.has(b.name) || boxes.some((x) => inBox(x, p))) return null
    if (playerInCell(bot, p)) return null
    if (cell.y === 0) {
      const under = bot.blockAt(p.offset(0, -1, 0))
      if (!under || under.name === 'lava' || isContainer(under.name)) return null
      if (under.boundingBox !== 'block') fill.push(under.position)
    }
    if (AIR.has(b.name) || b.name === cell.block) continue
    if (!diggable(bot, p, b.name, b.hardness, boxes)) return null
    dig.push(p)
  }
  dig.sort((a, b) => b.y - a.y)
  return { dig, fill }
}

/** Another player whose body (its box) is in the block cell at `cell` — the server refuses a solid block there. */
export function playerInCell(bot: Bot, cell: Vec3): string | null {
  const other = Object.values(bot.players).find(
    (pl) => pl.entity && pl.entity !== bot.entity && overlapsCell(pl.entity.position, cell),
  )
  return other?.username ?? null
}

/** A rough cost of the work: a block dug or filled is one, a stone-hard block two. */
function effort(bot: Bot, w: SiteWork): number {
  return w.fill.length + w.dig.reduce((a, p) => a + ((bot.blockAt(p)?.hardness ?? 0) >= 1 ? 2 : 1), 0)
}

/**
 * The site within `FIT_RADIUS` blocks of `asked` (same facing, ground level a block or two up or down) that needs
 * the least digging and filling, a block moved costing about one block of work; null when none can be built.
 */
export function fitSite(bot: Bot, bp: Blueprint, asked: Site, boxes: readonly Box[]): SiteFit | null {
  let best: (SiteFit & { cost: number }) | null = null
  for (let dx = -FIT_RADIUS; dx <= FIT_RADIUS; dx++)
    for (let dz = -FIT_RADIUS; dz <= FIT_RADIUS; dz++)
      for (let dy = -FIT_RISE; dy <= FIT_RISE; dy++) {
        const moved = Math.hypot(dx, dz)
        if (moved > FIT_RADIUS + 0.5) continue
        const site = { ...asked, origin: asked.origin.offset(dx, dy, dz) }
        const work = siteWork(bot, bp, site, boxes)
        if (!work) continue
        const cost = effort(bot, work) + moved + Math.abs(dy)
        if (!best || cost < best.cost) best = { site, work, moved: Math.round(moved), cost }
      }
  return best && { site: best.site, work: best.work, moved: best.moved }
}

/** The point a site's footprint is centred on (for walking there). */
export function siteCentre(bp: Blueprint, site: Site): Vec3 {
  const cells = boxCells(bp).filter((c) => c.y === 0)
  const sum = cells.reduce((a, c) => a.plus(spotOf(site, c)), new Vec3(0, 0, 0))
  return sum.scaled(1 / cells.length).floored()
}
