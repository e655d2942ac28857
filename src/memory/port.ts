/**
 * The `memory` command's view of the store (the router's MemoryPort): short chat-sized texts for stats, the goal
 * list, one goal's detail, forgetting a goal, and a health line for `status` while memory is unreachable. Chat
 * replies are split by the channel, so these stay plain text.
 */
import type { MemoryPort, PlaceView, PlacesPort } from '../router/services.js'
import type { NamedPlace } from '../schemas/memory.js'
import { formatGoalDetail, formatStats } from './format.js'
import type { MemoryStore } from './store.js'

export function memoryPort(store: MemoryStore): MemoryPort {
  return {
    stats: async () =>
      store.available
        ? formatStats(await store.stats()).replace(/\n/g, '; ')
        : (store.health() ?? 'memory is unavailable'),
    list: async (limit) =>
      (await store.list(limit)).map(
        (g) => `${g.goalKey} (${g.successes}/${g.plans} ok${g.hasReference ? ', summarised' : ''})`,
      ),
    show: async (goalKey) => {
      const d = await store.show(goalKey, 3)
      return d ? formatGoalDetail(d) : null
    },
    forget: async (goalKey) => {
      const r = await store.forget(goalKey)
      return r.plans + r.references + r.lessons
    },
    health: () => store.health(),
  }
}

/** Named places of one server (`server` = host:port) over the store, for the `remember`/`forget` commands and `goto`. */
export function placesPort(store: MemoryStore, server: string): PlacesPort {
  const view = (p: NamedPlace): PlaceView => ({
    name: p.name,
    x: p.x,
    y: p.y,
    z: p.z,
    dimension: p.dimension,
    owner: p.owner,
  })
  return {
    async remember(name, at, by, isOwner) {
      const key = placeKey(name)
      if (!key)
        return {
          ok: false,
          text: `"${name}" is not a name I can use for a place (letters, digits and spaces, up to 40).`,
        }
      const old = await store.place(server, key)
      if (old && old.owner !== by && !isOwner)
        return { ok: false, text: `${key} was saved by ${old.owner}; only they or an owner can move it.` }
      await store.savePlace({ server, name: key, ...at, owner: by, createdAt: Date.now() })
      return { ok: true, text: `I'll remember ${at.x} ${at.y} ${at.z} as ${key}${old ? ' (moved)' : ''}.` }
    },
    async find(name) {
      const key = placeKey(name)
      const p = key ? await store.place(server, key) : null
      return p ? view(p) : null
    },
    async list() {
      return (await store.places(server)).map(view)
    },
    async forget(name, by, isOwner) {
      const key = placeKey(name)
      const old = key ? await store.place(server, key) : null
      if (!key || !old) return { ok: false, text: `I know no place called ${name}.` }
      if (old.owner !== by && !isOwner)
        return { ok: false, text: `${key} was saved by ${old.owner}; only they or an owner can forget it.` }
      await store.deletePlace(server, key)
      return { ok: true, text: `I forgot ${key}.` }
    },
  }
}

/** "My Base" → "my_base"; null when it is not a usable name. */
export function placeKey(name: string): string | null {
  const key = name
    .trim()
    .toLowerCase()
    .replace(/^(?:the|my|our)\s+/, '')
    .replace(/\s+/g, '_')
  return /^[a-z0-9_]{1,40}$/.test(key) ? key : null
}
