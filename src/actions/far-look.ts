/**
 * The surface search's far look: on open land a player sees a tree or a sand dune across the land the server has
 * sent, not only within the near sight. A block of the target seen beyond VIEW_DISTANCE (sighting.ts `farSighting`)
 * leads the walk; a lead walked to without a sighting (across a lake, up a cliff) rules out the far blocks within
 * VIEW_DISTANCE of it. A search cell whose centre ground was in sight from where the bot stood, within the far sight,
 * has been looked over: the spiral goes on past it instead of walking there (bench:diamond seed 35 spawned in a
 * treeless plain and walked 26 cells within 60 blocks of its spawn, 100 s, before it went on to trees 140 blocks off).
 */
import type { Vec3 } from 'vec3'
import { canSee, VIEW_DISTANCE } from '../perception/vision.js'
import { columnTop, landInSight } from './biome-sight.js'
import { FAR_SIGHT, farSighting } from './sighting.js'
import type { Run } from './types.js'
import { gridCell, gridCentre } from '../util/vec.js'

export class FarLook {
  private readonly walked: Array<[number, number]> = []
  private readonly viewed = new Set<string>()

  /** `ids`: the target's blocks; `cell`: the search's cell size in blocks. */
  constructor(
    private readonly run: Run,
    private readonly ids: Set<number>,
    private readonly cell: number,
  ) {}

  /** The far sight here: the land the server has sent, at most FAR_SIGHT; null when no farther than the near sight. */
  private sight(): number | null {
    const far = Math.min(landInSight(this.run.bot), FAR_SIGHT)
    return far > VIEW_DISTANCE ? far : null
  }

  /** Where the nearest block of the target seen far off stands (x, z), unless near a lead walked to already. */
  lead(): [number, number] | null {
    const far = this.sight()
    if (far === null) return null
    const nearWalked = (q: Vec3): boolean => this.walked.some(([x, z]) => Math.hypot(q.x - x, q.z - z) < VIEW_DISTANCE)
    const at = farSighting(this.run.bot, this.ids, far, nearWalked)
    return at ? [at.x, at.z] : null
  }

  /** The bot walks to a lead: far blocks near it are not leads again. */
  walkedTo(there: [number, number]): void {
    this.walked.push(there)
  }

  /** Mark the cells whose centre ground is in sight from where the bot stands, within the far sight. */
  lookOver(): void {
    const { bot } = this.run
    const far = this.sight()
    if (far === null) return
    const p = bot.entity.position
    const r = Math.ceil(far / this.cell)
    const [px, pz] = gridCell(p, this.cell)
    for (let cx = px - r; cx <= px + r; cx++)
      for (let cz = pz - r; cz <= pz + r; cz++) {
        const key = `${cx},${cz}`
        const [x, z] = gridCentre(cx, cz, this.cell)
        if (this.viewed.has(key) || Math.hypot(x - p.x, z - p.z) > far) continue
        const top = columnTop(bot, x, z)
        if (top && canSee(bot, top)) this.viewed.add(key)
      }
  }

  /** Has the cell cx/cz been looked over from afar? */
  passed(cx: number, cz: number): boolean {
    return this.viewed.has(`${cx},${cz}`)
  }
}
