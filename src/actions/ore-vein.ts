/**
 * Following an ore vein past what its open faces show, the way a player mines around the last ore block: vanilla's
 * ore blobs often touch only by an edge, so once no block of the vein is in sight, `mine` opens the rock beside the
 * ore blocks it dug (`probeVein`), one cell at a time, nearest the last dug first, and the vein's next block shows on
 * the new faces (mine counts a block beside an opened cell as part of the vein, as it does beside a dug one). Only
 * the rock veins form in (`ORE_HOSTS`), within reach, and never a cell with a fluid in or beside it, under a falling
 * block, under the bot's own feet, inside a protected area or placed by a player. (Bench d30: of 22 "mined 1 raw_iron
 * but can see no more" in four benches, seeds 1, 4 and 10 left ore an edge away and searched 60–175 s for the next.)
 */
import type { Vec3 } from 'vec3'
import type { Block } from 'prismarine-block'
import { equipSparing } from '../bot/wear.js'
import { ORE_HOSTS } from '../knowledge/location.js'
import { playerPlacedAt } from '../perception/placed.js'
import { REACH, reachTo } from '../perception/vision.js'
import { inBox } from '../schemas/region.js'
import { FACES, overlapsColumn } from '../util/vec.js'
import type { Run } from './types.js'
import { digBlock, falls, fluidNear } from './world.js'

/** The rock a vein lies in: only that is opened (never a log's leaves, the dirt or the bot's own blocks). */
const HOSTS = new Set<string>([...ORE_HOSTS.stone, ...ORE_HOSTS.deepslate])
/** Rock cells one mine call opens beside its ore to find the rest of the vein (about a second each). */
export const VEIN_PROBES = 6

/** Can the rock at `b` be opened to look for the vein without letting anything in on the bot or breaking a rule? */
function probeable(run: Run, b: Block | null): b is Block {
  const { bot } = run
  if (!b || !HOSTS.has(b.name)) return false
  const c = b.position
  const feet = bot.entity.position
  if (c.y < feet.y && c.y >= Math.floor(feet.y) - 1 && overlapsColumn(feet, c)) return false // the floor under the bot
  if (reachTo(bot, c) > REACH) return false // dug from where the bot stands, no walk
  if (fluidNear(bot, c) || falls(bot.blockAt(c.offset(0, 1, 0))?.name ?? '')) return false
  if (run.protected.some((box) => inBox(box, c))) return false
  return playerPlacedAt(bot, c)?.block !== b.name
}

/**
 * Open one rock cell beside the ore blocks `dug` (the last dug first) that is not `opened` yet, with the tool rock is
 * dug with (`equipSparing`: not one on the last uses kept for the ore while another tool digs the rock); the cell is
 * added to `opened`. False when there is none left to open.
 */
export async function probeVein(run: Run, dug: readonly Vec3[], opened: Vec3[]): Promise<boolean> {
  const { bot } = run
  for (const p of [...dug].reverse()) {
    for (const f of FACES) {
      const c = p.plus(f)
      if (opened.some((o) => o.equals(c))) continue
      const b = bot.blockAt(c)
      if (!probeable(run, b)) continue
      opened.push(c)
      await equipSparing(bot, b)
      // a probe that fails (the block would not break) is one look fewer, not the end of the mine; a stop still is
      await digBlock(run, b).catch(() => run.check())
      return true
    }
  }
  return false
}
