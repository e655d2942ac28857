/**
 * `place(object)`: put one block from the inventory next to the bot (placing.ts: on solid ground, else in a dug
 * pocket, else a full block against the side of one in reach). Fails with `invalid` for
 * unknown or non-block items, `missing_materials` when it has none, `no_space` when no free spot next to it works.
 */
import type { Action } from '../schemas/action.js'
import { resolveItem } from './names.js'
import { fail, type Run } from './types.js'
import { placeNear } from './placing.js'

export async function place(run: Run, action: Extract<Action, { type: 'place' }>): Promise<string> {
  const { bot } = run
  const ref = resolveItem(bot, action.object)
  const name = ref.names.find((n) => bot.inventory.items().some((i) => i.name === n)) ?? ref.names[0]!
  if (!bot.registry.blocksByName[name]) fail('invalid', `${name} is not a block I can place.`)
  run.step()
  const block = await placeNear(run, name)
  const p = block.position
  return `I placed ${name} at ${p.x} ${p.y} ${p.z}.`
}
