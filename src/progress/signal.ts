/**
 * The progress signal of one long action (after Auto MC-Reward): from periodic observations (position, health,
 * distance to the nearest target, wanted-item count, lava in view, work done) it computes a sparse signal (+1 goal
 * reached, −1 death or heavy loss) and a dense one (closer to the target, new ground, health lost, lava in view,
 * revisiting positions, items gained, work), keeps the last N entries as a trace, and says when the action has
 * made no net progress for the stall window. The stall judges progress only: the hazard parts (lava in view, health
 * lost) weigh the dense signal but not the stall, so steady digging beside a lava lake is not "no progress" (the
 * reflexes answer the hazard). Pure: no mineflayer here (the sampler lives in src/actions/).
 */
import type { ProgressRules } from './rules.js'

export interface Observation {
  t: number
  pos: { x: number; y: number; z: number }
  health: number
  /** How many of the wanted items the bot holds, or null when the action wants none. */
  wanted: number | null
  /** Distance to the nearest target block/entity, or null when there is none in view. */
  targetDistance: number | null
  lavaInView: boolean
  inventoryTotal: number
  /** Units of work the handler reported since the previous observation. */
  work: number
  dead: boolean
}

/** Dense parts that price a hazard rather than measure progress: left out of the stall judgement. */
const HAZARD_PARTS: ReadonlySet<string> = new Set(['lava', 'healthLost'])

/** The part of an entry's dense signal that measures progress (everything but the hazards). */
function progressOf(e: ProgressEntry): number {
  let sum = 0
  for (const [k, v] of Object.entries(e.parts)) if (!HAZARD_PARTS.has(k)) sum += v
  return sum
}

export interface ProgressEntry {
  t: number
  x: number
  y: number
  z: number
  dense: number
  sparse: number
  parts: Record<string, number>
  /** Dense sum over the stall window ending here. */
  windowSum: number
  note?: string
}

export class ProgressTracker {
  private readonly trace: ProgressEntry[] = []
  private prev: Observation | null = null
  private readonly cells = new Set<string>()
  private readonly recent: string[] = []
  private readonly startedAt: number
  private pendingWork = 0
  private targetFn: () => number | null = () => null
  private wantedFn: () => number | null = () => null
  readonly stallWindowMs: number

  constructor(
    readonly rules: ProgressRules,
    readonly action: string,
    now = Date.now(),
    private readonly onEntry?: (e: ProgressEntry) => void,
  ) {
    this.startedAt = now
    this.stallWindowMs = rules.stall.perAction[action] ?? rules.stall.windowMs
  }

  /** Handlers say what "closer" means (distance to the nearest target) and what they collect. */
  setTarget(fn: () => number | null): void {
    this.targetFn = fn
  }
  setWanted(fn: () => number | null): void {
    this.wantedFn = fn
  }
  targetDistance(): number | null {
    try {
      return this.targetFn()
    } catch {
      return null
    }
  }
  wantedCount(): number | null {
    try {
      return this.wantedFn()
    } catch {
      return null
    }
  }
  /** A handler reports work (a block dug, a hit landed, a block placed). */
  work(units = 1): void {
    this.pendingWork += units
  }
  takeWork(): number {
    const w = this.pendingWork
    this.pendingWork = 0
    return w
  }

