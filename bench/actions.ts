/**
 * `npm run bench:actions` — action benchmark. For each of 10 seeds (`--seeds N` or GHOST_BENCH_SEEDS to change; the
 * first is 1, or `--from K` / GHOST_BENCH_FROM) starts the practice server on
 * the generated world (src/server/worldgen, superflat when it is absent), joins a bot made by createBot and runs a
 * hand-written scenario through `execute`: explore/approach/mine logs, craft the wooden tools, dig down, mine
 * cobblestone, go back up, equip, place, build a pillar, attack a summoned cow, shear a summoned sheep, smelt iron
 * and (after digging 12 blocks down, unmeasured) explore underground for iron ore; issue 17's companion skills: goto,
 * deposit, withdraw, build a wall segment and guard a second client against a summoned zombie. Prerequisites an earlier step failed to provide are topped up with /give so
 * every action is measured on its own. `--shelter` instead asks the whole bot (real router, offline planner) for
 * a shelter from an empty inventory in survival: materials through the normal decomposer, then the checked build. Prints success counts and median durations per action and writes
 * bench/results/actions.json (actions-companion.json with `--companion`). `--append` adds this run's seeds to that
 * file's earlier runs (every duration is kept), so 10 seeds can be run in chunks that each fit a short slot.
 */
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Bot } from 'mineflayer'
import type { Entity } from 'prismarine-entity'
import { Vec3 } from 'vec3'
import { createBot } from '../src/bot/create.js'
import { startEmbeddedServer } from '../src/server/process.js'
import { execute } from '../src/actions/index.js'
import type { Action, ActionResult } from '../src/schemas/action.js'
import { onceEvent, sleep, waitFor, withTimeout } from '../src/util/async.js'
import { runOffline } from './lib/offline-run.js'
import { groundNear } from './lib/ground.js'
import { median } from './lib/stats.js'
import { printTable, writeResult, type Row } from './lib/table.js'

