/**
 * The memory backend contract: the storage operations MemoryStore needs, implemented once for a SQLite file
 * (./sqlite-backend.ts, better-sqlite3 + sqlite-vec) and once for PostgreSQL with pgvector (./pg-backend.ts). Every
 * operation is async, so callers never know which engine they talk to. Also owns turning stored rows into validated
 * values: a row that no longer matches its zod schema (src/schemas/memory.ts) is skipped with a warning instead of
 * poisoning a plan, a lesson or an export.
 */
import type { z } from 'zod'
import {
  GoalSummary,
  NamedPlace,
  ReferencePlan,
  StoredLesson,
  StoredPlan,
  type MemoryStats,
  type PlanRun,
  type StoredKnowledge,
} from '../schemas/memory.js'
import { GhostError } from '../util/errors.js'
import { logger } from '../util/log.js'

const log = logger('memory')

/** A plan ready to store: validated input plus its creation time and summarised flag. */
export type NewPlan = PlanRun & { createdAt: number; summarised?: boolean }
/** A lesson ready to store. */
export interface NewLesson {
  goalKey: string
  cause: string
  suggestions: string[]
  player: string | null
  bot: string | null
  createdAt: number
}
/** A knowledge chunk ready to store. */
export interface NewChunk {
  source: string
  text: string
  createdAt: number
}

export interface Neighbour {
  planId: number
  goalKey: string
  distance: number
  /** The server the plan was recorded on (null: stored without one). */
  server: string | null
}

/**
 * Which servers' plans and summaries a read sees (GHOST_MEMORY_SHARE): a server (`host:port`) sees its own rows and
 * rows stored without a server (from before per-server memory, or imported); null sees every server's.
 */
export type Scope = string | null

/** What a summary write needs: the plans it consumed and the new reference plan. */
export interface SummaryWrite {
  goalKey: string
  /** The server whose plans were summarised ('' for plans stored without one, or a mix from an import). */
  server: string
  planIds: number[]
  goalText: string
  actions: unknown
  summariser: string
  updatedAt: number
}

/** Everything stored, for export and reembed. */
export interface Everything {
  plans: StoredPlan[]
  references: ReferencePlan[]
  lessons: StoredLesson[]
  knowledge: StoredKnowledge[]
}

export interface MemoryBackend {
  readonly kind: 'sqlite' | 'postgres'
  /** Where the memory lives, safe to print (a file path, or a URL with the password redacted). */
  readonly location: string
  /** Model and dimension of the stored vectors (null before the first embedder was attached). */
  embedModel(): string | null
  embedDim(): number | null
  /** Insert plans and their vectors in one transaction; ids in order. */
  insertPlans(plans: NewPlan[], vectors: Float32Array[], model: string): Promise<number[]>
  /** The goal's oldest successful plans not yet summarised. */
  pendingSuccesses(goalKey: string, limit: number, server?: string): Promise<StoredPlan[]>
  /** Atomically: mark the plans summarised and upsert the reference plan, only if none of them was summarised meanwhile. */
  commitSummary(s: SummaryWrite): Promise<boolean>
  /** The goal's summary in `scope`: the server's own before an unscoped one; with scope null the newest of any. */
  referencePlan(goalKey: string, scope?: Scope): Promise<ReferencePlan | null>
  /** Plans of a goal in `scope` (default every server's): oldest first (successes only) or newest first (all). */
  plans(
    goalKey: string,
    opts: { limit: number; successesOnly: boolean; newestFirst: boolean; scope?: Scope },
  ): Promise<StoredPlan[]>
  plan(id: number): Promise<StoredPlan | null>
  /** The k successful plans nearest to `v` by cosine distance (approximate index, exact re-rank), nearest first. */
  nearestPlans(v: Float32Array, k: number): Promise<Neighbour[]>
  insertLesson(l: NewLesson): Promise<number>
  lessons(goalKey: string, limit: number): Promise<StoredLesson[]>
  insertKnowledge(chunks: NewChunk[], vectors: Float32Array[], model: string): Promise<number[]>
  searchKnowledge(v: Float32Array, k: number): Promise<Array<StoredKnowledge & { similarity: number }>>
  stats(): Promise<Omit<MemoryStats, 'path'>>
  list(limit: number): Promise<GoalSummary[]>
  forget(goalKey: string): Promise<{ plans: number; references: number; lessons: number }>
  /** A consistent snapshot of every row (export, reembed). */
  everything(): Promise<Everything>
  /** Import helpers: is this row already stored? */
  hasPlan(p: NewPlan): Promise<boolean>
  hasLesson(l: NewLesson): Promise<boolean>
  hasChunk(c: NewChunk): Promise<boolean>
  /** Store an imported reference plan unless the stored one is as new or newer; true when written. */
  upsertReferenceIfNewer(r: ReferencePlan): Promise<boolean>
  /** Replace every vector (reembed): fails when the plan or chunk count changed meanwhile. */
  replaceVectors(
    model: string,
    dim: number,
    plans: Array<{ id: number; ok: boolean; v: Float32Array }>,
    chunks: Array<{ id: number; v: Float32Array }>,
  ): Promise<void>
  /** Named places of one server: save (replacing one of that name), look up, list by name, delete (true when one was). */
  savePlace(p: NamedPlace): Promise<void>
  place(server: string, name: string): Promise<NamedPlace | null>
  /** null: every server's places (for export), ordered by server and name. */
  places(server: string | null): Promise<NamedPlace[]>
  deletePlace(server: string, name: string): Promise<boolean>
  /** A cheap round trip that fails when the engine is unreachable. */
  ping(): Promise<void>
  close(): Promise<void>
}

