/**
 * The agent-level test scene: a practice-server child (natural spawning off), the real app connected to it with
 * Alice as owner, and Alice herself in daylight and clear weather. `stop()` tears it all down in order.
 */
import type { Bot } from 'mineflayer'
import { createApp, type App } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import type { ServerHandle } from '../../src/server/process.js'
import { command, joinPlayer, quit, startServer } from './world.js'

export interface PracticeApp {
  server: ServerHandle
  app: App
  ghost: Bot
  alice: Bot
  stop(): Promise<void>
}

export async function startPracticeApp(opts: { seed: number; env?: Record<string, string> }): Promise<PracticeApp> {
  const server = await startServer({ seed: opts.seed, practice: { naturalSpawning: false } })
  const cfg = loadConfig(
    { GHOST_OWNERS: 'Alice', GHOST_CHAT_INTERVAL_MS: '100', GHOST_AUDIT_LOG: '', GHOST_DB: ':memory:', ...opts.env },
    '/nonexistent.json',
  )
  if (!cfg.ok) throw new Error(JSON.stringify(cfg.problems))
  const app = await createApp(cfg.config, { host: '127.0.0.1', port: server.port }, { initialBackoffMs: 300 })
  const ghost = await app.ready()
  const alice = await joinPlayer(server, 'Alice')
  await command(alice, '/time set day')
  await command(alice, '/weather clear')
  return {
    server,
    app,
    ghost,
    alice,
    async stop() {
      quit(alice)
      await app.stop()
      await server.stop()
    },
  }
}
