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
    // four files at a time on two cores: the integration tests mostly wait on game time (digging, walking, a furnace).
    // Clean-clone runs on 2 cores (2026-12-03): 3 workers 756 s of vitest, 4 workers 614 s; with 4 workers and no
    // isolation, four runs in a row on 2026-12-04 passed in 408-445 s (docs/test-runs.md)
    maxWorkers: 4,
    retry: 0,
    // longest files first (test/durations.json), so no long integration file runs alone at the end
    sequence: { sequencer: LongestFirst },
    projects: [
      // the unit files share one module cache per worker: each loads minecraft-data and the knowledge once, not per file
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false } },
      // so do the integration files (each starts its own server child and bots, and keeps no module state between
      // files): a clean-clone run spent 185 s importing with isolation and 113 s without
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.ts'], isolate: false } },
    ],
  },
})
