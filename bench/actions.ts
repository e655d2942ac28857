/**
 * `npm run bench:actions` — action benchmark. For each of 10 seeds (or `--seeds N`) starts the practice server on
 * the generated world (src/server/worldgen, superflat when it is absent), joins a bot made by createBot and runs a
 * hand-written scenario through `execute`: explore/approach/mine logs, craft the wooden tools, dig down, mine
 * cobblestone, go back up, equip, place, build a pillar, attack a summoned cow, shear a summoned sheep, smelt iron
 * and (after digging 12 blocks down, unmeasured) explore underground for iron ore; issue 17's companion skills: goto,
 * deposit, withdraw, build a wall segment and guard a second client against a summoned zombie. Prerequisites an earlier step failed to provide are topped up with /give so
 * every action is measured on its own. Prints success counts and median durations per action and writes
 * bench/results/actions.json.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Bot } from 'mineflayer'
import { createBot } from '../src/bot/create.js'
import { startEmbeddedServer } from '../src/server/process.js'
import { execute } from '../src/actions/index.js'
import type { Action, ActionResult } from '../src/schemas/action.js'
import { onceEvent, sleep, waitFor, withTimeout } from '../src/util/async.js'
import { printTable, writeResult, type Row } from './lib/table.js'

const VERSION = '1.20.2'
const GENERATOR = fileURLToPath(new URL('../src/server/worldgen/generator.cjs', import.meta.url))
const seedsArg = process.argv.indexOf('--seeds')
const SEEDS = seedsArg > 0 ? Number(process.argv[seedsArg + 1]) : 10
/** `--companion`: only issue 17's companion skills (goto, chests, build, guard) per seed. */
const ONLY_COMPANION = process.argv.includes('--companion')

interface Tally {
  runs: number
  ok: number
  durations: number[]
  reasons: Record<string, number>
}
const tally = new Map<string, Tally>()
const never = new AbortController().signal

function count(bot: Bot, name: string): number {
  return bot.inventory
    .items()
    .filter((i) => i.name === name)
    .reduce((a, i) => a + i.count, 0)
}
async function ensure(bot: Bot, name: string, n: number): Promise<void> {
  const short = n - count(bot, name)
  if (short <= 0) return
  bot.chat(`/give ${bot.username} ${name} ${short}`)
  await waitFor(() => count(bot, name) >= n, 3000, `give ${name}`).catch(() => {})
}

async function run(bot: Bot, label: string, action: Action, timeMs?: number): Promise<ActionResult> {
  const r = await execute(bot, action, { signal: never, ...(timeMs ? { budget: { timeMs } } : {}) })
  const t = tally.get(label) ?? { runs: 0, ok: 0, durations: [], reasons: {} }
  t.runs++
  if (r.ok) {
    t.ok++
    t.durations.push(r.durationMs)
  } else t.reasons[r.reason ?? 'error'] = (t.reasons[r.reason ?? 'error'] ?? 0) + 1
  tally.set(label, t)
  process.stderr.write(`  ${label}: ${r.ok ? 'ok' : r.reason} ${r.durationMs} ms — ${r.message}\n`)
  return r
}

