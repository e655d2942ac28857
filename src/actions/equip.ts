/**
 * `equip(object)`: hold an item from the inventory (armour goes to its armour slot, a shield to the off-hand).
 * Fails with `invalid` for unknown names and `missing_tool` when the bot has none of it.
 */
import type { Action } from '../schemas/action.js'
import { resolveItem } from './names.js'
import { fail, type Run } from './types.js'
import { equipNamed } from './world.js'

export async function equip(run: Run, action: Extract<Action, { type: 'equip' }>): Promise<string> {
  const ref = resolveItem(run.bot, action.object)
  const have = run.bot.inventory.items().find((i) => ref.names.includes(i.name))
  if (!have) fail('missing_tool', `I have no ${action.object} in my inventory.`)
  run.step()
  await equipNamed(run, have.name)
  return `I am now holding ${have.name}.`
}
