/**
 * Public API of memory: the shared plan memory, in a SQLite file (better-sqlite3 + sqlite-vec) or in PostgreSQL
 * (pg + pgvector), chosen by GHOST_DB. Other layers import from here only; nothing outside src/memory touches a
 * database driver.
 */
export {
  MemoryStore,
  describeGoal,
  DEFAULT_K,
  DEFAULT_MIN_SIMILARITY,
  type MemoryOptions,
  type GoalDetail,
} from './store.js'
export { openMemory, isPostgresUrl, redactUrl } from './open.js'
export { localEmbedder, hashEmbed, cosine, LOCAL_EMBED_DIM, type Embedder } from './embedder.js'
export {
  offlineMerge,
  mergePlans,
  stepKey,
  summariserFrom,
  SUMMARY_BATCH,
  type Summariser,
  type SummaryInput,
} from './summarise.js'
export { exportMemory, importMemory, reembed, type ImportResult, type ReembedResult } from './maintenance.js'
export { formatAction, formatPlan, formatStats, formatList, formatGoalDetail } from './format.js'
export { integrityCheck, REEMBED_HINT, SCHEMA_VERSION } from './db.js'
export type { MemoryBackend, Neighbour } from './backend.js'
export { keptStore } from './ledger-store.js'
export { placedPort, PLACED_LIMIT, type PlacedPort } from './placed.js'