async function scenario(bot: Bot, port: number): Promise<void> {
  await run(bot, 'explore(surface)', { type: 'explore', object: 'log', strategy: 'surface' }, 60_000)
  await run(bot, 'approach', { type: 'approach', object: 'log' }, 30_000)
  await run(bot, 'mine(log)', { type: 'mine', object: 'log', tool: null, count: 3 }, 60_000)
  const wood =
    bot.inventory
      .items()
      .find((i) => i.name.endsWith('_log'))
      ?.name.replace(/_log$/, '') ?? 'oak'
  await ensure(bot, `${wood}_log`, 3)
  await run(bot, 'craft(2x2)', {
    type: 'craft',
    object: `${wood}_planks`,
    count: 12,
    materials: { [`${wood}_log`]: 3 },
    tool: null,
  })
  await ensure(bot, `${wood}_planks`, 9)
  await run(bot, 'craft(2x2)', {
    type: 'craft',
    object: 'stick',
    count: 4,
    materials: { [`${wood}_planks`]: 2 },
    tool: null,
  })
  await run(bot, 'craft(2x2)', {
    type: 'craft',
    object: 'crafting_table',
    count: 1,
    materials: { [`${wood}_planks`]: 4 },
    tool: null,
  })
  await ensure(bot, 'crafting_table', 1)
  await ensure(bot, 'stick', 2)
  await ensure(bot, `${wood}_planks`, 3)
  await run(bot, 'craft(table)', {
    type: 'craft',
    object: 'wooden_pickaxe',
    count: 1,
    materials: { [`${wood}_planks`]: 3, stick: 2 },
    tool: 'crafting_table',
  })
  await ensure(bot, 'wooden_pickaxe', 1)
  const y = Math.floor(bot.entity.position.y)
  await run(bot, 'dig_down', { type: 'dig_down', ylevel: y - 8, tool: 'wooden_pickaxe' }, 60_000)
  await run(
    bot,
    'mine(cobblestone)',
    { type: 'mine', object: 'cobblestone', tool: 'wooden_pickaxe', count: count(bot, 'cobblestone') + 3 },
    45_000,
  )
  await run(bot, 'go_up', { type: 'go_up', tool: 'wooden_pickaxe' }, 60_000)
  await run(bot, 'equip', { type: 'equip', object: 'wooden_pickaxe' })
  await ensure(bot, 'dirt', 4)
  await run(bot, 'place', { type: 'place', object: 'dirt' })
  await run(bot, 'build(pillar)', { type: 'build', blueprint: 'pillar' }, 30_000)
  const here = bot.entity.position.floored()
  bot.chat(`/summon cow ${here.x + 2} ${here.y} ${here.z}`)
  await sleep(500)
  await run(bot, 'attack(cow)', { type: 'attack', object: 'cow', tool: 'wooden_pickaxe' }, 45_000)
  bot.chat(`/summon sheep ${here.x} ${here.y} ${here.z + 2}`)
  await ensure(bot, 'shears', 1)
  await sleep(500)
  await run(bot, 'apply(shears)', { type: 'apply', object: 'sheep', tool: 'shears' }, 20_000)
  await ensure(bot, 'furnace', 1)
  await ensure(bot, 'raw_iron', 1)
  await ensure(bot, 'coal', 1)
  await run(
    bot,
    'smelt',
    { type: 'smelt', object: 'iron_ingot', count: 1, materials: { raw_iron: 1 }, fuel: 'coal' },
    40_000,
  )
  await companion(bot, port)
  await ensure(bot, 'stone_pickaxe', 1)
  await execute(
    bot,
    { type: 'dig_down', ylevel: Math.floor(bot.entity.position.y) - 12, tool: 'stone_pickaxe' },
    { signal: never },
  )
  await run(bot, 'explore(underground)', { type: 'explore', object: 'iron_ore', strategy: 'underground' }, 45_000)
}

/** Issue 17's companion skills: goto 20 blocks away, deposit/withdraw at a chest, build a wall, guard a player. */
async function companion(bot: Bot, port: number): Promise<void> {
  const o = bot.entity.position.floored()
  await run(bot, 'goto(20 blocks)', { type: 'goto', x: o.x + 20, y: o.y, z: o.z + 5 }, 60_000)
  const c = bot.entity.position.floored().offset(2, 0, 0)
  bot.chat(`/setblock ${c.x} ${c.y} ${c.z} chest`)
  await waitFor(() => bot.blockAt(c)?.name === 'chest', 3000, 'chest').catch(() => {})
  await ensure(bot, 'dirt', 8)
  await run(bot, 'deposit(all but tools)', { type: 'deposit', items: [], chest: { x: c.x, y: c.y, z: c.z } }, 30_000)
  await run(
    bot,
    'withdraw(3 dirt)',
    { type: 'withdraw', items: [{ object: 'dirt', count: 3 }], chest: { x: c.x, y: c.y, z: c.z } },
    30_000,
  )
  await ensure(bot, 'cobblestone', 15)
  await run(bot, 'build(wall_segment)', { type: 'build', blueprint: 'wall_segment' }, 60_000)
  await guardOnce(bot, port)
}

