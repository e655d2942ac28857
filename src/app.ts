/**
 * The composition root: builds every part from a parsed Config and wires them together — knowledge, LLM (when
 * configured), shared memory, the agent pipeline (intent, planner, critic, patroller, executor), the bot supervisor
 * with reflexes, the router (commands, permissions, audit, queue) and the channels (chat, Discord, WebSocket).
 * `main.ts` uses it with the real process; integration tests use it the same way against a practice-server child.
 */
import { all as allCommands } from '../commands/index.js'
import type { Config } from './config.js'
import { attachReflexes } from './actions/index.js'
import { blueprintNames } from './actions/build.js'
import { createAgent } from './agent/agent.js'
import { createAnalyser } from './agent/analyser.js'
import { createBotHands } from './agent/bot-hands.js'
import { createIntentParser } from './agent/intent.js'
import { intentKnowledge } from './agent/intent-knowledge.js'
import { Patroller } from './agent/patroller.js'
import { createPlanner } from './agent/planner.js'
import { llmSummariser } from './agent/summariser.js'
import { createBody } from './bot/body.js'
import { BotSupervisor } from './bot/supervisor.js'
import type { Bot } from './bot/create.js'
import { ChatChannel } from './io/chat.js'
import { startDiscord } from './io/discord/client.js'
import { startWsBridge, type WsBridge } from './io/ws/index.js'
import { createKnowledge } from './knowledge/index.js'
import { createLlm, llmSettingsFromConfig, probeEmbedder, type Llm } from './llm/index.js'
import { localEmbedder, openMemory, type Embedder, type MemoryStore } from './memory/index.js'
import { memoryPort } from './memory/port.js'
import { createSenses, describePercept, perceive } from './perception/percipient.js'
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
  memory: MemoryStore
  llm: Llm | null
  /** Resolves with the bot once it has spawned (the first time, or again after a reconnect). */
  ready(): Promise<Bot>
  stop(): Promise<void>
}

export interface AppTarget { host: string; port: number }

export async function createApp(config: Config, target: AppTarget, overrides: { initialBackoffMs?: number } = {}): Promise<App> {
  const kb = createKnowledge(config.MC_VERSION)
  const settings = llmSettingsFromConfig(config)
  const llm = settings ? createLlm(settings) : null
  const embedder: Embedder = (llm && config.GHOST_EMBED_MODEL ? await probeEmbedder(llm) : null) ?? localEmbedder()
  const memory = openMemory({ path: config.GHOST_DB, embedder, ...(llm ? { summariser: llmSummariser(llm) } : {}) })

  const supervisor = new BotSupervisor({
    host: target.host,
    port: target.port,
    username: config.MC_USERNAME,
    version: config.MC_VERSION,
    auth: config.MC_AUTH,
    initialBackoffMs: overrides.initialBackoffMs,
  })
  const getBot = (): Bot | null => supervisor.current
  const senses = createSenses(getBot)
  let ws: WsBridge | null = null
  const agent = createAgent({
    kb, llm, memory, senses,
    intent: createIntentParser({ kb: intentKnowledge(config.MC_VERSION), llm }),
    planner: createPlanner(llm),
    analyser: createAnalyser({ llm }),
    patroller: new Patroller(kb, senses),
    hands: createBotHands(getBot, `${target.host}:${target.port}`),
    critic: { blueprints: blueprintNames() },
    queryLimit: config.GHOST_PLANNER_QUERY_LIMIT,
    goalTimeBudgetMs: config.GHOST_GOAL_TIME_BUDGET_MS,
    onMemoryChange: (c) => ws?.publishMemory(c),
  })
  const router = new Router({
    commands: allCommands(),
    policy: createPolicy(config),
    audit: new AuditLog(config.GHOST_AUDIT_LOG || null),
    services: {
      body: createBody(getBot),
      agent,
      memory: memoryPort(memory),
      perception: { describe: (what) => { const bot = getBot(); return bot?.entity ? describePercept(perceive(bot), what) : 'I am not in the world right now.' } },
    },
  })
  const chat = new ChatChannel(router, { prefix: config.GHOST_PREFIX, intervalMs: config.GHOST_CHAT_INTERVAL_MS })
  supervisor.on('spawn', (bot: Bot) => { chat.attach(bot); attachReflexes(bot) })
  // Discord and the WebSocket bridge: each off unless configured; neither failing stops the bot.
  const discord = startDiscord(config, router)
  const wsStarted = startWsBridge(config, router).then((w) => { ws = w }, (err: Error) => log.error('WebSocket bridge not started', { err: err.message }))
  supervisor.on('spawn', (bot: Bot) => bot.on('chat', (username: string, message: string) => { discord?.relayChat(username, message); ws?.publishChat(username, message) }))
  supervisor.on('disconnect', () => { chat.detach(); router.queue.stopCurrent() })
  supervisor.start()
  log.info('app started', { host: target.host, port: target.port, llm: llm?.model ?? 'offline', memory: config.GHOST_DB })
  return {
    config, router, supervisor, chat, memory, llm,
    ready() {
      const cur = supervisor.current
      return cur ? Promise.resolve(cur) : new Promise((resolve) => supervisor.once('spawn', resolve))
    },
    async stop() {
      router.queue.clear()
      router.queue.stopCurrent()
      chat.outbox.close()
      await wsStarted
      await Promise.all([discord?.stop(), ws?.close()])
      await supervisor.stop()
      await router.audit.flush()
      memory.close()
    },
  }
}
