/**
 * Memory maintenance used by the `memory` CLI: export to a portable JSON file (no vectors), import such a file
 * (re-embedding with the configured embedder, skipping plans, lessons and chunks already present) and `reembed`, which rebuilds every
 * vector for a new embedder when the model or dimension changed. Reembed computes all vectors first and then swaps
 * the vec0 tables in one transaction, so a crash leaves the old vectors intact.
 */
import { MemoryExport, MEMORY_EXPORT_VERSION, type MemoryExport as MemoryExportT } from '../schemas/memory.js'
import { GhostError } from '../util/errors.js'
import { openMemoryDb, resetVectors, vecBlob, writeTx } from './db.js'
import type { Embedder } from './embedder.js'
import { lessonFromRow, planFromRow, referenceFromRow, type MemoryStore } from './store.js'

const BATCH = 500

export function exportMemory(store: MemoryStore): MemoryExportT {
  const db = store.db
  // Read everything in one read transaction so the export is a consistent snapshot.
  return db.transaction(() => {
    const plans = (db.prepare('SELECT * FROM plans ORDER BY id').all() as Parameters<typeof planFromRow>[0][])
      .map(planFromRow).filter((p) => p !== null).map(({ id: _id, ...rest }) => rest)
    const references = (db.prepare('SELECT * FROM reference_plans ORDER BY goal_key').all() as Parameters<typeof referenceFromRow>[0][])
      .map(referenceFromRow).filter((r) => r !== null)
    const lessons = (db.prepare('SELECT * FROM lessons ORDER BY id').all() as Parameters<typeof lessonFromRow>[0][])
      .map(lessonFromRow).map(({ id: _id, ...rest }) => rest)
    const knowledge = (db.prepare('SELECT source, text, created_at FROM knowledge ORDER BY id').all() as Array<{ source: string; text: string; created_at: number }>)
      .map((k) => ({ source: k.source, text: k.text, createdAt: k.created_at }))
    return MemoryExport.parse({ format: 'ghostcraft-memory', version: MEMORY_EXPORT_VERSION, exportedAt: Date.now(), plans, references, lessons, knowledge })
  })()
}

export interface ImportResult { plans: number; skippedPlans: number; references: number; lessons: number; knowledge: number }

/** Merge an export into the store. Plans already present (same goal, time, bot, player and actions) are skipped. */
export async function importMemory(store: MemoryStore, data: unknown): Promise<ImportResult> {
  const parsed = MemoryExport.safeParse(data)
  if (!parsed.success) {
    const i = parsed.error.issues[0]
    throw new GhostError('bad_input', `not a Ghostcraft memory export: ${i ? `${i.path.join('.')} ${i.message}` : 'invalid'}`)
  }
  const dump = parsed.data
  const db = store.db
  const exists = db.prepare(`SELECT 1 FROM plans WHERE goal_key = ? AND created_at = ? AND actions = ? AND player IS ? AND bot IS ? LIMIT 1`)
  const fresh = dump.plans.filter((p) => !exists.get(p.goalKey, p.createdAt, JSON.stringify(p.actions), p.player, p.bot))
  const result: ImportResult = { plans: 0, skippedPlans: dump.plans.length - fresh.length, references: 0, lessons: 0, knowledge: 0 }
  for (let i = 0; i < fresh.length; i += BATCH) {
    const batch = fresh.slice(i, i + BATCH)
    const ids = await store.recordPlans(batch, { summarise: false })
    const done = ids.filter((_, j) => batch[j]!.summarised)
    if (done.length > 0) await writeTx(db, () => { for (const id of done) db.prepare('UPDATE plans SET summarised = 1 WHERE id = ?').run(id) })
    result.plans += ids.length
  }
  result.references = await writeTx(db, () => {
    let n = 0
    const cur = db.prepare('SELECT updated_at FROM reference_plans WHERE goal_key = ?')
    const up = db.prepare(`INSERT INTO reference_plans (goal_key, goal_text, actions, source_count, summariser, updated_at) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (goal_key) DO UPDATE SET goal_text = excluded.goal_text, actions = excluded.actions, source_count = excluded.source_count,
      summariser = excluded.summariser, updated_at = excluded.updated_at`)
    for (const r of dump.references) {
      const have = cur.get(r.goalKey) as { updated_at: number } | undefined
      if (have && have.updated_at >= r.updatedAt) continue
      up.run(r.goalKey, r.goalText, JSON.stringify(r.actions), r.sourceCount, r.summariser, r.updatedAt)
      n++
    }
    return n
  })
  const hasLesson = db.prepare('SELECT 1 FROM lessons WHERE goal_key = ? AND cause = ? AND created_at = ? LIMIT 1')
  for (const l of dump.lessons) {
    if (hasLesson.get(l.goalKey, l.cause, l.createdAt)) continue
    await store.addLesson(l)
    result.lessons++
  }
  const hasChunk = db.prepare('SELECT 1 FROM knowledge WHERE source = ? AND text = ? LIMIT 1')
  const chunks = dump.knowledge.filter((k) => !hasChunk.get(k.source, k.text))
  for (let i = 0; i < chunks.length; i += BATCH) result.knowledge += (await store.addKnowledge(chunks.slice(i, i + BATCH))).length
  for (const key of new Set(fresh.filter((p) => p.outcome === 'success' && !p.summarised).map((p) => p.goalKey))) await store.summariseGoal(key)
  return result
}

