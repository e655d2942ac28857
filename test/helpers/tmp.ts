/**
 * Temp folders for tests, and their removal: every folder a test makes under the OS temp dir is removed when its
 * owner ends (the test with `scope: 'test'`, else the test file), so a suite run leaves nothing behind in /tmp.
 * `makeTempDir` is the bare form for callers that remove the folder themselves (the memory tests' writers).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, onTestFinished } from 'vitest'

export interface TempDir {
  dir: string
  /** A path inside the folder. */
  file: (name: string) => string
  cleanup: () => void
}

/** A fresh folder `<tmp>/<prefix>XXXXXX`; the caller removes it with `cleanup`. */
export function makeTempDir(prefix: string): TempDir {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return { dir, file: (name) => join(dir, name), cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

/** A fresh folder removed when the current test (`'test'`) or the test file (`'file'`, the default) ends. */
export function tempDir(prefix: string, scope: 'test' | 'file' = 'file'): TempDir {
  const t = makeTempDir(prefix)
  if (scope === 'test') onTestFinished(t.cleanup)
  else afterAll(t.cleanup)
  return t
}
