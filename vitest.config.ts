/**
 * Test configuration: unit tests run in parallel; integration tests (real server child processes and bots) run
 * in their own files with generous per-test timeouts, longest first. No retries: a flaky test is a bug to fix, not to hide.
 */
import { defineConfig } from 'vitest/config'
import { LongestFirst } from './test/helpers/sequencer.js'

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // three files at a time on two cores: the integration tests mostly wait on game time (digging, walking, a furnace),
    // and the whole suite kept the two cores 45 % busy on average with two workers (642 s on 2026-11-26)
    maxWorkers: 3,
    retry: 0,
    // longest files first (test/durations.json), so no long integration file runs alone at the end
    sequence: { sequencer: LongestFirst },
    projects: [
      // the unit files share one module cache per worker: each loads minecraft-data and the knowledge once, not per file
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false } },
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.ts'] } },
    ],
  },
})
