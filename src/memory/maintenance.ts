/**
 * Memory maintenance used by the `memory` CLI, the same for both engines: export to a portable JSON file (no
 * vectors), import such a file (re-embedding with the configured embedder, skipping plans, lessons and chunks
 * already present) — together they move a memory between a SQLite file and PostgreSQL — and `reembed`, which
 * rebuilds every vector for a new embedder. Reembed computes all vectors first and then swaps them in one
 * transaction, so a crash leaves the old vectors intact.
 */
import { MemoryExport, MEMORY_EXPORT_VERSION, type MemoryExport as MemoryExportT } from '../schemas/memory.js'
import { GhostError } from '../util/errors.js'
import type { NewLesson, NewPlan } from './backend.js'
import type { Embedder } from './embedder.js'
import { openMemory } from './open.js'
import type { MemoryStore } from './store.js'

const BATCH = 500

export async function exportMemory(store: MemoryStore): Promise<MemoryExportT> {
  const all = await store.backend.everything()
  return MemoryExport.parse({
    format: 'ghostcraft-memory',
    version: MEMORY_EXPORT_VERSION,
    exportedAt: Date.now(),
    plans: all.plans.map(({ id: _id, ...rest }) => rest),
    references: all.references,
    lessons: all.lessons.map(({ id: _id, ...rest }) => rest),
    knowledge: all.knowledge.map(({ id: _id, ...rest }) => rest),
    places: await store.backend.places(null),
  })
}

export interface ImportResult {
  plans: number
  skippedPlans: number
  references: number
  lessons: number
  knowledge: number
  /** Named places saved (new, or newer than the one of that name already there). */
  places: number
}

/** Merge an export into the store. Plans already present (same goal, time, bot, player and actions) are skipped. */
export async function importMemory(store: MemoryStore, data: unknown): Promise<ImportResult> {
  const parsed = MemoryExport.safeParse(data)
  if (!parsed.success) {
    const i = parsed.error.issues[0]
    throw new GhostError(
      'bad_input',
      `not a Ghostcraft memory export: ${i ? `${i.path.join('.')} ${i.message}` : 'invalid'}`,
    )
  }
  const dump = parsed.data
  const b = store.backend
  const fresh: NewPlan[] = []
  for (const p of dump.plans) if (!(await b.hasPlan(p))) fresh.push(p)
  const result: ImportResult = {
    plans: 0,
    skippedPlans: dump.plans.length - fresh.length,
    references: 0,
    lessons: 0,
    knowledge: 0,
    places: 0,
  }
  for (let i = 0; i < fresh.length; i += BATCH)
    result.plans += (await store.recordPlans(fresh.slice(i, i + BATCH), { summarise: false })).length
  for (const r of dump.references) if (await b.upsertReferenceIfNewer(r)) result.references++
  for (const l of dump.lessons) {
    const lesson: NewLesson = l
    if (await b.hasLesson(lesson)) continue
    await store.addLesson(l)
    result.lessons++
  }
  const chunks = []
  for (const k of dump.knowledge) if (!(await b.hasChunk(k))) chunks.push(k)
  for (let i = 0; i < chunks.length; i += BATCH)
    result.knowledge += (await store.addKnowledge(chunks.slice(i, i + BATCH))).length
  for (const p of dump.places) {
    const there = await b.place(p.server, p.name)
    if (there && there.createdAt >= p.createdAt) continue
    await b.savePlace(p)
    result.places++
  }
  // summaries stay per server: each imported server's plans are summarised apart ('' for plans without a server)
  const pending = fresh.filter((p) => p.outcome === 'success' && !p.summarised)
  for (const k of new Set(pending.map((p) => JSON.stringify([p.goalKey, p.server ?? '']))))
    await store.summariseGoal(...(JSON.parse(k) as [string, string]))
  return result
}

export interface ReembedResult {
  plans: number
  knowledge: number
  from: { model: string | null; dim: number | null }
  to: { model: string; dim: number }
}

/** Rebuild every vector of the memory at `path` (file or URL) with `embedder`, whatever the stored vectors were made with. */
export async function reembed(
  path: string,
  embedder: Embedder,
  onProgress?: (done: number, total: number) => void,
): Promise<ReembedResult> {
  const store = await openMemory({ path, embedder, allowEmbedderMismatch: true })
  try {
    if (!store.available) throw new GhostError('memory', store.health() ?? 'memory is unavailable')
    const b = store.backend
    const from = { model: b.embedModel(), dim: b.embedDim() }
    const all = await b.everything()
    const total = all.plans.length + all.knowledge.length
    const embedAll = async (texts: string[], offset: number): Promise<Float32Array[]> => {
      const out: Float32Array[] = []
      for (let i = 0; i < texts.length; i += 256) {
        const vs = await embedder.embed(texts.slice(i, i + 256))
        if (vs.some((v) => v.length !== embedder.dim))
          throw new GhostError('memory', `embedder ${embedder.model} returned vectors of the wrong length`)
        out.push(...vs)
        onProgress?.(offset + out.length, total)
      }
      return out
    }
    const planVecs = await embedAll(
      all.plans.map((p) => p.goalText),
      0,
    )
    const chunkVecs = await embedAll(
      all.knowledge.map((c) => c.text),
      all.plans.length,
    )
    await b.replaceVectors(
      embedder.model,
      embedder.dim,
      all.plans.map((p, i) => ({ id: p.id, ok: p.outcome === 'success', v: planVecs[i]! })),
      all.knowledge.map((c, i) => ({ id: c.id, v: chunkVecs[i]! })),
    )
    return {
      plans: all.plans.length,
      knowledge: all.knowledge.length,
      from,
      to: { model: embedder.model, dim: embedder.dim },
    }
  } finally {
    await store.close()
  }
}
