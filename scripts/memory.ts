/**
 * The `memory` CLI: inspect and maintain the shared plan memory (GHOST_DB: a SQLite file or a postgres:// URL) with
 * the same module the bot uses. Export from one GHOST_DB and import into another to move a memory between engines.
 *   npm run memory -- stats | list [limit] | show <goal> | export [file] | import <file> | forget <goal> | reembed
 * Commands that compute vectors (import, reembed) use the configured embedder: the remote one when GHOST_MODEL and
 * GHOST_EMBED_MODEL are set, else the built-in local one. The others open the file without touching vectors.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { formatProblems, loadConfig, type Config } from '../src/config.js'
import { createLlm, llmSettingsFromConfig, probeEmbedder } from '../src/llm/index.js'
import {
  exportMemory,
  formatGoalDetail,
  formatList,
  formatStats,
  importMemory,
  localEmbedder,
  openMemory,
  reembed,
  type Embedder,
} from '../src/memory/index.js'
import { GhostError } from '../src/util/errors.js'
import { setLogLevel } from '../src/util/log.js'
import { vetMemoryExport } from '../src/agent/vet-memory.js'
import { createKnowledge } from '../src/knowledge/index.js'
import { shippedBlueprints } from '../src/rules/build.js'
import { PRACTICE_DEFAULT_VERSION } from '../src/versions.js'

/** The critic's view for imports: this config's game version (the practice default for auto) and protected boxes. */
function vetImport(config: Config, data: unknown): ReturnType<typeof vetMemoryExport> {
  const kb = createKnowledge(config.MC_VERSION === 'auto' ? PRACTICE_DEFAULT_VERSION : config.MC_VERSION)
  return vetMemoryExport(kb, data, {
    blueprints: Object.keys(shippedBlueprints()),
    policy: { protected: config.GHOST_PROTECTED },
  })
}

const USAGE = `usage: npm run memory -- <command>
  stats             counts, file size and embedding model
  list [limit]      goals memory knows, most recent first (default 20)
  show <goal>       reference plan, recent plans and lessons of a goal key (e.g. iron_ingot)
  export [file]     write everything (plans, lessons, knowledge, named places; no vectors) as JSON to a file or stdout
  import <file>     merge an export into this memory (vectors are recomputed; a named place replaces an older one)
  forget <goal>     delete a goal's plans, reference plan and lessons
  reembed           recompute every vector with the configured embedder (after changing GHOST_EMBED_MODEL)`

async function configuredEmbedder(config: Config): Promise<Embedder> {
  const settings = llmSettingsFromConfig(config)
  if (settings?.embedModel) {
    const e = await probeEmbedder(createLlm(settings))
    if (e) return e
  }
  return localEmbedder()
}

async function main(argv: string[]): Promise<number> {
  const [cmd, arg] = argv
  if (!cmd || cmd === 'help' || cmd === '--help' || cmd === '-h') {
    process.stdout.write(`${USAGE}\n`)
    return cmd ? 0 : 1
  }
  const loaded = loadConfig()
  if (!loaded.ok) {
    process.stderr.write(`${formatProblems(loaded.problems)}\n`)
    return 2
  }
  setLogLevel(loaded.config.LOG_LEVEL)
  const path = loaded.config.GHOST_DB
  const out = (s: string): void => {
    process.stdout.write(`${s}\n`)
  }

  if (cmd === 'reembed') {
    const embedder = await configuredEmbedder(loaded.config)
    const r = await reembed(path, embedder, (done, total) => process.stderr.write(`\rre-embedding ${done}/${total}`))
    process.stderr.write('\n')
    out(
      `re-embedded ${r.plans} plans and ${r.knowledge} knowledge chunks: ${r.from.model ?? 'none'} (${r.from.dim ?? '-'} dims) → ${r.to.model} (${r.to.dim} dims)`,
    )
    return 0
  }
  const needsVectors = cmd === 'import'
  const store = await openMemory({ path, embedder: needsVectors ? await configuredEmbedder(loaded.config) : null })
  try {
    if (!store.available) {
      process.stderr.write(`${store.health()}\n`)
      return 1
    }
    switch (cmd) {
      case 'stats':
        out(formatStats(await store.stats()))
        return 0
      case 'list': {
        const limit = arg === undefined ? 20 : Number(arg)
        if (!Number.isInteger(limit) || limit < 1) {
          process.stderr.write('list takes a whole number, e.g. list 50\n')
          return 1
        }
        out(formatList(await store.list(limit)))
        return 0
      }
      case 'show': {
        if (!arg) {
          process.stderr.write('show needs a goal key, e.g. show iron_ingot\n')
          return 1
        }
        const d = await store.show(arg)
        if (!d) {
          out(`memory knows nothing about ${arg}; see \`npm run memory -- list\``)
          return 1
        }
        out(formatGoalDetail(d))
        return 0
      }
      case 'export': {
        const json = JSON.stringify(await exportMemory(store), null, 2)
        if (arg) {
          writeFileSync(arg, json)
          out(`exported to ${arg}`)
        } else out(json)
        return 0
      }
      case 'import': {
        if (!arg) {
          process.stderr.write('import needs a file written by export\n')
          return 1
        }
        // every imported plan passes the critic and the safety policy first (src/agent/vet-memory.ts)
        const v = vetImport(loaded.config, JSON.parse(readFileSync(arg, 'utf8')))
        for (const x of v.refused) process.stderr.write(`left out a plan for ${x.goalKey}: ${x.problems.join(' ')}\n`)
        const r = await importMemory(store, v.data as Parameters<typeof importMemory>[1])
        out(
          `imported ${r.plans} plans (${r.skippedPlans} already present), ${r.references} reference plans, ${r.lessons} lessons, ${r.knowledge} knowledge chunks, ${r.places} named places`,
        )
        return 0
      }
      case 'forget': {
        if (!arg) {
          process.stderr.write('forget needs a goal key, e.g. forget iron_ingot\n')
          return 1
        }
        const r = await store.forget(arg)
        out(`forgot ${arg}: ${r.plans} plans, ${r.references} reference plans, ${r.lessons} lessons`)
        return 0
      }
      default:
        process.stderr.write(`unknown command ${cmd}\n${USAGE}\n`)
        return 1
    }
  } finally {
    await store.close()
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (err: unknown) => {
    process.stderr.write(`${err instanceof GhostError ? err.message : ((err as Error).stack ?? String(err))}\n`)
    process.exitCode = 1
  },
)
