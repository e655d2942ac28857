/**
 * The `memory` command's view of the store (the router's MemoryPort): short chat-sized texts for stats, the goal
 * list, one goal's detail, and forgetting a goal. Chat replies are split by the channel, so these stay plain text.
 */
import type { MemoryPort } from '../router/services.js'
import { formatGoalDetail, formatStats } from './format.js'
import type { MemoryStore } from './store.js'

export function memoryPort(store: MemoryStore): MemoryPort {
  return {
    stats: () => formatStats(store.stats()).replace(/\n/g, '; '),
    list: (limit) => store.list(limit).map((g) => `${g.goalKey} (${g.successes}/${g.plans} ok${g.hasReference ? ', summarised' : ''})`),
    show: (goalKey) => { const d = store.show(goalKey, 3); return d ? formatGoalDetail(d) : null },
    forget: async (goalKey) => { const r = await store.forget(goalKey); return r.plans + r.references + r.lessons },
  }
}
