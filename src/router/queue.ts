/**
 * The task queue: one task at a time; waiting tasks are served round-robin across players (each player's own tasks
 * stay in order); `stopCurrent` aborts the running task at once. Tasks are plain async functions that honour an
 * AbortSignal. Instant commands never enter the queue.
 */
import { EventEmitter } from 'node:events'
import type { QueueView, TaskView } from '../router/services.js'

export interface QueuedTask {
  id: string
  player: string
  command: string
  text: string
  run(signal: AbortSignal): Promise<void>
}

interface Running { task: QueuedTask; controller: AbortController; startedAt: number; progress: string }

export class TaskQueue extends EventEmitter implements QueueView {
  private readonly waiting = new Map<string, QueuedTask[]>()
  /** Players in the order they will be served next. */
  private readonly rotation: string[] = []
  private running: Running | null = null

  /** Adds a task; returns its position (0 = starts now). */
  enqueue(task: QueuedTask): number {
    const list = this.waiting.get(task.player) ?? []
    list.push(task)
    this.waiting.set(task.player, list)
    if (!this.rotation.includes(task.player)) this.rotation.push(task.player)
    const position = this.running ? this.size() : 0
    queueMicrotask(() => this.pump())
    return position
  }

  size(): number { let n = 0; for (const l of this.waiting.values()) n += l.length; return n }

  /** The order tasks would run in, for tests and `status`. */
  order(): QueuedTask[] {
    const copy = new Map([...this.waiting].map(([k, v]) => [k, [...v]]))
    const rot = [...this.rotation]
    const out: QueuedTask[] = []
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
    if (this.running) return
    const task = this.next()
    if (!task) { this.emit('idle'); return }
    const controller = new AbortController()
    this.running = { task, controller, startedAt: Date.now(), progress: '' }
    this.emit('start', task)
    void task.run(controller.signal)
      .catch(() => { /* the task reports its own errors */ })
      .finally(() => {
        this.running = null
        this.emit('end', task)
        this.pump()
      })
  }

  setProgress(taskId: string, text: string): void { if (this.running?.task.id === taskId) this.running.progress = text }

  /** Aborts the running task; returns it, or null when idle. */
  stopCurrent(): QueuedTask | null {
    if (!this.running) return null
    this.running.controller.abort()
    return this.running.task
  }

  /** Drops waiting tasks of one player (or everyone); returns how many. */
  clear(player?: string): number {
    let n = 0
    for (const [p, l] of this.waiting) if (!player || p === player) { n += l.length; this.waiting.delete(p) }
    for (let i = this.rotation.length - 1; i >= 0; i--) if (!this.waiting.has(this.rotation[i]!)) this.rotation.splice(i, 1)
    return n
  }

  current(): TaskView | null {
    const r = this.running
    return r ? { id: r.task.id, player: r.task.player, command: r.task.command, text: r.task.text, startedAt: r.startedAt, progress: r.progress } : null
  }

  pending(): TaskView[] {
    return this.order().map((t) => ({ id: t.id, player: t.player, command: t.command, text: t.text, startedAt: 0, progress: '' }))
  }

  idle(): Promise<void> { return this.running || this.size() > 0 ? new Promise((r) => this.once('idle', () => r())) : Promise.resolve() }
}
