/**
 * Issue 5's done-when: a goal one bot did before is planned from memory with zero LLM calls by a *second bot
 * process* on the same host (same memory file), and after a restart of the first. The first run is planned by the
 * real openai client against the scripted fake server; the second process points at the same server, which
 * records no further calls.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeOpenAI, type FakeOpenAI } from '../../helpers/fake-openai.js'

const run = promisify(execFile)
const FIXTURE = join(import.meta.dirname, 'fixtures', 'second-bot.ts')
let fake: FakeOpenAI
let dir: string

beforeAll(async () => {
  fake = await startFakeOpenAI()
  dir = mkdtempSync(join(tmpdir(), 'ghost-shared-'))
})
afterAll(async () => {
  await fake.close()
  rmSync(dir, { recursive: true, force: true })
})

async function bot(
  inventory: Record<string, number>,
): Promise<{ ok: boolean; llmCalls: number; usage: number; verification: string | null }> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', FIXTURE, join(dir, 'memory.db'), fake.url, 'oak_planks', '8', JSON.stringify(inventory)],
    { timeout: 60_000 },
  )
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as {
    ok: boolean
    llmCalls: number
    usage: number
    verification: string | null
  }
}

describe('memory shared between bot processes', () => {
  it('plans a goal done before from memory with zero LLM calls, from another process and after a restart', async () => {
    fake.script({
      json: {
        explanation: '',
        thoughts: 'planks from logs',
        actions: [{ type: 'craft', object: 'oak_planks', count: 8, materials: { oak_log: 2 }, tool: null }],
      },
    })
    const first = await bot({ oak_log: 2 })
    expect(first).toMatchObject({ ok: true, llmCalls: 1, usage: 1 })
    expect(fake.chatCalls()).toHaveLength(1)

    const second = await bot({ oak_log: 2 })
    expect(second.ok).toBe(true)
    expect(second.verification).toBe('8 oak_planks now in inventory (needed 8)')
    expect(second.llmCalls).toBe(0)
    expect(second.usage).toBe(0)
    expect(fake.chatCalls()).toHaveLength(1)
  })
})