/** A plan row as both engines return it (snake case columns). */
export interface PlanRow {
  id: number | string
  goal_key: string
  goal_text: string
  state: string
  actions: unknown
  outcome: string
  duration_ms: number | string
  llm_calls: number
  player: string | null
  bot: string | null
  server: string | null
  created_at: number | string
  summarised: number | boolean
}
export interface RefRow {
  goal_key: string
  goal_text: string
  actions: unknown
  source_count: number
  summariser: string
  updated_at: number | string
}
export interface LessonRow {
  id: number | string
  goal_key: string
  cause: string
  suggestions: unknown
  player: string | null
  bot: string | null
  created_at: number | string
}

/** JSON text (SQLite) or already-parsed JSON (Postgres jsonb) as a value; text that is not JSON stays a string (and fails validation). */
function json(v: unknown): unknown {
  if (typeof v !== 'string') return v
  try {
    return JSON.parse(v)
  } catch {
    return v
  }
}

function validated<S extends z.ZodType>(schema: S, value: unknown, where: string): z.infer<S> | null {
  const r = schema.safeParse(value)
  if (r.success) return r.data
  log.warn('stored row does not validate; skipped', {
    where,
    issue: `${r.error.issues[0]?.path.join('.')} ${r.error.issues[0]?.message}`,
  })
  return null
}

export function planFromRow(r: PlanRow): StoredPlan | null {
  return validated(
    StoredPlan,
    {
      id: Number(r.id),
      goalKey: r.goal_key,
      goalText: r.goal_text,
      state: r.state,
      actions: json(r.actions),
      outcome: r.outcome,
      durationMs: Number(r.duration_ms),
      llmCalls: r.llm_calls,
      player: r.player,
      bot: r.bot,
      server: r.server,
      createdAt: Number(r.created_at),
      summarised: r.summarised === 1 || r.summarised === true,
    },
    `plan ${r.id}`,
  )
}

export function referenceFromRow(r: RefRow): ReferencePlan | null {
  return validated(
    ReferencePlan,
    {
      goalKey: r.goal_key,
      goalText: r.goal_text,
      actions: json(r.actions),
      sourceCount: r.source_count,
      summariser: r.summariser,
      updatedAt: Number(r.updated_at),
    },
    `reference ${r.goal_key}`,
  )
}

/** Lessons are validated like plans (issue 20): a bad row is skipped, not returned half-parsed. */
export function lessonFromRow(r: LessonRow): StoredLesson | null {
  return validated(
    StoredLesson,
    {
      id: Number(r.id),
      goalKey: r.goal_key,
      cause: r.cause,
      suggestions: json(r.suggestions),
      player: r.player,
      bot: r.bot,
      createdAt: Number(r.created_at),
    },
    `lesson ${r.id}`,
  )
}

export interface PlaceRow {
  server: string
  name: string
  x: number
  y: number
  z: number
  dimension: string
  owner: string
  created_at: number | string
}

export function placeFromRow(r: PlaceRow): NamedPlace | null {
  return validated(
    NamedPlace,
    {
      server: r.server,
      name: r.name,
      x: Number(r.x),
      y: Number(r.y),
      z: Number(r.z),
      dimension: r.dimension,
      owner: r.owner,
      createdAt: Number(r.created_at),
    },
    `place ${r.name}`,
  )
}

export function goalSummaryFromRow(r: Record<string, unknown>): GoalSummary | null {
  return validated(
    GoalSummary,
    {
      goalKey: r.goalKey ?? r.goalkey,
      goalText: r.goalText ?? r.goaltext,
      plans: Number(r.plans),
      successes: Number(r.successes),
      lastAt: Number(r.lastAt ?? r.lastat),
      hasReference: r.hasReference === 1 || r.hasReference === true || r.hasreference === true,
    },
    `goal ${String(r.goalKey ?? r.goalkey)}`,
  )
}

export function notNull<T>(x: T | null): x is T {
  return x !== null
}

/** The engine cannot be reached (connection refused or lost, or a lock held too long): plan without memory. */
export class MemoryUnavailable extends GhostError {
  constructor(
    readonly reason: string,
    cause?: unknown,
  ) {
    super('memory', `memory is unavailable: ${reason}`, 'my memory is unavailable right now; I plan without it', {
      cause,
    })
    this.name = 'MemoryUnavailable'
  }
}

/** True for errors that mean "memory is down or busy", not "this request is wrong". */
export function isUnavailable(err: unknown): boolean {
  return err instanceof MemoryUnavailable || (err instanceof GhostError && err.code === 'busy')
}

/** Why memory is unavailable, for `status` and logs (no "memory is unavailable:" prefix). */
export function unavailableReason(err: unknown): string {
  if (err instanceof MemoryUnavailable) return err.reason
  return err instanceof Error ? err.message : String(err)
}