export interface ReembedResult { plans: number; knowledge: number; from: { model: string | null; dim: number | null }; to: { model: string; dim: number } }

/** Rebuild every vector in the database at `path` with `embedder`, whatever the stored vectors were made with. */
export async function reembed(path: string, embedder: Embedder, onProgress?: (done: number, total: number) => void): Promise<ReembedResult> {
  const mdb = openMemoryDb(path, { embedder, allowEmbedderMismatch: true })
  try {
    const db = mdb.db
    const from = { model: mdb.embedModel, dim: mdb.embedDim }
    const plans = db.prepare('SELECT id, goal_text AS text, outcome FROM plans ORDER BY id').all() as Array<{ id: number; text: string; outcome: string }>
    const chunks = db.prepare('SELECT id, text FROM knowledge ORDER BY id').all() as Array<{ id: number; text: string }>
    const total = plans.length + chunks.length
    const embedAll = async (texts: string[], offset: number): Promise<Float32Array[]> => {
      const out: Float32Array[] = []
      for (let i = 0; i < texts.length; i += 256) {
        const vs = await embedder.embed(texts.slice(i, i + 256))
        if (vs.some((v) => v.length !== embedder.dim)) throw new GhostError('memory', `embedder ${embedder.model} returned vectors of the wrong length`)
        out.push(...vs)
        onProgress?.(offset + out.length, total)
      }
      return out
    }
    const planVecs = await embedAll(plans.map((p) => p.text), 0)
    const chunkVecs = await embedAll(chunks.map((c) => c.text), plans.length)
    await writeTx(db, () => {
      const now = db.prepare('SELECT (SELECT count(*) FROM plans) + (SELECT count(*) FROM knowledge) AS n').get() as { n: number }
      if (now.n !== total) throw new GhostError('busy', 'memory changed while re-embedding; stop the bots and run reembed again')
      resetVectors(db, embedder)
      const insP = db.prepare('INSERT INTO plan_vec (plan_id, embedding, ok, model, dim) VALUES (?, ?, ?, ?, ?)')
      plans.forEach((p, i) => insP.run(BigInt(p.id), vecBlob(planVecs[i]!), p.outcome === 'success' ? 1n : 0n, embedder.model, BigInt(embedder.dim)))
      const insK = db.prepare('INSERT INTO knowledge_vec (chunk_id, embedding, model, dim) VALUES (?, ?, ?, ?)')
      chunks.forEach((c, i) => insK.run(BigInt(c.id), vecBlob(chunkVecs[i]!), embedder.model, BigInt(embedder.dim)))
    })
    return { plans: plans.length, knowledge: chunks.length, from, to: { model: embedder.model, dim: embedder.dim } }
  } finally {
    mdb.close()
  }
}
