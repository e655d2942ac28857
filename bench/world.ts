/**
 * `npm run bench:world` — practice-world benchmark. Starts the real practice server (child process, default
 * generator, view distance 6), measures start-up time, a mineflayer bot's time to spawn and to load its chunks,
 * and the server's RSS (VmRSS of the child from /proc); measures raw chunk generation speed in-process; then for
 * seeds 1–20 computes, straight from the generator (no server), the spawn point and the 3D distance from it to the
 * nearest log, coal, iron ore and diamond ore, and ore blocks per chunk by y-band beside vanilla 1.20.2's ore settings
 * (bench/lib/ore-density.ts); and, with a real server and bot per seed, the animals within 64 blocks of
 * spawn (natural spawning: how long until the first appears, and how many of each kind after ANIMALS_WAIT_MS,
 * default 20 s — spawning uses Math.random, so these vary between runs). Prints tables, writes bench/results/world.json.
 */
import { readFileSync } from 'node:fs'
import mineflayer from 'mineflayer'
import { printTable, writeResult, type Row } from './lib/table.js'
import { oreDensity } from './lib/ore-density.js'
import { startEmbeddedServer } from '../src/server/process.js'
import { onceEvent, withTimeout } from '../src/util/async.js'
import { PracticeWorld } from '../src/server/worldgen/generator.js'
import { WorldScanner } from '../src/server/worldgen/scan.js'
import { ANIMALS, isAnimalName } from '../src/server/mobs/herds.js'

const VERSION = '1.20.2'

function rssMb(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m ? Math.round(Number(m[1]) / 1024) : null
  } catch {
    return null
  }
}

/** The benchmark's bot on the practice server; connection errors surface through the spawn timeout. */
function benchBot(port: number): mineflayer.Bot {
  const bot = mineflayer.createBot({
    host: '127.0.0.1',
    port,
    username: 'BenchBot',
    version: VERSION,
    hideErrors: true,
    logErrors: false,
  })
  bot.on('error', () => {
    /* surfaced through the spawn timeout */
  })
  return bot
}

async function serverRun(seed: number): Promise<Row> {
  const t0 = performance.now()
  const server = await startEmbeddedServer({ port: 0, version: VERSION, seed, viewDistance: 6 })
  const startupMs = Math.round(performance.now() - t0)
  const idleRssMb = rssMb(server.pid)
  const bot = benchBot(server.port)
  try {
    const t1 = performance.now()
    await onceEvent(bot, 'spawn', { timeoutMs: 30_000 })
    const spawnMs = Math.round(performance.now() - t1)
    await withTimeout(bot.waitForChunksToLoad(), 30_000, 'chunks to load')
    const chunksMs = Math.round(performance.now() - t1)
    await new Promise((r) => setTimeout(r, 500))
    return { seed, startupMs, spawnMs, allChunksMs: chunksMs, idleRssMb, rssWithBotMb: rssMb(server.pid) }
  } finally {
    bot.quit()
    await server.stop()
  }
}

function generationSpeed(): Row {
  const world = PracticeWorld.forVersion(1, VERSION)
  const time = (fn: () => void): number => {
    const t = performance.now()
    fn()
    return performance.now() - t
  }
  const n = 144 // a 12×12 square: what a player with view distance 6 receives
  const coldMs = time(() => {
    for (let i = 0; i < n; i++) world.toChunk(world.generate((i % 12) - 6, Math.floor(i / 12) - 6))
  })
  const warmMs = time(() => {
    for (let i = 0; i < n; i++) world.toChunk(world.generate((i % 12) + 50, Math.floor(i / 12)))
  })
  return { chunks: n, coldMsPerChunk: coldMs / n, warmMsPerChunk: warmMs / n }
}

async function distances(seed: number): Promise<Row> {
  const scanner = WorldScanner.forSeed(seed, VERSION)
  const spawn = await scanner.spawnPoint()
  const dist = (match: (n: string) => boolean): number | null => {
    const f = scanner.nearest(match, spawn, 6)
    return f ? Math.round(f.distance * 10) / 10 : null
  }
  return {
    seed,
    spawn: `${spawn.x - 0.5} ${spawn.y} ${spawn.z - 0.5}`,
    biome: scanner.world.terrain.biome(Math.floor(spawn.x), Math.floor(spawn.z)),
    logM: dist((n) => n.endsWith('_log')),
    coalOreM: dist((n) => n === 'coal_ore' || n === 'deepslate_coal_ore'),
    ironOreM: dist((n) => n === 'iron_ore' || n === 'deepslate_iron_ore'),
    diamondOreM: dist((n) => n === 'diamond_ore' || n === 'deepslate_diamond_ore'),
  }
}

