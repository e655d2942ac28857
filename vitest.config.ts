/**
 * Test configuration: unit tests run in parallel; integration tests (real server child processes and bots) run
 * in their own files with generous per-test timeouts, longest first. No retries: a flaky test is a bug to fix, not to hide.
 */
import { defineConfig } from 'vitest/config'
import { LongestFirst } from './test/helpers/sequencer.js'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    retry: 0,
    // longest files first (test/durations.json), so no long integration file runs alone at the end
    sequence: { sequencer: LongestFirst },
  },
})
