/**
 * A failed goal is shown as failed everywhere: the real agent (offline planner, sim world as hands and senses) behind
 * the real Router, one Discord slash command through the real Discord adapter (captured REST calls) and one ws
 * client subscribed to `tasks` on the real bridge. The goal either cannot be reached (no oak logs anywhere: "I could
 * not finish …") or can (a log in the inventory), and the `finished` task event, the ws message and the Discord embed
 * must say `failed` / `done` accordingly — never "done" for "I could not finish".
 */
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { createAgent } from '../../../src/agent/agent.js'
import { createAnalyser } from '../../../src/agent/analyser.js'
import { intentKnowledge } from '../../../src/agent/intent-knowledge.js'
import { createIntentParser } from '../../../src/agent/intent.js'
import { Patroller } from '../../../src/agent/patroller.js'
import { createPlanner } from '../../../src/agent/planner.js'
import { createSimWorld, type SimWorldOptions } from '../../helpers/sim-world.js'
import { offlineRouter } from '../../helpers/router.js'
import { DiscordAdapter } from '../../../src/io/discord/adapter.js'
import { WsBridge } from '../../../src/io/ws/index.js'
import { createKnowledge } from '../../../src/knowledge/index.js'
import type { Router } from '../../../src/router/router.js'
import { WsOut } from '../../../src/schemas/ws.js'
import { onceEvent, waitFor } from '../../../src/util/async.js'
import { setLogLevel } from '../../../src/util/log.js'
import { APP_ID, CHANNEL_ID, FakeGateway } from './discord-gateway.js'

setLogLevel('error')
const kb = createKnowledge('1.20.2')
const OWNER = '111000000000000001'
const TOKEN = 'owner-token-0123456789'

interface Scene {
  router: Router
  gw: FakeGateway
  adapter: DiscordAdapter
  bridge: WsBridge
  socket: WebSocket
  received: WsOut[]
}
let scene: Scene | null = null

async function setup(world: SimWorldOptions): Promise<Scene> {
  const sim = createSimWorld(kb, world)
  const agent = createAgent({
    kb,
    llm: null,
    memory: null,
    senses: sim,
    hands: sim,
    intent: createIntentParser({ kb: intentKnowledge('1.20.2'), llm: null }),
    planner: createPlanner(null),
    analyser: createAnalyser(),
    patroller: new Patroller(kb, sim),
    critic: { blueprints: Object.keys(sim.blueprints) },
    queryLimit: 30,
    goalTimeBudgetMs: 30_000,
  })
  const router = offlineRouter({ discordOwners: [OWNER], services: { agent } })
  const gw = new FakeGateway()
  const adapter = new DiscordAdapter(router, gw.client, {
    channelId: CHANNEL_ID,
    prefix: '!',
    editIntervalMs: 20,
    ackAfterMs: 2000,
  })
  gw.client.on('interactionCreate', (i) => {
    void adapter.handleInteraction(i)
  })
  const bridge = await WsBridge.start(router, { host: '127.0.0.1', port: 0, tokens: { owner: TOKEN } })
  const socket = new WebSocket(`ws://127.0.0.1:${bridge.port}`)
  const received: WsOut[] = []
  socket.on('message', (data) => {
    received.push(WsOut.parse(JSON.parse(String(data))))
  })
  await onceEvent(socket, 'open', { timeoutMs: 3000 })
  socket.send(JSON.stringify({ v: 1, type: 'auth', token: TOKEN }))
  await waitFor(() => received.some((m) => m.type === 'auth'), 3000, 'ws auth', 10)
  socket.send(JSON.stringify({ v: 1, type: 'subscribe', topics: ['tasks'] }))
  await waitFor(() => received.some((m) => m.type === 'subscribed'), 3000, 'ws subscribe', 10)
  scene = { router, gw, adapter, bridge, socket, received }
  return scene
}

afterEach(async () => {
  if (!scene) return
  scene.socket.terminate()
  await scene.bridge.close()
  scene.adapter.close()
  await scene.gw.destroy()
  scene = null
})

type Finished = { kind: 'finished'; ok: boolean; message: string }
/** Runs `goal <args>` as a Discord slash command; returns the ws `finished` event and the last Discord embed title. */
async function runGoal(s: Scene, args: string): Promise<{ finished: Finished; title: string; content: string }> {
  s.gw.slash('goal', OWNER, 'olga', [], { name: 'args', value: args })
  let finished: Finished | null = null
  await waitFor(
    () => {
      for (const m of s.received) if (m.type === 'task' && m.event.kind === 'finished') finished = m.event
      return finished !== null
    },
    60_000,
    'ws finished event',
    20,
  )
  const lastEdit = (): { content: string; embeds?: Array<{ title: string }> } | undefined =>
    s.gw.api.calls.filter((c) => c.path === `/webhooks/${APP_ID}/itok1/messages/@original`).at(-1)?.body as
      | { content: string; embeds?: Array<{ title: string }> }
      | undefined
  // the final edit follows the finished event (edits are rate-limited)
  await waitFor(() => /goal — (done|failed)/.test(lastEdit()?.embeds?.[0]?.title ?? ''), 5000, 'final Discord edit', 20)
  const last = lastEdit()!
  return { finished: finished!, title: last.embeds![0]!.title, content: last.content }
}

describe('task outcome', () => {
  it('a goal that cannot be finished is "failed" in the ws finished event and the Discord embed', async () => {
    const s = await setup({ absent: ['oak_log'] })
    const r = await runGoal(s, 'oak_planks')
    expect(r.finished.ok).toBe(false)
    expect(r.finished.message).toMatch(/^I could not finish 1 oak_planks: /)
    expect(r.title).toBe('goal — failed')
    expect(r.content).toBe(r.finished.message)
  })

  it('a goal that is reached is "done" in both', async () => {
    const s = await setup({ inventory: { oak_log: 1 } })
    const r = await runGoal(s, 'oak_planks 4')
    expect(r.finished).toMatchObject({ ok: true, message: expect.stringMatching(/^Done: 4 oak_planks\. Verified:/) })
    expect(r.title).toBe('goal — done')
  })
})
