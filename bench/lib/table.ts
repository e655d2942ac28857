/**
 * Generic benchmark helpers shared by every bench/*.ts script: print rows as an aligned plain-text table on stdout
 * and write a result object as bench/results/<name>.json (pretty-printed, directory created on demand).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export type Cell = string | number | boolean | null | undefined
export type Row = Record<string, Cell>

const RESULTS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../results')

function show(v: Cell): string {
  if (v === null || v === undefined) return ''
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toFixed(1)
  return String(v)
}

/** Print rows as a table; columns are the union of keys in first-seen order; numbers are right-aligned. */
export function printTable(rows: Row[], opts: { maxWidth?: number; out?: (line: string) => void } = {}): void {
  const out = opts.out ?? ((l: string) => process.stdout.write(`${l}\n`))
  const maxWidth = opts.maxWidth ?? 48
  const cols: string[] = []
  for (const r of rows) for (const k of Object.keys(r)) if (!cols.includes(k)) cols.push(k)
  const cell = (r: Row, c: string): string => {
    const s = show(r[c])
    return s.length > maxWidth ? `${s.slice(0, maxWidth - 1)}…` : s
  }
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r, c).length)))
  const numeric = cols.map((c) => rows.every((r) => r[c] === undefined || r[c] === null || typeof r[c] === 'number'))
  const line = (vals: string[]): string =>
    vals
      .map((v, i) => (numeric[i] ? v.padStart(width[i]!) : v.padEnd(width[i]!)))
      .join('  ')
      .trimEnd()
  out(line(cols))
  out(width.map((w) => '-'.repeat(w)).join('  '))
  for (const r of rows) out(line(cols.map((c) => cell(r, c))))
}

/** Write `obj` to bench/results/<name>.json and return the path. */
export function writeResult(name: string, obj: unknown): string {
  mkdirSync(RESULTS_DIR, { recursive: true })
  const file = path.join(RESULTS_DIR, `${name}.json`)
  writeFileSync(file, `${JSON.stringify(obj, null, 2)}\n`)
  return file
}
