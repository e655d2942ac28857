/**
 * Helpers for the memory tests: a fresh temp folder per test file, plan runs to record, and a child-process runner
 * for the writer fixture (real processes sharing one SQLite file).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { resolve } from 'node:path'
import type { Action } from '../../../src/schemas/action.js'
import type { PlanRunInput } from '../../../src/schemas/memory.js'
import { makeTempDir, type TempDir } from '../../helpers/tmp.js'

/** A temp folder the caller removes with `cleanup` (test/helpers/tmp.ts). */
export const tempDir = (): TempDir => makeTempDir('ghost-memory-')

export const mine = (object: string, count = 1): Action => ({ type: 'mine', object, tool: null, count })
export const craft = (object: string, count = 1, tool: string | null = null): Action => ({
  type: 'craft',
  object,
  count,
  materials: {},
  tool,
})
export const explore = (object: string): Action => ({ type: 'explore', object, strategy: 'surface' })
export const attack = (object: string): Action => ({ type: 'attack', object, tool: null })

export function run(
  goalKey: string,
  goalText: string,
  actions: Action[],
  extra: Partial<PlanRunInput> = {},
): PlanRunInput {
  return {
    goalKey,
    goalText,
    actions,
    outcome: 'success',
    durationMs: 1000,
    llmCalls: 1,
    player: 'alice',
    bot: 'Ghost',
    ...extra,
  }
}

const ROOT = resolve(import.meta.dirname, '../../..')
export const WRITER = resolve(import.meta.dirname, 'fixtures/writer.ts')

/** Start the writer fixture; resolves with the process and a live list of committed ids it reported. */
export function startWriter(
  dbPath: string,
  count: number,
  bot: string,
  wait = false,
): {
  child: ChildProcess
  ids: number[]
  status: { queued: number; retrieved: number }
  stderr: () => string
  exited: Promise<number | null>
  ready: Promise<void>
} {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', WRITER, dbPath, String(count), bot, ...(wait ? ['wait'] : [])],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
  )
  const ids: number[] = []
  const status = { queued: 0, retrieved: 0 }
  let err = ''
  let buf = ''
  let onReady: () => void = () => {}
  const ready = new Promise<void>((r) => {
    onReady = r
  })
  child.stdout!.on('data', (d: Buffer) => {
    buf += d.toString()
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const line = buf.slice(0, nl)
      buf = buf.slice(nl + 1)
      if (line === 'ready') onReady()
      const m = /^id (\d+)$/.exec(line)
      if (m) ids.push(Number(m[1]))
      if (line === 'queued') status.queued++
      const r = /^retrieved (\d+)$/.exec(line)
      if (r) status.retrieved = Number(r[1])
    }
  })
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString()
  })
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)))
  return { child, ids, status, stderr: () => err, exited, ready }
}
