/**
 * The composition root: builds every part from a parsed Config and wires them together — bot supervisor, body,
 * router (commands, permissions, audit, queue), and channels. `main.ts` uses it with the real process; integration
 * tests use it the same way against a practice server child. Nothing else constructs these parts.
 */
import { all as allCommands } from '../commands/index.js'
import type { Config } from './config.js'
import { createBody } from './bot/body.js'
import { BotSupervisor } from './bot/supervisor.js'
import type { Bot } from './bot/create.js'
import { ChatChannel } from './io/chat.js'
import { AuditLog } from './router/audit.js'
import { createPolicy } from './router/permissions.js'
import { Router } from './router/router.js'
import { logger } from './util/log.js'

const log = logger('app')

export interface App {
  config: Config
  router: Router
  supervisor: BotSupervisor
  chat: ChatChannel
  /** Resolves with the bot once it has spawned (the first time, or again after a reconnect). */
  ready(): Promise<Bot>
  stop(): Promise<void>
}

export interface AppTarget { host: string; port: number }

export function createApp(config: Config, target: AppTarget, overrides: { initialBackoffMs?: number } = {}): App {
  const supervisor = new BotSupervisor({
    host: target.host,
    port: target.port,
    username: config.MC_USERNAME,
    version: config.MC_VERSION,
    auth: config.MC_AUTH,
    initialBackoffMs: overrides.initialBackoffMs,
  })
  const body = createBody(() => supervisor.current)
  const router = new Router({
    commands: allCommands(),
    policy: createPolicy(config),
    audit: new AuditLog(config.GHOST_AUDIT_LOG || null),
    services: { body },
  })
  const chat = new ChatChannel(router, { prefix: config.GHOST_PREFIX, intervalMs: config.GHOST_CHAT_INTERVAL_MS })
  supervisor.on('spawn', (bot: Bot) => chat.attach(bot))
  supervisor.on('disconnect', () => { chat.detach(); router.queue.stopCurrent() })
  supervisor.start()
  log.info('app started', { host: target.host, port: target.port })
  return {
    config, router, supervisor, chat,
    ready() {
      const cur = supervisor.current
      return cur ? Promise.resolve(cur) : new Promise((resolve) => supervisor.once('spawn', resolve))
    },
    async stop() {
      router.queue.clear()
      router.queue.stopCurrent()
      chat.outbox.close()
      await supervisor.stop()
      await router.audit.flush()
    },
  }
}
