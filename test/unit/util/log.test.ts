/**
 * The structured logger's fields: `withLogFields` adds its fields to every line logged inside the work it runs,
 * also after an await or from a timer that work started, and to no line outside it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { logger, logLevel, setLogLevel, withLogFields } from '../../../src/util/log.js'

const before = logLevel()
afterEach(() => {
  setLogLevel(before)
  vi.restoreAllMocks()
})

function capture(): Array<Record<string, unknown>> {
  const lines: Array<Record<string, unknown>> = []
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(JSON.parse(String(chunk)) as Record<string, unknown>)
    return true
  })
  return lines
}

describe('withLogFields', () => {
  it('tags every line of the work it runs, across awaits and timers, and no line outside it', async () => {
    setLogLevel('info')
    const log = logger('test')
    const lines = capture()
    log.info('before')
    await withLogFields({ seed: 7 }, async () => {
      log.info('inside')
      await new Promise<void>((resolve) =>
        setTimeout(() => {
          log.info('from a timer')
          resolve()
        }, 1),
      )
      await withLogFields({ run: 'b' }, async () => log.info('nested'))
    })
    log.info('after')
    expect(lines.map((l) => [l.msg, l.seed, l.run])).toEqual([
      ['before', undefined, undefined],
      ['inside', 7, undefined],
      ['from a timer', 7, undefined],
      ['nested', 7, 'b'],
      ['after', undefined, undefined],
    ])
  })
})
