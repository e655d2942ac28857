/**
 * Test file order for `vitest run`: longest first, from the durations measured on a full run (test/durations.json,
 * written by `npm run -s test:durations`). Three workers share the suite; a long integration file started last would
 * run alone at the end (vitest's own order on a clean clone, which has no result cache, is largest file first, and a
 * short file can hold a three-minute test). Files not in the list go first, as vitest does with unknown files.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/** Seconds per test file (path relative to the repository root), longest first. */
export const DURATIONS_FILE = 'test/durations.json'

function durations(root: string): Record<string, number> {
  try {
    return JSON.parse(readFileSync(path.join(root, DURATIONS_FILE), 'utf8')) as Record<string, number>
  } catch {
    return {} // no list yet: every file is unknown, vitest's order
  }
}

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const root = this.ctx.config.root
    const d = durations(root)
    const seconds = (f: TestSpecification): number =>
      d[path.relative(root, f.moduleId).split(path.sep).join('/')] ?? Number.POSITIVE_INFINITY
    // stable: equal keys keep vitest's order
    return sorted
      .map((f, i) => ({ f, i, s: seconds(f) }))
      .sort((a, b) => b.s - a.s || a.i - b.i)
      .map((x) => x.f)
  }
}
