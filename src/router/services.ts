/**
 * What commands may use, as narrow interfaces (ports). The composition root (src/app.ts) fills them with the real
 * implementations: the bot's body (src/actions/body.ts), the task queue, and — when present — the agent pipeline,
 * memory, perception and LLM usage. Commands depend on these interfaces only, never on mineflayer or SQLite.
 */
import type { Request } from './request.js'
import type { Role } from '../schemas/role.js'
import type { Outcome, ProgressSink } from '../schemas/task.js'
import type { Step } from '../schemas/step.js'
import type { Triage } from './command.js'

export interface BodyStatus {
  connected: boolean
  health: number | null
  food: number | null
  position: { x: number; y: number; z: number } | null
  dimension: string | null
  /** Where the bot stands and the Minecraft time of day (0-23999); for the web page's status panel. */
  biome?: string | null
  timeOfDay?: number | null
}

export interface BodyPort {
  status(): BodyStatus
  inventory(): Array<{ name: string; count: number }>
  /** Path to the named player; ok when within 3 blocks, else a failure that says how far is left. */
  come(player: string, signal: AbortSignal): Promise<Outcome>
  /** Follow the named player until the signal aborts (then rejects with AbortedError) or the player is gone. */
  follow(player: string, signal: AbortSignal): Promise<Outcome>
}

export interface TaskView {
  id: string
  player: string
  command: string
  text: string
  startedAt: number
  progress: string
}
export interface QueueView {
  current(): TaskView | null
  pending(): TaskView[]
  /** Abort the running task at once; returns it, or null when idle. */
  stopCurrent(): { id: string } | null
  /** Drop waiting tasks of one player (or everyone); returns how many. */
  clear(player?: string): number
}

export interface AgentRun {
  request: Request
  role: Role
  signal: AbortSignal
  progress: ProgressSink
  taskId: string
}
export interface AgentPort {
  /** Carry out a natural-language request end to end; `ok` only when every goal was reached (a question back, a refusal or a failure is `ok: false`). */
  handle(text: string, run: AgentRun): Promise<Outcome>
  /** Pursue one structured goal (the `goal` command), skipping intent parsing. */
  pursue(goal: { object: string; count: number }, run: AgentRun): Promise<Outcome>
  /** One line about LLM usage (calls, tokens) for `status`, or null when offline. */
  usageLine?(): string | null
  /** Understand a request when it arrives (no world actions): answer it now, refuse it, or queue a `StepPlan`. */
  triage?(text: string, ctx: { request: Request; role: Role; services: Services }): Promise<Triage>
  /** Carry out a queued plan; resumable after a pause (steps before `done` do not run again). */
  perform?(plan: StepPlan, run: AgentRun, services: Services): Promise<Outcome>
  /** Hand a player what was set aside for them (when they come near); ok with no text when nothing was. */
  handOver?(player: string, signal: AbortSignal): Promise<Outcome>
}

/** What `ask` queues: the understood steps, how many are done (for resuming), and a one-line summary. */
export interface StepPlan {
  kind: 'steps'
  steps: Step[]
  done: number
  summary: string
}

export interface Services {
  body: BodyPort
  queue: QueueView
  agent?: AgentPort
  memory?: MemoryPort
  perception?: PerceptionPort
  /** Companion skills (goto, chests, guard, attack a mob) and the named places they use (issue 17). */
  skills?: SkillsPort
  places?: PlacesPort
}

/** A place a player named on this server ("base"), saved in memory. */
export interface PlaceView {
  name: string
  x: number
  y: number
  z: number
  dimension: string
  owner: string
}
/** What the place commands answer when no places port is wired (no memory). */
export const NO_PLACES = 'I cannot remember places right now.'

export interface PlacesPort {
  /** Save (or move) a named place; fails when another player saved that name and `by` is not an owner. */
  remember(
    name: string,
    at: { x: number; y: number; z: number; dimension: string },
    by: string,
    isOwner: boolean,
  ): Promise<Outcome>
  find(name: string): Promise<PlaceView | null>
  list(): Promise<PlaceView[]>
  /** Delete it: only the player who saved it or an owner. */
  forget(name: string, by: string, isOwner: boolean): Promise<Outcome>
}

/** Where `goto` goes: coordinates, a player, or a named place. */
export type GotoTarget =
  | { kind: 'xyz'; x: number; y: number; z: number }
  | { kind: 'player'; name: string }
  | { kind: 'place'; name: string }
export interface SkillsPort {
  goto(target: GotoTarget, signal: AbortSignal): Promise<Outcome>
  /** Items: empty = everything but tools (deposit); count null = all of it. Chest: a named place, "x y z", or null = nearest. */
  store(
    op: 'deposit' | 'withdraw',
    items: Array<{ object: string; count: number | null }>,
    chest: string | null,
    signal: AbortSignal,
  ): Promise<Outcome>
  guard(player: string, signal: AbortSignal): Promise<Outcome>
  attack(mob: string, signal: AbortSignal): Promise<Outcome>
  /**
   * Build a shipped blueprint (materials already held) where asked — null/"here" (in front of the requester), "at x y z",
   * "next to <place>" — turned so its front faces the requester; `onLayer` reports each finished layer.
   */
  build(
    blueprint: string,
    where: string | null,
    requester: string,
    signal: AbortSignal,
    onLayer?: (done: number, total: number) => void,
  ): Promise<Outcome>
  /** Where a player stands (whole blocks), when the bot can see them; the bot itself for its own name. */
  whereIs(player: string): { x: number; y: number; z: number; dimension: string } | null
}

/** What the `memory` command needs from the shared plan memory. */
export interface MemoryPort {
  stats(): Promise<string>
  list(limit: number): Promise<string[]>
  show(goalKey: string): Promise<string | null>
  forget(goalKey: string): Promise<number>
  /** One line for `status` while memory is unreachable (the bot plans without it), else null. */
  health(): string | null
}

/** What the `look`/`where` commands need from the percipient. */
export interface PerceptionPort {
  describe(what: 'look' | 'where'): string
}
