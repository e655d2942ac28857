/**
 * The live goal tree of the web page: task events (src/schemas/task.ts, received over the ws bridge) folded into
 * per-task state — each sub-goal node with its current state (pending, running, done, failed, skipped), every state
 * it has been in (`data-states`, in order), and the time spent running — and rendered for the task shown (the one
 * that started last). Progress messages (re-plans) and action results go to the events log as they arrive.
 */
import type { TaskEvent } from '../../../schemas/task.js'
import { appendLog, byId, el, replaceChildren, seconds } from './dom.js'

type Status = 'pending' | 'running' | 'done' | 'failed' | 'skipped'
interface GoalNode {
  id: string
  label: string
  depth: number
  status: Status
  states: Status[]
  runningSince: number | null
  spentMs: number
}
interface TaskState {
  id: string
  command: string
  player: string
  text: string
  startedAt: number
  nodes: Map<string, GoalNode>
  message: string
  done: number
  total: number
  finished: { ok: boolean; message: string; durationMs: number } | null
}

export class GoalTree {
  private readonly tasks = new Map<string, TaskState>()
  private shown: string | null = null

  constructor() {
    setInterval(() => this.render(), 1000)
  }

  /** The task id shown, for tests and the stop button's label. */
  get current(): string | null {
    return this.shown
  }

  apply(e: TaskEvent): void {
    const t = this.task(e.taskId)
    const now = Date.now()
    switch (e.kind) {
      case 'queued':
        t.command = e.command
        t.player = e.player
        break
      case 'started':
        Object.assign(t, { command: e.command, player: e.player, text: e.text, startedAt: now })
        this.shown = t.id
        this.log(t, `started ${e.command} for ${e.player}`, '')
        break
      case 'progress':
        for (const s of e.subgoals) this.node(t, s.id, s.label, s.depth, s.status, now)
        if (e.message !== t.message) this.log(t, e.message, '')
        Object.assign(t, { message: e.message, done: e.done, total: e.total })
        if (this.shown === null) this.shown = t.id
        break
      case 'action':
        this.log(
          t,
          `${e.ok ? '✓' : '✗'} ${e.action}: ${e.message}${e.reason ? ` (${e.reason})` : ''}`,
          e.ok ? 'good' : 'bad',
        )
        break
      case 'finished':
        t.finished = { ok: e.ok, message: e.message, durationMs: e.durationMs }
        for (const n of t.nodes.values())
          if (n.runningSince !== null) {
            n.spentMs += now - n.runningSince
            n.runningSince = null
          }
        this.log(
          t,
          `finished (${e.ok ? 'ok' : 'not ok'}) in ${seconds(e.durationMs)}: ${e.message}`,
          e.ok ? 'good' : 'bad',
        )
        break
    }
    if (this.tasks.size > 20) this.tasks.delete(this.tasks.keys().next().value as string)
    this.render()
  }

  private task(id: string): TaskState {
    let t = this.tasks.get(id)
    if (!t) {
      t = {
        id,
        command: '?',
        player: '?',
        text: '',
        startedAt: Date.now(),
        nodes: new Map(),
        message: '',
        done: 0,
        total: 0,
        finished: null,
      }
      this.tasks.set(id, t)
    }
    return t
  }

  private node(t: TaskState, id: string, label: string, depth: number, status: Status, now: number): void {
    let n = t.nodes.get(id)
    if (!n) {
      n = { id, label, depth, status, states: [status], runningSince: status === 'running' ? now : null, spentMs: 0 }
      t.nodes.set(id, n)
      return
    }
    if (n.status === status) return
    if (n.runningSince !== null) {
      n.spentMs += now - n.runningSince
      n.runningSince = null
    }
    if (status === 'running') n.runningSince = now
    n.status = status
    n.states.push(status)
  }

  private log(t: TaskState, text: string, cls: string): void {
    appendLog(
      byId('events'),
      el('li', { cls, attrs: { 'data-task': t.id } }, [
        el('span', { cls: 'time', text: new Date().toLocaleTimeString() }),
        ' ',
        text,
      ]),
    )
  }

  render(): void {
    const t = this.shown ? this.tasks.get(this.shown) : undefined
    const head = byId('task-head')
    if (!t) {
      head.textContent = 'idle'
      replaceChildren(byId('goal-tree'), [])
      return
    }
    const now = Date.now()
    const state = t.finished ? (t.finished.ok ? 'done' : 'failed') : 'running'
    const took = t.finished ? t.finished.durationMs : now - t.startedAt
    head.replaceChildren(
      el('b', { text: t.command }),
      ` for ${t.player}`,
      t.text ? ` — “${t.text}”` : '',
      el('span', {
        cls: `meta ${state === 'failed' ? 'bad' : state === 'done' ? 'good' : ''}`,
        text: ` ${state}, ${t.done}/${t.total} sub-goals, ${seconds(took)}`,
        attrs: { id: 'task-state', 'data-state': state },
      }),
      t.finished ? el('div', { cls: 'meta', text: t.finished.message }) : '',
    )
    head.setAttribute('data-task', t.id)
    const items = [...t.nodes.values()].map((n) => {
      const spent = n.spentMs + (n.runningSince !== null ? now - n.runningSince : 0)
      const li = el(
        'li',
        {
          cls: `st-${n.status}`,
          attrs: { 'data-id': n.id, 'data-status': n.status, 'data-states': n.states.join(' ') },
        },
        [
          el('span', { cls: 'state', text: n.status }),
          n.label,
          el('span', { cls: 'time', text: spent > 0 ? seconds(spent) : '' }),
        ],
      )
      li.style.marginLeft = `${n.depth * 16}px` // CSSOM, allowed by the page's CSP (a style attribute is not)
      return li
    })
    replaceChildren(byId('goal-tree'), items)
  }
}
