/**
 * The embedded practice server is kept running (issue 21): when its child process dies, `keepServerRunning` starts
 * it again on the same port after a backoff, the bot's supervisor reconnects to it, and the bot and every player who
 * joins are told what happened (plugins/notice.ts). Real child processes, a real `BotSupervisor`.
 */
import mineflayer, { type Bot } from 'mineflayer'
import { afterAll, describe, expect, it } from 'vitest'
import { BotSupervisor } from '../../src/bot/supervisor.js'
import { keepServerRunning, type KeptServer } from '../../src/server/process.js'
import { onceEvent } from '../../src/util/async.js'
import { VERSION, quit, startServer, waitFor } from '../helpers/world.js'

let kept: KeptServer | undefined
let supervisor: BotSupervisor | undefined
let human: Bot | undefined

afterAll(async () => {
  quit(human)
  await supervisor?.stop()
  await kept?.stop()
})

describe('embedded server restart', () => {
  it('restarts a dead server child, the bot reconnects and a joining player is told', async () => {
    const first = await startServer({ seed: 3 })
    const downs: Array<number | null> = []
    kept = keepServerRunning(
      first,
      { version: VERSION, seed: 3 },
      {
        initialBackoffMs: 200,
        onDown: (code) => downs.push(code),
        onRestart: () => supervisor?.reconnectNow(),
      },
    )
    supervisor = new BotSupervisor({
      host: '127.0.0.1',
      port: first.port,
      username: 'Keeper',
      version: VERSION,
      auth: 'offline',
      initialBackoffMs: 500,
    })
    const [bot] = await Promise.all([
      onceEvent<[Bot]>(supervisor, 'spawn', { timeoutMs: 20_000 }).then(([b]) => b),
      Promise.resolve(supervisor.start()),
    ])

    process.kill(first.pid, 'SIGKILL')
    const [again] = await onceEvent<[Bot]>(supervisor, 'spawn', { timeoutMs: 30_000 })
    expect(again).not.toBe(bot)
    expect(kept.current).not.toBe(first)
    expect(kept.current.port).toBe(first.port)
    expect(downs).toEqual([null]) // killed by a signal: no exit code
    expect(kept.restarts).toHaveLength(1)
    expect(kept.restarts[0]!.delayMs).toBe(200)

    // a player joining the restarted server is told what happened
    human = mineflayer.createBot({
      host: '127.0.0.1',
      port: kept.current.port,
      username: 'Latecomer',
      version: VERSION,
      hideErrors: true,
      logErrors: false,
    })
    human.on('error', () => {
      /* surfaced through the timeout */
    })
    const [line] = await onceEvent<[string]>(human, 'messagestr', {
      timeoutMs: 20_000,
      filter: (m) => m.includes('restarted'),
    })
    expect(line).toMatch(/stopped unexpectedly .* restarted: the world was generated again from seed 3/)
    await waitFor(() => supervisor!.current === again, 2000, 'supervisor holds the new bot')
  }, 90_000)
})
