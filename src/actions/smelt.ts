/**
 * `smelt(object, count, materials, fuel)`: smelt `count` items in a furnace (a visible one, or one placed from the
 * inventory and picked back up), putting in the input and enough fuel and waiting until all output is taken. Fails
 * with `missing_materials` (input or fuel short), `missing_tool` (no furnace) or `timeout` when output stops coming.
 */
import { createKnowledge } from '../knowledge/index.js'
import { fuelFor } from '../rules/smelt.js'
import type { Action } from '../schemas/action.js'
import { onceEvent } from '../util/async.js'
import { resolveItem } from './names.js'
import { checkMaterials, release, station, type Station } from './stations.js'
import { countOf, fail, type Run } from './types.js'

/** The furnace window's output slot (mineflayer's `outputItem()`); the server updates it as each item is done. */
const OUTPUT_SLOT = 2
/** No output for this long: the furnace has gone out (or its input is gone). */
const STALL_MS = 20_000

export async function smelt(run: Run, action: Extract<Action, { type: 'smelt' }>): Promise<string> {
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
  // the rule book's count (the knowledge's fuel table); it rejects a fuel that does not burn before this runs
  const fuelNeeded = fuelFor(createKnowledge(bot.version), fuel.name, action.count) ?? action.count
  if (countOf(bot, [fuel.name]) < fuelNeeded + (fuel.name === input.name ? action.count : 0))
    fail('missing_materials', `I need ${fuelNeeded} ${fuel.name} as fuel.`)
  let furnaceStation: Station | null = null
  try {
    furnaceStation = await station(run, 'furnace', out)
    const furnace = await bot.openFurnace(furnaceStation.block)
    let taken = 0
    try {
      await furnace.putFuel(fuel.type, null, fuelNeeded)
      await furnace.putInput(input.type, null, action.count)
      let lastGain = Date.now()
      while (taken < action.count) {
        const o = furnace.outputItem()
        if (o && o.count > 0) {
          run.step() // a step per take: 10 s an item, so a poll every 500 ms had used the 64 steps by the 4th item
          const got = await furnace.takeOutput()
          taken += got?.count ?? 0
          lastGain = Date.now()
          continue
        }
        const waitMs = STALL_MS - (Date.now() - lastGain)
        if (waitMs <= 0) fail('timeout', `The furnace stopped giving ${out} after ${taken} of ${action.count}.`)
        await onceEvent(furnace, `updateSlot:${OUTPUT_SLOT}`, { timeoutMs: waitMs, signal: run.signal }).catch(() =>
          run.check(),
        )
      }
    } finally {
      furnace.close()
    }
    await release(run, furnaceStation)
    furnaceStation = null
    return `I smelted ${taken} ${out}.`
  } catch (err) {
    if (furnaceStation) await release(run, furnaceStation).catch(() => {})
    throw err
  }
}
