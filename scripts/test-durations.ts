/**
 * `npm run -s test:durations` — runs the whole suite with vitest's JSON reporter and writes test/durations.json
 * (seconds per test file, longest first), which the test sequencer (test/helpers/sequencer.ts) uses to start the
 * longest files first. Re-run it after adding or slowing down an integration test.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { DURATIONS_FILE } from '../test/helpers/sequencer.js'

interface JsonReport {
  testResults: Array<{ name: string; startTime: number; endTime: number }>
}

const root = process.cwd()
const out = path.join(tmpdir(), `ghost-vitest-${process.pid}.json`)
try {
  execFileSync('npx', ['vitest', 'run', '--reporter=json', `--outputFile=${out}`], { stdio: 'inherit' })
} catch {
  process.stderr.write(
    'test:durations: the suite failed; durations are written anyway (a failed file still took its time)\n',
  )
}
const report = JSON.parse(readFileSync(out, 'utf8')) as JsonReport
const rows = report.testResults
  .map(
    (r) =>
      [
        path.relative(root, r.name).split(path.sep).join('/'),
        Math.round((r.endTime - r.startTime) / 100) / 10,
      ] as const,
  )
  .sort((a, b) => b[1] - a[1])
writeFileSync(path.join(root, DURATIONS_FILE), `${JSON.stringify(Object.fromEntries(rows), null, 1)}\n`)
process.stdout.write(`wrote ${DURATIONS_FILE}: ${rows.length} files, longest ${rows[0]?.[0]} ${rows[0]?.[1]} s\n`)
