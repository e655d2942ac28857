/**
 * The bridge's task-shaped messages: which client asked for which task (so it gets that task's events under its own
 * request id, whether or not it subscribed to `tasks`), the `task` message each client gets for an event (subscribers
 * see every task; a guest sees that others' tasks run, not what was asked, since requests may have been whispered),
 * and the `status` snapshot (the body's state, the current task and the queue length).
 */
import type { Router } from '../../router/router.js'
import type { TaskEvent } from '../../schemas/task.js'
import { WS_PROTOCOL_VERSION, type WsOut } from '../../schemas/ws.js'
import type { WsClient } from './client.js'

export interface TaskOwner {
  client: WsClient
  requestId: string
  seen: boolean
}

/** The router names a request's task `t-<request id>` (src/router/router.ts). */
const taskIdFor = (requestId: string): string => `t-${requestId}`
const isQueued = (router: Router, taskId: string): boolean =>
  router.queue.current()?.id === taskId || router.queue.pending().some((t) => t.id === taskId)

/** Who owns which task, from the request until its `finished` event (or until handling ends without a task). */
export class TaskOwners {
  private readonly owners = new Map<string, TaskOwner>()

  constructor(private readonly router: Router) {}

  /**
   * Send the events of router request `routerRequestId`'s task to `client` under its `requestId`. Call the returned
   * function once the router has handled the request: it forgets a request that made no task.
   */
  track(routerRequestId: string, client: WsClient, requestId: string): () => void {
    const taskId = taskIdFor(routerRequestId)
    const owner: TaskOwner = { client, requestId, seen: false }
    this.owners.set(taskId, owner)
    return () => {
      if (!owner.seen && !isQueued(this.router, taskId)) this.owners.delete(taskId)
    }
  }

  /** The owner of an event's task, now marked seen; a finished task is forgotten. */
  ownerOf(e: TaskEvent): TaskOwner | undefined {
    const owner = this.owners.get(e.taskId)
    if (owner) owner.seen = true
    if (e.kind === 'finished') this.owners.delete(e.taskId)
    return owner
  }
}

/** The `task` message client `c` gets for event `e` (null: none, it neither owns the task nor subscribed). */
export function taskMessage(c: WsClient, e: TaskEvent, owner: TaskOwner | undefined): WsOut | null {
  if (!c.role) return null
  if (owner && owner.client === c) return { v: WS_PROTOCOL_VERSION, type: 'task', event: e, requestId: owner.requestId }
  if (!c.topics.has('tasks')) return null
  // Guests see that others' tasks run, not what was asked (requests may have been whispered).
  const event = c.role === 'guest' && e.kind === 'started' ? { ...e, text: '' } : e
  return { v: WS_PROTOCOL_VERSION, type: 'task', event }
}

export function statusMessage(router: Router): WsOut {
  const s = router.services.body.status()
  const cur = router.queue.current()
  return {
    v: WS_PROTOCOL_VERSION,
    type: 'status',
    ...s,
    task: cur ? { id: cur.id, player: cur.player, command: cur.command, progress: cur.progress } : null,
    queued: router.queue.pending().length,
    at: Date.now(),
  }
}
