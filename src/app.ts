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
import { Chatter } from './agent/chatter.js'
import { Courier } from './agent/courier.js'
import { Ledger } from './agent/ledger.js'
import { createIntentParser } from './agent/intent.js'
import { intentKnowledge } from './agent/intent-knowledge.js'
import { Patroller } from './agent/patroller.js'
import { createPlanner } from './agent/planner.js'
import { llmSummariser } from './agent/summariser.js'
import { createBody } from './actions/body.js'
import { NEAR_RADIUS, playersNear, watchNear } from './actions/nearby.js'
import { createSkills } from './actions/skills.js'
import { chatPortOf } from './bot/chat-lines.js'
import { BotSupervisor } from './bot/supervisor.js'
import { detectServerVersion } from './bot/version.js'
import type { Bot } from './bot/create.js'
import { ChatChannel } from './io/chat.js'
import { startDiscord } from './io/discord/client.js'
import { startWsBridge, type WsBridge } from './io/ws/index.js'
import { startWeb, type WebServer } from './io/web/index.js'
import { mountViewer, viewerFile } from './bot/viewer.js'
import { createKnowledge } from './knowledge/index.js'
import { createLlm, llmSettingsFromConfig, probeEmbedder, type Llm } from './llm/index.js'
import { keptStore, localEmbedder, openMemory, type Embedder, type MemoryStore } from './memory/index.js'
import { memoryPort, placesPort } from './memory/port.js'
import { createSenses, describePercept, perceive } from './perception/percipient.js'
import { PlacedBlocks } from './perception/placed.js'
import { placedPort } from './memory/placed.js'
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
  /** Resolves with the web page's server once it listens, or null when GHOST_WEB_PORT is unset or it failed. */
  web(): Promise<WebServer | null>
  stop(): Promise<void>
}

export interface AppTarget {
  host: string
  port: number
}