const VERSION = '1.20.2'
const GENERATOR = fileURLToPath(new URL('../src/server/worldgen/generator.cjs', import.meta.url))
/** A whole-number option: `--name N` on the command line, else the environment variable, else the default. */
function intOption(flag: string, env: string, fallback: number): number {
  const i = process.argv.indexOf(flag)
  const raw = i > 0 ? process.argv[i + 1] : process.env[env]
  const n = raw === undefined ? fallback : Number(raw)
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} / ${env} must be a whole number ≥ 1, not ${raw}`)
  return n
}
const SEEDS = intOption('--seeds', 'GHOST_BENCH_SEEDS', 10)
const FIRST_SEED = intOption('--from', 'GHOST_BENCH_FROM', 1)
/** `--append`: merge into the results file's earlier runs instead of replacing them. */
const APPEND = process.argv.includes('--append')
/** `--companion`: only issue 17's companion skills (goto, chests, build, guard) per seed. */
const ONLY_COMPANION = process.argv.includes('--companion')
/** `--shelter`: only the survival shelter, asked through the real router with an empty inventory (minutes per seed). */
const ONLY_SHELTER = process.argv.includes('--shelter')
/** Time limit of one survival shelter (GHOST_BENCH_SHELTER_MS). */
const SHELTER_MS = Number(process.env.GHOST_BENCH_SHELTER_MS ?? 480_000)

interface Tally {
  runs: number
  ok: number
  durations: number[]
  reasons: Record<string, number>
}
const tally = new Map<string, Tally>()
const RESULT_NAME = ONLY_SHELTER ? 'actions-shelter' : ONLY_COMPANION ? 'actions-companion' : 'actions'
const RESULT_FILE = fileURLToPath(new URL(`./results/${RESULT_NAME}.json`, import.meta.url))

/** The seeds and per-action tallies an earlier `--append`-able run wrote, or nothing. */
function earlier(): { seeds: number[]; totalMs: number } {
  if (!APPEND || !existsSync(RESULT_FILE)) return { seeds: [], totalMs: 0 }
  const old = JSON.parse(readFileSync(RESULT_FILE, 'utf8')) as {
    seedList?: number[]
    totalMs?: number
    tallies?: Record<string, Tally>
  }
  for (const [k, t] of Object.entries(old.tallies ?? {})) tally.set(k, t)
  return { seeds: old.seedList ?? [], totalMs: old.totalMs ?? 0 }
}
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
  const o = groundNear(bot, 20, 5) // a spot on the ground: the bot's own height may be inside a hill there
  await run(bot, 'goto(20 blocks)', { type: 'goto', ...o }, 60_000)
  const g = groundNear(bot, 2, 0)
  const c = new Vec3(g.x, g.y, g.z)
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

/**
 * Guard a second client against a zombie summoned 9 blocks from her: ok when the zombie dies within 30 s, she is
 * never hurt, and the stop afterwards ends the guard as `interrupted`.
 */
async function guardOnce(bot: Bot, port: number): Promise<void> {
  const alice = createBot({ host: '127.0.0.1', port, username: 'BenchAlice', version: VERSION, auth: 'offline' })
  alice.on('error', () => {
    /* counted as a failure below */
  })
  const t = tally.get('guard(zombie)') ?? { runs: 0, ok: 0, durations: [], reasons: {} }
  tally.set('guard(zombie)', t)
  t.runs++
  const ac = new AbortController()
  let hurt = 0
  try {
    await onceEvent(alice, 'spawn', { timeoutMs: 15_000 })
    alice.on('entityHurt', (e) => {
      if (e === alice.entity) hurt++
    })
    const p = bot.entity.position.floored()
    const side = groundNear(bot, 2, 0) // on the ground: the bot's own height may be inside a hill (she would suffocate)
    bot.chat(`/tp BenchAlice ${side.x + 0.5} ${side.y} ${side.z + 0.5}`)
    bot.chat('/time set midnight')
    await waitFor(() => (bot.players.BenchAlice?.entity?.position.distanceTo(p) ?? 99) < 5, 5000, 'BenchAlice beside')
    await waitFor(() => bot.time.timeOfDay >= 13000, 5000, 'night')
    await ensure(bot, 'stone_sword', 1)
    const started = Date.now()
    const guarding = execute(bot, { type: 'guard', player: 'BenchAlice' }, { signal: ac.signal })
    const spot = groundNear(bot, 2, 9)
    bot.chat(`/summon zombie ${spot.x} ${spot.y} ${spot.z}`)
    // the summoned one (natural zombies spawn too at night): the zombie nearest the summon spot
    const summoned = (): Entity | undefined =>
      Object.values(bot.entities)
        .filter((e) => e.name === 'zombie' && e.position.distanceTo(new Vec3(spot.x, spot.y, spot.z)) < 4)
        .sort((a, b) => a.position.distanceTo(bot.entity.position) - b.position.distanceTo(bot.entity.position))[0]
    await waitFor(() => summoned() !== undefined, 5000, 'zombie seen')
    const zombie = summoned()!
    await waitFor(() => !bot.entities[zombie.id], 30_000, 'zombie dead')
    const killedMs = Date.now() - started
    ac.abort()
    const r = await guarding
    if (hurt > 0 || alice.health < 20) throw new Error(`the guarded player was hurt ${hurt} times`)
    if (r.reason !== 'interrupted') throw new Error(`the stop ended the guard as ${r.reason}: ${r.message}`)
    t.ok++
    t.durations.push(killedMs)
    process.stderr.write(`  guard(zombie): ok, zombie dead after ${killedMs} ms\n`)
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

/**
 * The survival shelter: a fresh world, the whole bot (offline planner), an empty inventory and one request, "build a
 * shelter at <ground 6 blocks away>" (wherever that is: the build fits the shelter to the ground within a few blocks
 * of it, digging and filling as needed): the 55 cobblestone come through the normal decomposer (logs, a pickaxe,
 * mining), then the build and its block-by-block check. ok when the reply says every block checked.
 */
async function shelterSeed(seed: number): Promise<void> {
  const t = tally.get('build(shelter, survival)') ?? { runs: 0, ok: 0, durations: [], reasons: {} }
  tally.set('build(shelter, survival)', t)
  t.runs++
  let site = ''
  const r = await runOffline({
    seed,
    request: (bot) => {
      const g = groundNear(bot, 6, 0)
      site = `${g.x} ${g.y} ${g.z}`
      return `build a shelter at ${site}`
    },
    taskMs: SHELTER_MS,
    startTime: 1000,
    verbosePrefix: '    ',
  })
  const ok = r.finishedOk && /I built the shelter .*all 55 checked/.test(r.reply)
  if (ok) {
    t.ok++
    t.durations.push(r.durationMs)
  } else {
    const why = r.outcome === 'finished' ? 'failed' : r.outcome
    t.reasons[why] = (t.reasons[why] ?? 0) + 1
  }
  process.stderr.write(`  shelter at ${site}: ${ok ? 'ok' : r.outcome} ${r.durationMs} ms — ${r.lastReply}\n`)
}

async function oneSeed(seed: number): Promise<void> {
  if (ONLY_SHELTER) return shelterSeed(seed)
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

const before = earlier()
const started = Date.now()
const seedList = [...before.seeds]

/** Write the results file (after every seed, so a run cut short still leaves what it measured). */
function save(): string {
  return writeResult(RESULT_NAME, {
    version: VERSION,
    seeds: seedList.length,
    seedList,
    generator: existsSync(GENERATOR) ? 'worldgen' : 'superflat',
    totalMs: before.totalMs + Date.now() - started,
    at: new Date().toISOString(),
    actions: Object.fromEntries(
      [...tally].map(([a, t]) => [a, { runs: t.runs, ok: t.ok, medianMs: median(t.durations), reasons: t.reasons }]),
    ),
    tallies: Object.fromEntries(tally),
  })
}

for (let seed = FIRST_SEED; seed < FIRST_SEED + SEEDS; seed++) {
  process.stderr.write(`seed ${seed}\n`)
  await oneSeed(seed)
  seedList.push(seed)
  save()
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
process.stdout.write(`wrote ${save()}\n`)
process.exit(0)
