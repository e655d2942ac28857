/**
 * `apply(object, tool)`: use a tool on a visible block or entity — a bucket on water, lava or a cow, shears on a
 * sheep, a hoe on dirt — after walking within reach. Success is judged by a change in the inventory or the block;
 * when nothing changes the result is `unverified`. Fails with `missing_tool` or `not_found` first.
 */
import type { Action } from '../schemas/action.js'
import { sleep } from '../util/async.js'
import { resolveItem, resolveTarget } from './names.js'
import { fail, inventoryCounts, type Run } from './types.js'
import { nearestVisibleBlock, visibleEntities } from '../perception/vision.js'
import { equipNamed, goals, goto } from './world.js'
import { collectDrops } from './drops.js'

function changed(a: Record<string, number>, b: Record<string, number>): boolean {
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) if ((a[k] ?? 0) !== (b[k] ?? 0)) return true
  return false
}

export async function apply(run: Run, action: Extract<Action, { type: 'apply' }>): Promise<string> {
  const { bot } = run
  const tool = resolveItem(bot, action.tool).names.find((n) => bot.inventory.items().some((i) => i.name === n))
  if (!tool) fail('missing_tool', `I have no ${action.tool}.`)
  const target = resolveTarget(bot, action.object)
  if (target.kind === 'biome')
    fail('invalid', `${action.object} is a biome; I can only use ${action.tool} on a block or a creature.`)
  const before = inventoryCounts(bot)
  run.step()
  if (target.kind === 'entity') {
    const e = visibleEntities(bot, target.names)[0]
    if (!e) fail('not_found', `I cannot see any ${action.object} from here.`)
    if (e.position.distanceTo(bot.entity.position) > 2.5)
      await goto(run, new goals.GoalNear(e.position.x, e.position.y, e.position.z, 2), `the ${action.object}`)
    await equipNamed(run, tool)
    await bot.lookAt(e.position.offset(0, (e.height ?? 1) / 2, 0), true)
    const at = e.position.clone()
    await bot.activateEntity(e)
    await collectDrops(run, at, 4, 2500) // shearing drops wool on the ground
  } else {
    const b = nearestVisibleBlock(bot, target.block.blockIds)
    if (!b) fail('not_found', `I cannot see any ${action.object} from here.`)
    const p = b.position
    if (bot.entity.position.distanceTo(p.offset(0.5, 0.5, 0.5)) > 4)
      await goto(run, new goals.GoalNear(p.x, p.y, p.z, 2), action.object)
    await equipNamed(run, tool)
    await bot.lookAt(p.offset(0.5, 0.5, 0.5), true)
    if (b.boundingBox === 'empty') {
      bot.activateItem()
      await sleep(100, run.signal).catch(() => run.check())
      bot.deactivateItem()
    } else await bot.activateBlock(b)
  }
  const deadline = Date.now() + 2000
  while (Date.now() < deadline && !changed(before, inventoryCounts(bot)))
    await sleep(100, run.signal).catch(() => run.check())
  if (!changed(before, inventoryCounts(bot)))
    fail('unverified', `I used the ${tool} on the ${action.object} but nothing seemed to change.`)
  return `I used the ${tool} on the ${action.object}.`
}
