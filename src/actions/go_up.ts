/**
 * `go_up(tool)`: return to the place on the surface that `dig_down` remembered. In the shaft's column it pillars
 * straight up (jump, place a scaffold block from the inventory under itself, digging anything overhead with the
 * tool), which also closes the hole; elsewhere, or when pillaring fails, it lets the pathfinder find a way (towering
 * or a staircase). When the pathfinder finds none (far along the tunnels, or back after a death), any open sky will
 * do: it pillars straight up through the rock from where it stands, stopping at a fluid overhead. Fails with
 * `not_found` when no surface place is remembered, `missing_materials` when it has nothing to pillar with and no
 * path, `no_path` otherwise.
 */
import type { Action } from '../schemas/action.js'
import type { Bot } from 'mineflayer'
import { Vec3 } from 'vec3'
import { waitFor } from '../util/async.js'
import { forgetSurface, surfaceOf } from './memory.js'
import { resolveItem } from './names.js'
import { fail, type Run } from './types.js'
import { equipNamed, fluidNear, goals, goto, noItemSaid } from './world.js'
import { digWith } from './retool.js'
import { SCAFFOLD } from '../bot/create.js'
import { noToolMessage } from '../rules/index.js'

/** Junk blocks first (the bot-wide SCAFFOLD list); crafting materials only as a last resort to get out at all. */
export const PILLAR_BLOCKS = [
  ...SCAFFOLD,
  'cobblestone',
  'stone',
  'deepslate',
  // the planks of every overworld tree in 1.20 (a savanna's acacia beside a desert); names a version lacks never match
  'oak_planks',
  'spruce_planks',
  'birch_planks',
  'jungle_planks',
  'acacia_planks',
  'dark_oak_planks',
  'mangrove_planks',
  'cherry_planks',
  // a desert's blocks (out of a hide's hole there): sand stays put on the block under it
  'sandstone',
  'red_sandstone',
  'sand',
  'red_sand',
]

/** The first pillar block in the inventory, never one of `keep` (blocks a build still needs). */
function scaffold(bot: Bot, keep: ReadonlySet<string> = new Set()) {
  const items = bot.inventory.items()
  for (const name of PILLAR_BLOCKS.filter((n) => !keep.has(n))) {
    const it = items.find((i) => i.name === name)
    if (it) return it
  }
  return undefined
}

/** One above the highest solid block of the bot's column (the open sky starts there), from the loaded world. */
function columnTop(bot: Bot): number {
  const game = bot.game as typeof bot.game & { minY?: number; height?: number }
  const feet = bot.entity.position.floored()
  for (let y = (game.minY ?? -64) + (game.height ?? 384) - 1; y > feet.y + 1; y--)
    if (bot.blockAt(new Vec3(feet.x, y, feet.z))?.boundingBox === 'block') return y + 1
  return feet.y
}

/**
 * Jump-place our way up the current column to `topY`; false when it could not continue. `throughRock`: the column
 * is not our own shaft, so a block overhead with a fluid in or beside it stops the climb instead of being dug.
 */
export async function pillarUp(
  run: Run,
  topY: number,
  tool: string | null,
  keep: ReadonlySet<string>,
  throughRock = false,
): Promise<boolean> {
  const { bot } = run
  let stuck = 0
  while (Math.floor(bot.entity.position.y + 0.01) < topY) {
    run.step()
    const feet = bot.entity.position.floored()
    for (const dy of [2, 3]) {
      const above = bot.blockAt(feet.offset(0, dy, 0))
      if (throughRock && above && fluidNear(bot, above.position)) return false
      if (above && above.boundingBox === 'block' && feet.y + dy <= topY + 1) {
        if (above.diggable === false || above.hardness === null || above.name === 'bedrock') return false
        await digWith(run, above, tool)
      }
    }
    const item = scaffold(bot, keep)
    if (!item) return false
    await bot.equip(item, 'hand')
    const ref = bot.blockAt(feet.offset(0, -1, 0))
    if (ref?.boundingBox !== 'block') return false
    bot.setControlState('jump', true)
    try {
      await waitFor(() => bot.entity.position.y > feet.y + 1.05, 1500, 'jumping', 10, run.signal)
      await bot.placeBlock(ref, new Vec3(0, 1, 0)).catch(() => {})
    } catch {
      run.check()
    } finally {
      bot.setControlState('jump', false)
    }
    await waitFor(() => bot.entity.onGround, 1500, 'landing', 20, run.signal).catch(() => run.check())
    if (Math.floor(bot.entity.position.y + 0.01) <= feet.y) {
      if (++stuck >= 3) return false
    } else stuck = 0
  }
  return true
}

/** `keep`: blocks never spent on pillaring (a build's materials); the pathfinder's own scaffolding is the caller's. */
export async function goUp(
  run: Run,
  action: Extract<Action, { type: 'go_up' }>,
  keep: ReadonlySet<string> = new Set(),
): Promise<string> {
  const { bot } = run
  const tool = action.tool === null ? null : resolveItem(bot, action.tool).names[0]!
  if (tool && !bot.inventory.items().some((i) => i.name === tool))
    fail('missing_tool', noItemSaid(bot, tool, noToolMessage(tool, 'go up')))
  const home = surfaceOf(bot)
  if (!home) fail('not_found', 'I do not remember where I left the surface.')
  const feet = bot.entity.position.floored()
  if (feet.y < home.y) {
    if (feet.x !== home.x || feet.z !== home.z)
      await goto(run, new goals.GoalXZ(home.x, home.z), 'the bottom of my shaft').catch(() => run.check())
    const inShaft = bot.entity.position.floored().x === home.x && bot.entity.position.floored().z === home.z
    if (inShaft) await pillarUp(run, home.y, tool, keep)
  }
  const arrived = (): boolean => {
    const p = bot.entity.position
    return Math.floor(p.y + 0.01) >= home.y && Math.hypot(p.x - (home.x + 0.5), p.z - (home.z + 0.5)) <= 2
  }
  if (!arrived()) {
    if (tool) await equipNamed(run, tool)
    const spots = [
      [0, 0],
      [1, 0],
      [-1, 0],
      [0, 1],
      [0, -1],
    ].map(([dx, dz]) => new goals.GoalBlock(home.x + dx!, home.y, home.z + dz!))
    const lost = await goto(run, new goals.GoalCompositeAny(spots), 'the place where I left the surface').then(
      () => null,
      (err: unknown) => {
        run.check()
        if (!scaffold(bot, keep))
          fail('missing_materials', 'I have no blocks left to climb back up with and found no other way up.')
        return err
      },
    )
    // no way back to the shaft (far along the tunnels, or after a death): any open sky will do, straight up from here
    if (lost) {
      if (await pillarUp(run, columnTop(bot), tool, keep, true)) {
        forgetSurface(bot)
        const p = bot.entity.position.floored()
        return `I am on the surface at ${p.x} ${p.y} ${p.z}; I found no way back to where I left it, so I dug straight up.`
      }
      throw lost
    }
  }
  if (!arrived()) {
    const d = bot.entity.position.floored().distanceTo(home)
    fail('no_path', `I got back up only within ${d.toFixed(1)} blocks of where I left the surface.`)
  }
  forgetSurface(bot)
  return `I am back on the surface at ${home.x} ${home.y} ${home.z}.`
}
