/**
 * `dig_down(ylevel, tool)`: dig straight down to a y-level, with safety checks before every block (never open a block
 * that has lava or water beside or under it, never drop further than a safe fall, stop at unbreakable blocks), and
 * remember where it left the surface so `go_up` can return. Fails with `unsafe`, `no_path` (bedrock) or `missing_tool`.
 */
import type { Action } from '../schemas/action.js'
import { Vec3 } from 'vec3'
import { waitFor } from '../util/async.js'
import { rememberSurface, surfaceOf } from './memory.js'
import { resolveItem } from './names.js'
import { reflexesOf } from './reflexes/index.js'
import { fail, type Run } from './types.js'
import { isUnderground } from '../perception/vision.js'
import { digBlock, equipNamed, goals, goto } from './world.js'
import { noToolMessage } from '../rules/index.js'

const FLUIDS = new Set(['lava', 'water', 'flowing_lava', 'flowing_water'])

export async function digDown(run: Run, action: Extract<Action, { type: 'dig_down' }>): Promise<string> {
  const { bot } = run
  const tool = action.tool === null ? null : resolveItem(bot, action.tool).names[0]!
  if (tool && !bot.inventory.items().some((i) => i.name === tool)) fail('missing_tool', noToolMessage(tool, 'dig down'))
  const start = bot.entity.position.floored()
  if (start.y <= action.ylevel) return `I am already at y ${start.y}, at or below ${action.ylevel}.`
  if (!isUnderground(bot) || !surfaceOf(bot)) rememberSurface(bot, start)
  const maxDrop = reflexesOf(bot)?.options.maxSafeDrop ?? 4
  const centre = async (): Promise<void> => {
    const p = bot.entity.position
    const f = p.floored()
    if (Math.abs(p.x - (f.x + 0.5)) > 0.25 || Math.abs(p.z - (f.z + 0.5)) > 0.25)
      await goto(run, new goals.GoalBlock(f.x, f.y, f.z), 'the middle of my hole').catch(() => run.check())
  }
  run.progress.setTarget(() => bot.entity.position.y - action.ylevel)
  while (Math.floor(bot.entity.position.y + 0.01) > action.ylevel) {
    run.check()
    const feet = bot.entity.position.floored()
    const below = bot.blockAt(feet.offset(0, -1, 0))
    if (!below) fail('error', 'The ground under me is not loaded.')
    if (FLUIDS.has(below.name))
      fail('unsafe', `I stopped digging at y ${feet.y} because there is ${below.name} under me.`)
    for (const d of [
      [1, 0],
      [-1, 0],
      [0, 1],
      [0, -1],
    ] as const) {
      const n = bot.blockAt(feet.offset(d[0], -1, d[1]))?.name ?? ''
      if (FLUIDS.has(n)) fail('unsafe', `I stopped digging at y ${feet.y} because there is ${n} right beside the hole.`)
    }
    if (
      below.boundingBox === 'block' &&
      (below.diggable === false || below.hardness === null || below.name === 'bedrock')
    )
      fail('no_path', `I reached ${below.name} at y ${below.position.y} and cannot dig deeper.`)
    let drop = 0
    for (let y = feet.y - 2; y > feet.y - 3 - maxDrop; y--) {
      const b = bot.blockAt(new Vec3(feet.x, y, feet.z))
      if (!b) break
      if (FLUIDS.has(b.name) && b.name.includes('lava'))
        fail('unsafe', `I stopped digging at y ${feet.y} because there is lava below.`)
      if (b.boundingBox === 'block' || b.name.includes('water')) break
      drop++
    }
    if (drop > maxDrop) fail('unsafe', `I stopped digging at y ${feet.y} because there is a deep drop below.`)
    if (below.boundingBox === 'block') {
      await centre()
      if (tool) await equipNamed(run, tool)
      else await bot.tool.equipForBlock(below, {}).catch(() => {})
      await digBlock(run, below)
    } else run.step()
    await waitFor(
      () => bot.entity.onGround && bot.entity.position.y < feet.y - 0.5,
      4000,
      'falling into the hole',
      50,
      run.signal,
    ).catch(() => run.check())
  }
  const y = Math.floor(bot.entity.position.y + 0.01)
  return `I dug down to y ${y}${surfaceOf(bot) ? '; I remember where I left the surface' : ''}.`
}