export async function createApp(
  given: Config,
  target: AppTarget,
  overrides: { initialBackoffMs?: number } = {},
): Promise<App> {
  // MC_VERSION=auto: ask the server before anything is built; an unsupported version stops start-up here.
  const config: Config =
    given.MC_VERSION === 'auto' ? { ...given, MC_VERSION: await detectServerVersion(target.host, target.port) } : given
  const kb = createKnowledge(config.MC_VERSION)
  const settings = llmSettingsFromConfig(config)
  const llm = settings ? createLlm(settings) : null
  // A failed embedder probe (endpoint down, model missing) falls back to the local embedder instead of aborting.
  const probed =
    llm && config.GHOST_EMBED_MODEL
      ? await probeEmbedder(llm).catch((err: Error) => {
          log.warn('embedding model unusable; using the local embedder', { err: err.message })
          return null
        })
      : null
  const embedder: Embedder = probed ?? localEmbedder()
  // blocks the bot saw players place (issue 20), per server, kept in memory.db; the policy never digs them
  const placed = new PlacedBlocks(`${target.host}:${target.port}`)
  const playerPlaced = placed.lookup(() => supervisor.current)
  // one critic configuration (blueprints + the safety policy's protected boxes) for plans, summaries and imports
  const critic = { blueprints: blueprintNames(), policy: { protected: config.GHOST_PROTECTED, playerPlaced } }
  const memory = await openMemory({
    path: config.GHOST_DB,
    embedder,
    scope: config.GHOST_MEMORY_SHARE === 'network' ? null : `${target.host}:${target.port}`,
    ...(llm ? { summariser: llmSummariser(llm, kb, critic) } : {}),
  })
  await placed.persist(placedPort(memory, `${target.host}:${target.port}`))

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
  let web: WebServer | null = null
  // what the bot set aside for players and who said "quiet", kept in memory across restarts (issue 15)
  const kept = keptStore(memory, `${target.host}:${target.port}`, config.MC_USERNAME)
  const ledger = new Ledger(kept)
  const chatter = new Chatter(undefined, kept)
  await Promise.all([ledger.load(), chatter.load()]).catch((err: Error) =>
    log.warn('could not load the delivery ledger; starting without it', { err: err.message }),
  )
  const agent = createAgent({
    ledger,
    chatter,
    kb,
    llm,
    memory,
    senses,
    intent: createIntentParser({ kb: intentKnowledge(config.MC_VERSION), llm }),
    planner: createPlanner(llm),
    analyser: createAnalyser({ llm, kb }),
    patroller: new Patroller(kb, senses, { protected: config.GHOST_PROTECTED, playerPlaced }),
    hands: createBotHands(getBot, `${target.host}:${target.port}`, config.GHOST_PROTECTED),
    critic,
    queryLimit: config.GHOST_PLANNER_QUERY_LIMIT,
    goalTimeBudgetMs: config.GHOST_GOAL_TIME_BUDGET_MS,
    onMemoryChange: (c) => {
      ws?.publishMemory(c)
      web?.publishMemory(c)
    },
  })
  const places = placesPort(memory, `${target.host}:${target.port}`)
  const router = new Router({
    commands: allCommands(),
    policy: createPolicy(config),
    audit: new AuditLog(config.GHOST_AUDIT_LOG || null),
    services: {
      body: createBody(getBot),
      agent,
      memory: memoryPort(memory),
      places,
      skills: createSkills(getBot, places, config.GHOST_PROTECTED),
      perception: {
        describe: (what) => {
          const bot = getBot()
          return bot?.entity ? describePercept(perceive(bot), what) : 'I am not in the world right now.'
        },
      },
    },
  })
  const chat = new ChatChannel(router, {
    prefix: config.GHOST_PREFIX,
    intervalMs: config.GHOST_CHAT_INTERVAL_MS,
    burst: config.GHOST_CHAT_BURST,
    ignore: config.GHOST_IGNORE_PLAYERS,
  })
  supervisor.on('spawn', (bot: Bot) => {
    chat.attach(chatPortOf(bot))
    attachReflexes(bot, { fightPlayers: config.GHOST_FIGHT_PLAYERS })
  })
  // hand players what was set aside for them when they are next near (src/agent/courier.ts), between tasks
  const courier = new Courier({
    ledger,
    near: () => {
      const bot = getBot()
      return bot ? playersNear(bot, NEAR_RADIUS) : []
    },
    busy: () => router.queue.current() !== null,
    handOver: (player) =>
      router.enqueueOwn({
        player,
        command: 'deliver',
        text: `hand ${player} what I kept for them`,
        say: (text) => chat.outbox.say(text, null, player),
        run: (signal) => agent.handOver?.(player, signal) ?? Promise.resolve({ ok: true, text: '' }),
      }),
  })
  supervisor.on('spawn', (bot: Bot) => watchNear(bot, NEAR_RADIUS, courier))
  supervisor.on('spawn', (bot: Bot) => placed.attach(bot))
  router.queue.on('end', () => courier.between())
  // Discord and the WebSocket bridge: each off unless configured; neither failing stops the bot.
  const discord = startDiscord(config, router)
  const wsStarted = startWsBridge(config, router).then(
    (w) => {
      ws = w
    },
    (err: Error) => log.error('WebSocket bridge not started', { err: err.message }),
  )
  const webStarted = startWeb(config, router, {
    views: { memory, llm, budgetPerPlayer: config.GHOST_PLAYER_TOKEN_BUDGET },
    viewer: { mount: (server, allow) => mountViewer(server, getBot, { allow }), file: viewerFile },
  }).then(
    (w) => (web = w),
    (err: Error) => {
      log.error('web page not started', { err: err.message })
      return null
    },
  )
  // Public player chat only (never whispers or system text), attributed by the server (src/bot/chat-lines.ts).
  supervisor.on('spawn', (bot: Bot) =>
    chatPortOf(bot).onLine((l) => {
      if (l.kind === 'chat') {
        discord?.relayChat(l.name, l.text)
        ws?.publishChat(l.name, l.text)
        web?.publishChat(l.name, l.text)
      }
    }),
  )
  // off the server, nothing starts and the running task pauses; it carries on first after the reconnect
  supervisor.on('disconnect', () => {
    chat.detach()
    router.queue.hold()
  })
  supervisor.on('spawn', () => router.queue.release())
  supervisor.start()
  log.info('app started', {
    host: target.host,
    port: target.port,
    llm: llm?.model ?? 'offline',
    memory: memory.location,
  })
  return {
    config,
    router,
    supervisor,
    chat,
    memory,
    llm,
    ready() {
      const cur = supervisor.current
      return cur ? Promise.resolve(cur) : new Promise((resolve) => supervisor.once('spawn', resolve))
    },
    web: () => webStarted,
    async stop() {
      router.queue.clear()
      router.queue.stopCurrent()
      chat.outbox.close()
      await Promise.all([wsStarted, webStarted])
      await Promise.all([discord?.stop(), ws?.close(), web?.close()])
      await supervisor.stop()
      await router.audit.flush()
      await Promise.all([ledger.flushed(), chatter.flushed()])
      await memory.close()
    },
  }
}