  observe(o: Observation): ProgressEntry {
    const w = this.rules.weights
    const parts: Record<string, number> = {}
    const add = (k: string, v: number): void => {
      if (v !== 0 && Number.isFinite(v)) parts[k] = (parts[k] ?? 0) + v
    }
    let sparse = 0
    const p = this.prev
    const nc = this.rules.noveltyCellSize
    const cell = `${Math.floor(o.pos.x / nc)},${Math.floor(o.pos.y / nc)},${Math.floor(o.pos.z / nc)}`
    if (!this.cells.has(cell)) {
      if (p) add('newCell', w.newCell)
      this.cells.add(cell)
    }
    if (p) {
      if (o.targetDistance !== null && p.targetDistance !== null)
        add('closer', (p.targetDistance - o.targetDistance) * w.closerPerBlock)
      if (o.health < p.health) add('healthLost', (p.health - o.health) * w.healthLostPerPoint)
      if (o.wanted !== null && p.wanted !== null && o.wanted > p.wanted)
        add('itemGained', (o.wanted - p.wanted) * w.itemGained)
      const moved = Math.hypot(o.pos.x - p.pos.x, o.pos.y - p.pos.y, o.pos.z - p.pos.z)
      const rc = this.rules.revisit.cellSize
      const rkey = `${Math.floor(o.pos.x / rc)},${Math.floor(o.pos.y / rc)},${Math.floor(o.pos.z / rc)}`
      if (moved >= this.rules.revisit.minMoveBlocks && this.recent.slice(0, -1).includes(rkey))
        add('revisit', w.revisit)
      if (moved >= this.rules.revisit.minMoveBlocks) {
        this.recent.push(rkey)
        if (this.recent.length > this.rules.revisit.windowSamples) this.recent.shift()
      }
      if (o.dead && !p.dead) sparse += w.death
      else {
        const loss = p.inventoryTotal - o.inventoryTotal
        const healthDrop = this.windowHealth(o.t) - o.health
        if (
          !this.lostRecently &&
          (loss >= this.rules.heavyLoss.items || healthDrop >= this.rules.heavyLoss.healthPoints)
        ) {
          sparse += w.heavyLoss
          this.lostRecently = true
        }
      }
    } else {
      this.recent.push(`${Math.floor(o.pos.x)},${Math.floor(o.pos.y)},${Math.floor(o.pos.z)}`)
    }
    if (o.lavaInView) add('lava', w.lavaInView)
    if (o.work > 0) add('work', o.work * w.work)
    this.healthLog.push([o.t, o.health])
    const dense = Object.values(parts).reduce((a, b) => a + b, 0)
    const windowSum = dense + this.trace.filter((e) => e.t > o.t - this.stallWindowMs).reduce((a, e) => a + e.dense, 0)
    const entry: ProgressEntry = {
      t: o.t,
      x: round(o.pos.x),
      y: round(o.pos.y),
      z: round(o.pos.z),
      dense: round(dense),
      sparse,
      parts: roundAll(parts),
      windowSum: round(windowSum),
    }
    this.push(entry)
    this.prev = o
    return entry
  }

  private lostRecently = false
  private readonly healthLog: Array<[number, number]> = []
  private windowHealth(now: number): number {
    while (this.healthLog.length > 1 && this.healthLog[0]![0] < now - this.stallWindowMs) this.healthLog.shift()
    return this.healthLog[0]?.[1] ?? 0
  }

  /** Record the end of the action in the trace (+goalReached when it succeeded). */
  finish(ok: boolean, note: string, now = Date.now()): ProgressEntry {
    const last = this.trace[this.trace.length - 1]
    const entry: ProgressEntry = {
      t: now,
      x: last?.x ?? 0,
      y: last?.y ?? 0,
      z: last?.z ?? 0,
      dense: 0,
      sparse: ok ? this.rules.weights.goalReached : 0,
      parts: {},
      windowSum: last?.windowSum ?? 0,
      note,
    }
    this.push(entry)
    return entry
  }

  /**
   * True once the action has run a whole stall window and its progress over that window (the dense sum without the
   * hazard parts) is too small.
   */
  stalled(now = Date.now()): boolean {
    if (now - this.startedAt < this.stallWindowMs) return false
    const sum = this.trace.filter((e) => e.t > now - this.stallWindowMs).reduce((a, e) => a + progressOf(e), 0)
    return sum <= this.rules.stall.minDense
  }

  entries(): ProgressEntry[] {
    return [...this.trace]
  }

  private push(e: ProgressEntry): void {
    this.trace.push(e)
    if (this.trace.length > this.rules.traceLength) this.trace.shift()
    this.onEntry?.(e)
  }
}

function round(v: number): number {
  return Math.round(v * 100) / 100
}
function roundAll(r: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {}
  for (const [k, v] of Object.entries(r)) out[k] = round(v)
  return out
}
