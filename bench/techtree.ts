/**
 * Tech-tree benchmark (`npm run bench:techtree`): the 262 Overworld items of GITM's Table 4, per Minecraft version
 * (`TECHTREE_VERSION`: one version or a comma-separated list; default every supported one, src/versions.ts). Each
 * 1.11 name is mapped to a 1.20.2 item through data/aliases/gitm-1.11.json and then to the version's id through the
 * rename table (src/knowledge/version-data.ts; the renames used are printed), decomposed from an empty inventory by
 * the knowledge base, and executed in the dry-run world. Prints one row per item when one version is asked for, and
 * one row per version always; writes bench/results/techtree.json with, per version, the valid count, the impossible
 * items and their reasons, warnings (items GITM obtained that we call impossible) and timings. Exits 2 when the
 * benchmark file is missing or a version is not supported, 1 when any version has a warning or a failed dry run.
 */
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { createKnowledge, runDryRun } from '../src/knowledge/index.js'
import { REPO_ROOT } from '../src/knowledge/data.js'
import { renamesFor } from '../src/knowledge/version-data.js'
import { SUPPORTED_VERSIONS } from '../src/versions.js'
import { printTable, writeResult } from './lib/table.js'

const asked = (process.env.TECHTREE_VERSION ?? '')
  .split(',')
  .map((v) => v.trim())
  .filter(Boolean)
const versions = asked.length > 0 ? asked : [...SUPPORTED_VERSIONS]
const unsupported = versions.filter((v) => !SUPPORTED_VERSIONS.includes(v))
if (unsupported.length > 0) {
  process.stderr.write(
    `techtree: TECHTREE_VERSION names unsupported version(s) ${unsupported.join(', ')}; supported: ${SUPPORTED_VERSIONS.join(', ')}\n`,
  )
  process.exit(2)
}
const benchDir = path.resolve(REPO_ROOT, '../shared/benchmarks')
const tsv = path.join(benchDir, 'gitm-overworld-262.tsv')
if (!existsSync(tsv)) {
  process.stderr.write(
    `techtree: benchmark file not found: ${tsv}\n(expected the shared benchmarks folder next to the repository)\n`,
  )
  process.exit(2)
}

interface AliasFile {
  aliases: Record<string, string | { item: string; note: string }>
}
const aliases = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'data/aliases/gitm-1.11.json'), 'utf8')) as AliasFile)
  .aliases
const mapName = (n: string): string => {
  const a = aliases[n]
  return a === undefined ? n.replace(/\s+/g, '_') : typeof a === 'string' ? a : a.item
}

const rows = readFileSync(tsv, 'utf8')
  .split('\n')
  .filter((l) => l.trim() && !l.startsWith('#'))
  .slice(1)
  .map((l) => {
    const [item = '', pct = '0'] = l.split('\t')
    return { item: item.trim(), gitmPct: Number(pct) }
  })

interface ItemResult {
  item: string
  mapped: string
  gitmPct: number
  result: 'valid' | 'impossible' | 'failed'
  subGoals: number
  steps: number
  reason: string
  decomposeMs: number
  dryRunMs: number
}
const mean = (xs: number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0)

/** Decompose and dry-run every GITM item at one version. */
function runVersion(version: string) {
  const t0 = performance.now()
  const k = createKnowledge(version)
  const initMs = performance.now() - t0
  const renames = renamesFor(k.data.mc)
  const renamed: Record<string, string> = {}
  const results: ItemResult[] = []
  for (const { item, gitmPct } of rows) {
    const base = mapName(item)
    const mapped = renames.get(base) ?? base
    if (mapped !== base) renamed[base] = mapped
    const td = performance.now()
    const d = k.decompose({ object: mapped, count: 1 }, {})
    const decomposeMs = performance.now() - td
    if (!d.ok) {
      results.push({
        item,
        mapped,
        gitmPct,
        result: 'impossible',
        subGoals: 0,
        steps: 0,
        reason: d.reason,
        decomposeMs,
        dryRunMs: 0,
      })
      continue
    }
    const run = runDryRun(k, d.steps, d.goal)
    results.push({
      item,
      mapped,
      gitmPct,
      result: run.ok ? 'valid' : 'failed',
      subGoals: d.steps.length,
      steps: run.cost,
      reason: run.ok ? '' : run.message,
      decomposeMs,
      dryRunMs: run.durationMs,
    })
  }
  const valid = results.filter((r) => r.result === 'valid')
  return {
    version,
    items: results.length,
    valid: valid.length,
    renamed,
    impossible: results
      .filter((r) => r.result === 'impossible')
      .map((r) => ({ item: r.item, mapped: r.mapped, reason: r.reason })),
    failed: results
      .filter((r) => r.result === 'failed')
      .map((r) => ({ item: r.item, mapped: r.mapped, reason: r.reason })),
    warnings: results
      .filter((r) => r.result !== 'valid' && r.gitmPct > 0)
      .map((r) => ({ item: r.item, mapped: r.mapped, gitmPct: r.gitmPct, reason: r.reason })),
    gitmObtained: results.filter((r) => r.gitmPct > 0).length,
    meanSubGoals: Number(mean(valid.map((r) => r.subGoals)).toFixed(2)),
    meanSteps: Number(mean(valid.map((r) => r.steps)).toFixed(2)),
    initMs: Math.round(initMs),
    totalMs: Math.round(performance.now() - t0),
    perItem: results.map((r) => ({
      ...r,
      decomposeMs: Number(r.decomposeMs.toFixed(2)),
      dryRunMs: Number(r.dryRunMs.toFixed(3)),
    })),
  }
}

const summaries = versions.map(runVersion)
if (summaries.length === 1) {
  const only = summaries[0]!
  printTable(
    only.perItem.map((r) => ({
      item: r.item,
      [only.version]: r.mapped,
      result: r.result,
      'sub-goals': r.subGoals,
      steps: r.steps,
      'GITM %': r.gitmPct,
      note: r.reason,
    })),
    { maxWidth: 60 },
  )
  process.stdout.write('\n')
}
printTable(
  summaries.map((s) => ({
    version: s.version,
    items: s.items,
    valid: s.valid,
    impossible: s.impossible.length,
    failed: s.failed.length,
    warnings: s.warnings.length,
    'mean sub-goals': s.meanSubGoals,
    'mean steps': s.meanSteps,
    'init ms': s.initMs,
    'total ms': s.totalMs,
    renamed: Object.entries(s.renamed)
      .map(([a, b]) => `${a} → ${b}`)
      .join(', '),
  })),
  { maxWidth: 60 },
)
const file = writeResult('techtree', { versions: summaries })
for (const s of summaries) {
  for (const w of s.warnings)
    process.stdout.write(`WARNING ${s.version}: ${w.item} (${w.mapped}, GITM ${w.gitmPct}%): ${w.reason}\n`)
  for (const f of s.failed) process.stdout.write(`FAILED ${s.version}: ${f.item} (${f.mapped}): ${f.reason}\n`)
}
process.stdout.write(`wrote ${path.relative(REPO_ROOT, file)}\n`)
if (summaries.some((s) => s.warnings.length > 0 || s.failed.length > 0)) process.exitCode = 1
