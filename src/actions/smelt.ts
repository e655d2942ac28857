/**
 * `smelt(object, count, materials, fuel, furnaces)`: smelt `count` items in a furnace (a visible one, or one placed
 * from the inventory and picked back up), putting in the input and enough fuel and waiting until all output is taken.
 * With `furnaces` above one, the items are shared among that many (src/knowledge/furnaces.ts), the extra ones placed
 * from the bag beside the first, each fed its own fuel, and all picked back up: as many as the bag holds, fewer
 * when it holds fewer. Fails with `missing_materials` (input or fuel short), `missing_tool` (no furnace) or `timeout`
 * when output stops coming.
 */
import type { Furnace } from 'mineflayer'
import { createKnowledge } from '../knowledge/index.js'
import { shares } from '../knowledge/furnaces.js'
import { fuelFor, furnacesFed } from '../rules/smelt.js'
import type { Action } from '../schemas/action.js'
import { onceEvent } from '../util/async.js'
import { resolveItem } from './names.js'
import { checkMaterials, release, station, type Station } from './stations.js'
import { countOf, fail, type Run } from './types.js'
import { placeNear } from './placing.js'
import { logger } from '../util/log.js'

const log = logger('smelt')

/** The furnace window's output slot (mineflayer's `outputItem()`); the server updates it as each item is done. */
const OUTPUT_SLOT = 2
/** No output for this long: the furnace has gone out (or its input is gone). */
const STALL_MS = 20_000

type SmeltAction = Extract<Action, { type: 'smelt' }>

export async function smelt(run: Run, action: SmeltAction): Promise<string> {
  const { bot } = run
  const out = resolveItem(bot, action.object).names[0]!
  const inputs = Object.keys(action.materials)
  if (inputs.length !== 1) fail('invalid', 'Smelting takes exactly one kind of input material.')
  const inRef = resolveItem(bot, inputs[0]!)
  const fuelRef = resolveItem(bot, action.fuel)
  const input = bot.inventory.items().find((i) => inRef.names.includes(i.name))
  const fuel = bot.inventory.items().find((i) => fuelRef.names.includes(i.name))
  checkMaterials(run, { [inputs[0]!]: action.count })
  if (!input) fail('missing_materials', `I have no ${inputs[0]} to smelt.`)
  if (!fuel) fail('missing_materials', `I have no ${action.fuel} to burn.`)
  const kb = createKnowledge(bot.version)
  // the rule book's count (the knowledge's fuel table); it rejects a fuel that does not burn before this runs
  const fuelNeeded = fuelFor(kb, fuel.name, action.count) ?? action.count
  const fuelHeld = (): number => countOf(bot, [fuel.name]) - (fuel.name === input.name ? action.count : 0)
  if (fuelHeld() < fuelNeeded) fail('missing_materials', `I need ${fuelNeeded} ${fuel.name} as fuel.`)
  const stations: Station[] = []
  try {
    stations.push(await station(run, 'furnace', out))
    // more furnaces from the bag, as many as asked for, held, and fed by the fuel held
    const want = furnacesFed(kb, fuel.name, action.count, action.furnaces ?? 1, fuelHeld())
    while (stations.length < want && countOf(bot, ['furnace']) > 0) {
      const placed = stations.map((s) => s.block.position)
      const block = await placeNear(run, 'furnace', placed).catch((err: unknown) => {
        log.debug('no more furnaces', { placed: placed.length, why: (err as Error).message })
        return null
      })
      if (!block || placed.some((p) => p.equals(block.position))) break
      stations.push({ block, placed: true })
    }
    const counts = shares(action.count, stations.length)
    const t0 = Date.now()
    for (const [i, n] of counts.entries()) {
      const furnace = await bot.openFurnace(stations[i]!.block)
      try {
        await furnace.putFuel(fuel.type, null, fuelFor(kb, fuel.name, n) ?? n)
        await furnace.putInput(input.type, null, n)
        const [inSlot, fuelSlot] = [furnace.inputItem(), furnace.fuelItem()]
        log.debug('loaded', { at: stations[i]!.block.position.toString(), input: inSlot?.count, fuel: fuelSlot?.count })
      } finally {
        furnace.close()
      }
    }
    const t1 = Date.now()
    let taken = 0
    for (const [i, n] of counts.entries()) {
      const furnace = await bot.openFurnace(stations[i]!.block)
      try {
        const t = Date.now()
        taken += await takeAll(run, furnace, n, out)
        log.debug('took', { at: stations[i]!.block.position.toString(), n, ms: Date.now() - t })
      } finally {
        furnace.close()
      }
    }
    log.debug('smelted', { out, shares: counts, loadMs: t1 - t0, cookMs: Date.now() - t1 })
    return `I smelted ${taken} ${out}${stations.length > 1 ? ` in ${stations.length} furnaces` : ''}.`
  } finally {
    const t2 = Date.now()
    await release(run, ...stations).catch(() => {})
    log.debug('released', { furnaces: stations.filter((s) => s.placed).length, ms: Date.now() - t2 })
  }
}

/** Take `n` items of output from an open furnace as they come; `timeout` when none comes for STALL_MS. */
async function takeAll(run: Run, furnace: Furnace, n: number, out: string): Promise<number> {
  let taken = 0
  let lastGain = Date.now()
  while (taken < n) {
    const o = furnace.outputItem()
    if (o && o.count > 0) {
      run.step() // a step per take: 10 s an item, so a poll every 500 ms had used the 64 steps by the 4th item
      const got = await furnace.takeOutput()
      taken += got?.count ?? 0
      // an item out is work done: a smelt inside a tracked action (the re-tool's, under explore) stands still for
      // 10 s an item, and bench d65 seed 42's explore stopped as stalled 30 s into its re-tool's smelt, one ingot short
      run.progress.work(got?.count ?? 0)
      lastGain = Date.now()
      continue
    }
    const waitMs = STALL_MS - (Date.now() - lastGain)
    if (waitMs <= 0) fail('timeout', `The furnace stopped giving ${out} after ${taken} of ${n}.`)
    await onceEvent(furnace, `updateSlot:${OUTPUT_SLOT}`, { timeoutMs: waitMs, signal: run.signal }).catch(() =>
      run.check(),
    )
  }
  return taken
}
