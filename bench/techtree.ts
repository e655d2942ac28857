/**
 * Tech-tree benchmark (`npm run bench:techtree`): the 262 Overworld items of GITM's Table 4. Each 1.11 name is
 * mapped to a 1.20.2 item through data/aliases/gitm-1.11.json, decomposed from an empty inventory by the knowledge
 * base, and executed in the dry-run world. Prints one row per item and writes bench/results/techtree.json with the
 * valid count, the impossible items and their reasons, warnings (items GITM obtained that we call impossible) and
 * timings. Exits non-zero when the benchmark file is missing.
 */
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { createKnowledge, runDryRun } from '../src/knowledge/index.js'
import { REPO_ROOT } from '../src/knowledge/data.js'
import { printTable, writeResult, type Row } from './lib/table.js'

const VERSION = '1.20.2'
const benchDir = path.resolve(REPO_ROOT, '../shared/benchmarks')
const tsv = path.join(benchDir, 'gitm-overworld-262.tsv')
if (!existsSync(tsv)) {
  process.stderr.write(`techtree: benchmark file not found: ${tsv}\n(expected the shared benchmarks folder next to the repository)\n`)
  process.exit(2)
}

interface AliasFile { aliases: Record<string, string | { item: string; note: string }> }
const aliases = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'data/aliases/gitm-1.11.json'), 'utf8')) as AliasFile).aliases
const mapName = (n: string): string => { const a = aliases[n]; return a === undefined ? n.replace(/\s+/g, '_') : typeof a === 'string' ? a : a.item }

const rows = readFileSync(tsv, 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#')).slice(1)
  .map((l) => { const [item = '', pct = '0'] = l.split('\t'); return { item: item.trim(), gitmPct: Number(pct) } })

const t0 = performance.now()
const k = createKnowledge(VERSION)
const initMs = performance.now() - t0

interface ItemResult {
  item: string; mapped: string; gitmPct: number; result: 'valid' | 'impossible' | 'failed'
  subGoals: number; steps: number; reason: string; decomposeMs: number; dryRunMs: number
}
const results: ItemResult[] = []
for (const { item, gitmPct } of rows) {
  const mapped = mapName(item)
  const td = performance.now()
  const d = k.decompose({ object: mapped, count: 1 }, {})
  const decomposeMs = performance.now() - td
  if (!d.ok) { results.push({ item, mapped, gitmPct, result: 'impossible', subGoals: 0, steps: 0, reason: d.reason, decomposeMs, dryRunMs: 0 }); continue }
  const run = runDryRun(k, d.steps, d.goal)
  results.push({ item, mapped, gitmPct, result: run.ok ? 'valid' : 'failed', subGoals: d.steps.length, steps: run.cost,
    reason: run.ok ? '' : run.message, decomposeMs, dryRunMs: run.durationMs })
}
const totalMs = performance.now() - t0

const table: Row[] = results.map((r) => ({
  item: r.item, '1.20.2': r.mapped, result: r.result, 'sub-goals': r.subGoals, steps: r.steps, 'GITM %': r.gitmPct, note: r.reason,
}))
printTable(table, { maxWidth: 60 })

const valid = results.filter((r) => r.result === 'valid')
const impossible = results.filter((r) => r.result === 'impossible').map((r) => ({ item: r.item, mapped: r.mapped, reason: r.reason }))
const failed = results.filter((r) => r.result === 'failed').map((r) => ({ item: r.item, mapped: r.mapped, reason: r.reason }))
const warnings = results.filter((r) => r.result !== 'valid' && r.gitmPct > 0).map((r) => ({ item: r.item, mapped: r.mapped, gitmPct: r.gitmPct, reason: r.reason }))
const gitmObtained = results.filter((r) => r.gitmPct > 0).length
const mean = (xs: number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0)

const summary = {
  version: VERSION,
  items: results.length,
  valid: valid.length,
  impossible,
  failed,
  warnings,
  gitmObtained,
  meanSubGoals: Number(mean(valid.map((r) => r.subGoals)).toFixed(2)),
  meanSteps: Number(mean(valid.map((r) => r.steps)).toFixed(2)),
  initMs: Math.round(initMs),
  totalMs: Math.round(totalMs),
  perItem: results.map((r) => ({ ...r, decomposeMs: Number(r.decomposeMs.toFixed(2)), dryRunMs: Number(r.dryRunMs.toFixed(3)) })),
}
const file = writeResult('techtree', summary)
process.stdout.write(`\nitems ${summary.items}  valid ${summary.valid}  impossible ${impossible.length}  failed ${failed.length}  ` +
  `GITM-obtained ${gitmObtained}  mean sub-goals ${summary.meanSubGoals}  mean steps ${summary.meanSteps}  init ${summary.initMs} ms  total ${summary.totalMs} ms\n`)
if (warnings.length) {
  process.stdout.write(`WARNING: ${warnings.length} item(s) GITM obtained are not valid here:\n`)
  for (const w of warnings) process.stdout.write(`  ${w.item} (${w.mapped}, GITM ${w.gitmPct}%): ${w.reason}\n`)
}
process.stdout.write(`wrote ${path.relative(REPO_ROOT, file)}\n`)
