/**
 * What the decomposer takes from the knowledge base (`DecomposeDeps`: the source index, the cost model, reasons an
 * item cannot be had, stations in reach, the dry-run check) and the one error its expansion throws at a dead end
 * (`Unobtainable`, caught by src/knowledge/decompose.ts, which then tries the next source or reports the reason).
 */
import type { SubGoal } from '../schemas/subgoal.js'
import type { CostModel } from './cost.js'
import type { SourceIndex } from './sources.js'

/** What the decomposer needs from the knowledge base. */
export interface DecomposeDeps {
  src: SourceIndex
  cost: CostModel
  impossibleReason(item: string): string | null
  infoFor(item: string): string
  /** stations standing within reach: used where they stand (never obtained as stations; not materials) */
  stations?: ReadonlySet<string>
  /** checks a candidate step list from the start inventory (the dry-run world); enables merging repeated steps */
  verify?: (steps: SubGoal[], inventory: Record<string, number>) => boolean
  /** caves at and below this y are lava (the knowledge's lavaLevel): dig-down levels stay above them */
  lavaLevel?: number
  /** false: plan no spare tools (decompose-tools.ts `spareWanted`); a pass of the decomposer turns them off */
  spareTools?: boolean
}

export class Unobtainable extends Error {
  constructor(
    readonly item: string,
    readonly reason: string,
  ) {
    super(`${item}: ${reason}`)
  }
}