const server = await serverRun(1)
console.log('\nServer (seed 1, view distance 6)')
printTable([server])
const gen = generationSpeed()
console.log('\nChunk generation in-process (generate + toChunk)')
printTable([gen])
const ANIMALS_WAIT_MS = Number(process.env.ANIMALS_WAIT_MS ?? 20_000)

/** Animals a real bot standing at spawn sees within 64 blocks while natural spawning runs. */
async function animals(seed: number): Promise<Row> {
  const server = await startEmbeddedServer({ port: 0, version: VERSION, seed, viewDistance: 6 })
  const bot = benchBot(server.port)
  try {
    await onceEvent(bot, 'spawn', { timeoutMs: 30_000 })
    const t0 = performance.now()
    const near = () =>
      Object.values(bot.entities).filter(
        (e) => isAnimalName(e.name) && e.position.distanceTo(bot.entity.position) <= 64,
      )
    let firstMs: number | null = null
    while (performance.now() - t0 < ANIMALS_WAIT_MS) {
      if (firstMs === null && near().length > 0) firstMs = Math.round(performance.now() - t0)
      await new Promise((r) => setTimeout(r, 250))
    }
    const seen = near()
    const row: Row = { seed, animals: seen.length, firstAnimalMs: firstMs }
    for (const a of ANIMALS) row[a] = seen.filter((e) => e.name === a).length
    return row
  } finally {
    bot.quit()
    await server.stop()
  }
}

const seeds: Row[] = []
for (let seed = 1; seed <= 20; seed++) seeds.push(await distances(seed))
console.log('\nDistance from spawn (blocks, 3D, to the block centre) for seeds 1–20')
printTable(seeds)
const nums = (k: string): number[] => seeds.map((r) => r[k]).filter((v): v is number => typeof v === 'number')
const summary = ['logM', 'coalOreM', 'ironOreM', 'diamondOreM'].map((k) => {
  const v = nums(k).sort((a, b) => a - b)
  return { what: k, found: `${v.length}/20`, min: v[0], median: v[v.length >> 1], max: v.at(-1) }
})
printTable(summary)
const densitySeeds = [1, 2, 3, 4, 5]
const density = oreDensity(
  await Promise.all(
    densitySeeds.map(async (seed) => {
      const scanner = WorldScanner.forSeed(seed, VERSION)
      const spawn = await scanner.spawnPoint()
      return { scanner, cx: Math.floor(spawn.x / 16), cz: Math.floor(spawn.z / 16) }
    }),
  ),
)
console.log(
  `\nOre blocks per chunk by y-band (5×5 chunks around spawn, seeds ${densitySeeds.join(', ')}) beside vanilla 1.20.2's placement (veins/chunk × size, height range)`,
)
printTable(density, { maxWidth: 90 })
const animalRows: Row[] = []
for (let seed = 1; seed <= 20; seed++) animalRows.push(await animals(seed))
console.log(`\nAnimals within 64 blocks of spawn after ${ANIMALS_WAIT_MS / 1000} s of natural spawning, seeds 1–20`)
printTable(animalRows)
const counts = animalRows.map((r) => Number(r.animals)).sort((a, b) => a - b)
const animalSummary = {
  waitMs: ANIMALS_WAIT_MS,
  seedsWithAnimals: counts.filter((c) => c > 0).length,
  min: counts[0],
  median: counts[counts.length >> 1],
  max: counts.at(-1),
}
printTable([animalSummary])
const file = writeResult('world', {
  date: new Date().toISOString(),
  version: VERSION,
  server,
  generation: gen,
  seeds,
  summary,
  oreDensity: density,
  animals: animalRows,
  animalSummary,
})
console.log(`\nwrote ${file}`)
process.exit(0)