/** Guard a second client against a summoned zombie: ok when the zombie dies within 30 s and the player is unhurt. */
async function guardOnce(bot: Bot, port: number): Promise<void> {
  const alice = createBot({ host: '127.0.0.1', port, username: 'BenchAlice', version: VERSION, auth: 'offline' })
  alice.on('error', () => {
    /* counted as a failure below */
  })
  const t = tally.get('guard(zombie)') ?? { runs: 0, ok: 0, durations: [], reasons: {} }
  tally.set('guard(zombie)', t)
  t.runs++
  const ac = new AbortController()
  const started = Date.now()
  try {
    await onceEvent(alice, 'spawn', { timeoutMs: 15_000 })
    const p = bot.entity.position.floored()
    bot.chat(`/tp BenchAlice ${p.x + 2} ${p.y} ${p.z}`)
    bot.chat('/time set midnight')
    await ensure(bot, 'stone_sword', 1)
    const guarding = execute(bot, { type: 'guard', player: 'BenchAlice' }, { signal: ac.signal })
    bot.chat(`/summon zombie ${p.x + 2} ${p.y} ${p.z + 9}`)
    await waitFor(() => Object.values(bot.entities).some((e) => e.name === 'zombie'), 5000, 'zombie seen')
    await waitFor(() => !Object.values(bot.entities).some((e) => e.name === 'zombie'), 30_000, 'zombie dead')
    ac.abort()
    await guarding
    if (alice.health < 20) throw new Error('the guarded player was hurt')
    t.ok++
    t.durations.push(Date.now() - started)
    process.stderr.write(`  guard(zombie): ok ${Date.now() - started} ms\n`)
  } catch (err) {
    ac.abort()
    t.reasons.failed = (t.reasons.failed ?? 0) + 1
    process.stderr.write(`  guard(zombie): failed — ${(err as Error).message}\n`)
  } finally {
    bot.chat('/time set day')
    try {
      alice.quit()
    } catch {
      /* gone */
    }
  }
}

async function oneSeed(seed: number): Promise<void> {
  const generator = existsSync(GENERATOR) ? GENERATOR : undefined
  const server = await startEmbeddedServer({ port: 0, version: VERSION, seed, ...(generator ? { generator } : {}) })
  const bot = createBot({
    host: '127.0.0.1',
    port: server.port,
    username: 'BenchGhost',
    version: VERSION,
    auth: 'offline',
  })
  bot.on('error', () => {
    /* surfaced by the spawn timeout */
  })
  try {
    await onceEvent(bot, 'spawn', { timeoutMs: 30_000 })
    await withTimeout(bot.waitForChunksToLoad(), 30_000, 'chunks')
    await waitFor(() => bot.entity.onGround, 10_000, 'landing').catch(() => {})
    bot.chat('/time set day')
    await withTimeout(
      ONLY_COMPANION ? companion(bot, server.port) : scenario(bot, server.port),
      600_000,
      `seed ${seed} scenario`,
    )
  } catch (err) {
    process.stderr.write(`seed ${seed}: ${(err as Error).message}\n`)
  } finally {
    try {
      bot.quit()
    } catch {
      /* gone */
    }
    await server.stop()
  }
}

function median(xs: number[]): number | null {
  if (!xs.length) return null
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m]! : Math.round((s[m - 1]! + s[m]!) / 2)
}

const started = Date.now()
for (let seed = 1; seed <= SEEDS; seed++) {
  process.stderr.write(`seed ${seed}\n`)
  await oneSeed(seed)
}
const rows: Row[] = [...tally].map(([action, t]) => ({
  action,
  runs: t.runs,
  ok: t.ok,
  medianMs: median(t.durations),
  failures:
    Object.entries(t.reasons)
      .map(([r, n]) => `${r}×${n}`)
      .join(' ') || '',
}))
printTable(rows)
const file = writeResult(ONLY_COMPANION ? 'actions-companion' : 'actions', {
  version: VERSION,
  seeds: SEEDS,
  generator: existsSync(GENERATOR) ? 'worldgen' : 'superflat',
  totalMs: Date.now() - started,
  at: new Date().toISOString(),
  actions: Object.fromEntries(
    [...tally].map(([a, t]) => [a, { runs: t.runs, ok: t.ok, medianMs: median(t.durations), reasons: t.reasons }]),
  ),
})
process.stdout.write(`wrote ${file}\n`)
process.exit(0)
