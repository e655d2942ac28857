/**
 * The task queue: one task at a time; waiting tasks are served round-robin across players (each player's own tasks
 * stay in order); `stopCurrent` aborts the running task at once. Tasks are plain async functions that honour an
 * AbortSignal. Instant commands never enter the queue. Short interactive tasks (come, handing over what the bot
 * carries) go ahead of long ones, in arrival order; one arriving while a long task runs pauses it (its signal is
 * aborted with the reason `PREEMPTED`) and the long task is run again, first, once the interactive ones are done.
 * While the bot is off the server (`hold`, until `release`) no task starts, and the running one is paused the same
 * way (reason `DISCONNECTED`): it runs again, first, after the reconnect.
 */
import { EventEmitter } from 'node:events'
import type { QueueView, TaskView } from '../router/services.js'

export interface QueuedTask {
  id: string
  player: string
  command: string
  text: string
  /** Short and interactive: runs ahead of long tasks and pauses a running long task. */
  interactive?: boolean
  /** Called when this (long) task is paused for an interactive one; it will run again afterwards. */
  onPreempt?(by: QueuedTask): void
  /** Called when this task is paused because the bot lost the server (`hold`); it will run again after `release`. */
  onHold?(): void
  run(signal: AbortSignal): Promise<void>
}

/** The abort reason of a task paused for an interactive task (it is resumed, not stopped). */
export const PREEMPTED = 'preempted'
/** The abort reason of a task paused because the bot lost its server connection (it is resumed after the reconnect). */
export const DISCONNECTED = 'disconnected'

/** Was this task's signal aborted to pause it (it runs again later), rather than to stop it? */
export function isPaused(signal: AbortSignal): boolean {
  return signal.reason === PREEMPTED || signal.reason === DISCONNECTED
}

/** At most this many waiting tasks per player. */
export const MAX_WAITING_PER_PLAYER = 5

interface Running {
  task: QueuedTask
  controller: AbortController
  startedAt: number
  progress: string
}

export class TaskQueue extends EventEmitter implements QueueView {
  private readonly waiting = new Map<string, QueuedTask[]>()
  /** Players in the order they will be served next. */
  private readonly rotation: string[] = []
  /** Interactive tasks, in arrival order, served before any other. */
  private readonly urgent: QueuedTask[] = []
  private running: Running | null = null
  /** The bot is off the server: nothing starts until `release`. */
  private held = false

  /** Adds a task; returns its position (0 = starts now), counting only the tasks that will run before it. */
  enqueue(task: QueuedTask): number {
    if (task.interactive) {
      this.urgent.push(task)
      const cur = this.running
      if (cur && !cur.task.interactive && !cur.controller.signal.aborted) {
        cur.task.onPreempt?.(task)
        cur.controller.abort(PREEMPTED)
      }
      queueMicrotask(() => this.pump())
      return cur ? this.urgent.length - (cur.task.interactive ? 0 : 1) : 0
    }
    this.push(task, false)
    const position = this.running ? this.size() : 0
    queueMicrotask(() => this.pump())
    return position
  }

  private push(task: QueuedTask, front: boolean): void {
    const list = this.waiting.get(task.player) ?? []
    if (front) list.unshift(task)
    else list.push(task)
    this.waiting.set(task.player, list)
    const i = this.rotation.indexOf(task.player)
    if (front && i > 0) this.rotation.splice(i, 1)
    if (front && i !== 0) this.rotation.unshift(task.player)
    else if (i < 0) this.rotation.push(task.player)
  }

  size(): number {
    let n = this.urgent.length
    for (const l of this.waiting.values()) n += l.length
    return n
  }

  /** How many tasks of this player are waiting (not running). */
  waitingFor(player: string): number {
    return (this.waiting.get(player)?.length ?? 0) + this.urgent.filter((t) => t.player === player).length
  }

  /** The order tasks would run in, for tests and `status`. */
  order(): QueuedTask[] {
    const copy = new Map([...this.waiting].map(([k, v]) => [k, [...v]]))
    const rot = [...this.rotation]
    const out: QueuedTask[] = [...this.urgent]
    while (rot.length > 0) {
      const p = rot.shift()!
      const l = copy.get(p)
      const t = l?.shift()
      if (t) out.push(t)
      if (l && l.length > 0) rot.push(p)
    }
    return out
  }

  private next(): QueuedTask | null {
    const u = this.urgent.shift()
    if (u) return u
    while (this.rotation.length > 0) {
      const player = this.rotation.shift()!
      const list = this.waiting.get(player)
      const task = list?.shift()
      if (list && list.length > 0) this.rotation.push(player)
      else this.waiting.delete(player)
      if (task) return task
    }
    return null
  }

  private pump(): void {
    if (this.running || this.held) return
    const task = this.next()
    if (!task) {
      this.emit('idle')
      return
    }
    const controller = new AbortController()
    this.running = { task, controller, startedAt: Date.now(), progress: '' }
    this.emit('start', task)
    void task
      .run(controller.signal)
      .catch(() => {
        /* the task reports its own errors */
      })
      .finally(() => {
        this.running = null
        if (isPaused(controller.signal)) this.push(task, true) // resumes after the interactive tasks or the reconnect
        this.emit('end', task)
        this.pump()
      })
  }

  setProgress(taskId: string, text: string): void {
    if (this.running?.task.id === taskId) this.running.progress = text
  }

  /**
   * The bot lost the server: start nothing until `release`, and pause the running task (it runs again first, from
   * what the bot then has); returns the paused task, or null when none ran.
   */
  hold(): QueuedTask | null {
    this.held = true
    const cur = this.running
    if (!cur || cur.controller.signal.aborted) return null
    cur.task.onHold?.()
    cur.controller.abort(DISCONNECTED)
    return cur.task
  }

  /** The bot is back on the server: tasks start again, a task paused by `hold` first. */
  release(): void {
    if (!this.held) return
    this.held = false
    queueMicrotask(() => this.pump())
  }

  /** Aborts the running task; returns it, or null when idle. */
  stopCurrent(): QueuedTask | null {
    if (!this.running) return null
    this.running.controller.abort()
    return this.running.task
  }

  /** Drops waiting tasks of one player (or everyone); returns how many. */
  clear(player?: string): number {
    let n = 0
    for (const [p, l] of this.waiting)
      if (!player || p === player) {
        n += l.length
        this.waiting.delete(p)
      }
    for (let i = this.urgent.length - 1; i >= 0; i--)
      if (!player || this.urgent[i]!.player === player) {
        this.urgent.splice(i, 1)
        n++
      }
    for (let i = this.rotation.length - 1; i >= 0; i--)
      if (!this.waiting.has(this.rotation[i]!)) this.rotation.splice(i, 1)
    return n
  }

  current(): TaskView | null {
    const r = this.running
    return r
      ? {
          id: r.task.id,
          player: r.task.player,
          command: r.task.command,
          text: r.task.text,
          startedAt: r.startedAt,
          progress: r.progress,
        }
      : null
  }

  pending(): TaskView[] {
    return this.order().map((t) => ({
      id: t.id,
      player: t.player,
      command: t.command,
      text: t.text,
      startedAt: 0,
      progress: '',
    }))
  }

  idle(): Promise<void> {
    return this.running || this.size() > 0 ? new Promise((r) => this.once('idle', () => r())) : Promise.resolve()
  }
}
