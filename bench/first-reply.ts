/**
 * `npm run bench:first-reply` — time from a chat line to the bot's first reply, over 50 requests. Starts the
 * practice server (seed 42, natural spawning off) and the real app (offline, no LLM, default chat pacing), joins 10
 * players (Alice owner, P1–P9 trusted) and sends 5 requests each, one at a time, round-robin: questions answered
 * from game data, status, an obtain (acknowledged and queued; the bot then works on it in the background) and a
 * give of something the bot does not have. Requests are whispered (`/tell Ghost …`) so the reply is private and only
 * the asker sees it. Two times per sample: `clientMs`, on the asking player's own client from sending the line to
 * the first line from Ghost (includes the chat outbox's pacing, one line per GHOST_CHAT_INTERVAL_MS after a burst of
 * 3, shared with the bot's other lines), and `routerMs`, from sending to the router handing its first reply to the
 * channel (understanding, role check, answer or queueing). Prints p50/p95 per kind and overall, writes
 * bench/results/first-reply.json.
 */
import type { Bot } from 'mineflayer'
import { percentile } from './lib/stats.js'
import { printTable, writeResult, type Row } from './lib/table.js'
import { createApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { command, joinPlayer, quit, startServer, waitForMessage } from '../test/helpers/world.js'

/** Kind, text, and the reply that answers it (other players' "Done" lines are public chat too). */
const REQUESTS: Array<[kind: string, text: string, reply: RegExp]> = [
  ['recipe', 'how do I make a compass?', /^compass:/],
  ['where', 'where are diamonds?', /^diamond:/],
  ['obtain', 'get 1 dirt for yourself', /^On it: 1 dirt/],
  ['status', 'what are you doing?', /^(I am working|Nothing right now)/],
  ['give', 'give me your diamonds', /no diamond/],
]

async function main(): Promise<void> {
  const server = await startServer({ seed: 42, practice: { naturalSpawning: false } })
  const names = ['Alice', ...Array.from({ length: 9 }, (_, i) => `P${i + 1}`)]
  const cfg = loadConfig(
    { GHOST_OWNERS: 'Alice', GHOST_TRUSTED: names.slice(1).join(','), GHOST_AUDIT_LOG: '', GHOST_DB: ':memory:' },
    '/nonexistent.json',
  )
  if (!cfg.ok) throw new Error(JSON.stringify(cfg.problems))
  const app = await createApp(cfg.config, { host: '127.0.0.1', port: server.port }, { initialBackoffMs: 300 })
  await app.ready()
  const players: Bot[] = []
  for (const n of names) players.push(await joinPlayer(server, n))
  await command(players[0]!, '/time set day')
  const samples: Array<{ kind: string; clientMs: number; routerMs: number; player: string }> = []
  let firstRouterReplyAt = new Map<string, number>()
  app.router.onReply((r) => {
    if (!firstRouterReplyAt.has(r.player)) firstRouterReplyAt.set(r.player, r.at)
  })
  try {
    for (const [kind, text, pattern] of REQUESTS) {
      for (const p of players) {
        firstRouterReplyAt = new Map()
        const sentAt = Date.now()
        const t0 = performance.now()
        const reply = waitForMessage(p, pattern, { from: 'Ghost', timeoutMs: 30_000 })
        p.chat(`/tell Ghost ${text}`)
        await reply
        const clientMs = performance.now() - t0
        samples.push({
          kind,
          clientMs,
          routerMs: (firstRouterReplyAt.get(p.username) ?? NaN) - sentAt,
          player: p.username,
        })
      }
    }
  } finally {
    quit(...players)
    await app.stop()
    await server.stop()
  }
  const rows: Row[] = []
  for (const kind of [...REQUESTS.map(([k]) => k), 'all']) {
    const sel = samples.filter((s) => kind === 'all' || s.kind === kind)
    const c = sel.map((s) => s.clientMs)
    const r = sel.map((s) => s.routerMs)
    rows.push({
      kind,
      n: sel.length,
      clientP50Ms: Math.round(percentile(c, 0.5)),
      clientP95Ms: Math.round(percentile(c, 0.95)),
      clientMaxMs: Math.round(Math.max(...c)),
      routerP50Ms: Math.round(percentile(r, 0.5)),
      routerP95Ms: Math.round(percentile(r, 0.95)),
    })
  }
  printTable(rows)
  const file = writeResult('first-reply', {
    date: new Date().toISOString(),
    chatIntervalMs: cfg.config.GHOST_CHAT_INTERVAL_MS,
    rows,
    samples,
  })
  console.log(`wrote ${file}`)
}

main().catch((err: Error) => {
  console.error(err.stack ?? err.message)
  process.exit(1)
})
