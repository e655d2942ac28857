/**
 * Picking up what lies on the ground: `collectDrops` walks over dropped items near some points (the blocks a mine
 * broke, a killed mob) until the server hands them over, waiting on its events (the drop appearing and landing, the
 * item collected, the inventory update) with one deadline; `pickUp` digs a block the bot placed itself (a table, a
 * furnace) and picks it back up. Split from world.ts, whose walking and digging helpers it uses.
 */
import type { Bot } from 'mineflayer'
import type { Block } from 'prismarine-block'
import type { Entity } from 'prismarine-entity'
import type { Item } from 'prismarine-item'
import type { Vec3 } from 'vec3'
import { onceEvent, waitFor } from '../util/async.js'
import { logger } from '../util/log.js'
import { inPickupRange } from '../util/vec.js'
import { countOf, type Run } from './types.js'
import { digBlock, goals, gotoWithin } from './world.js'

const log = logger('drops')

/**
 * The stack an item entity on the ground holds, or null while it is not known. The server sends an item's spawn and
 * its metadata (which names the stack) in two packets; prismarine-entity's `getDroppedItem()` throws ("reading
 * 'present'") on an item entity whose metadata has not arrived yet, and that failed an attack's pick-up in suite 20
 * and a craft's table pick-up in bench p7. The one place that asks an item entity what it holds.
 */
export function droppedStack(e: Entity | undefined): Item | null {
  if (!e) return null
  try {
    return e.getDroppedItem()
  } catch {
    return null
  }
}

/**
 * Items lying within `radius` of any of `near`; with `wanted`, only stacks of those names (and items whose stack is not
 * known yet): the junk the bot dropped to keep room lies where it mined, and is no drop to fetch.
 */
export function droppedItems(
  entities: Record<string, Entity>,
  near: readonly Vec3[],
  radius: number,
  wanted?: ReadonlySet<string>,
): Entity[] {
  return Object.values(entities).filter((e) => {
    if (e.name !== 'item' || e.isValid === false || !near.some((p) => e.position.distanceTo(p) <= radius)) return false
    const name = wanted && droppedStack(e)?.name
    return !name || wanted.has(name)
  })
}

/**
 * A drop farther than this sideways is walked to even inside the pickup box (1.4 blocks from the body's middle): a
 * margin for the server's view of both positions, a tick behind ours.
 */
const STAND_WITHIN = 1.2

/** Longest wait for a drop to appear after the block broke (its spawn packet comes later on a busy server). */
const DROP_APPEAR_MS = 1500
/**
 * Longest wait, standing on an item, for the server to hand it over: its pickup delay (half a second for a block's
 * drop, two for a tossed item) plus a busy server's late tick. One still lying there after that is not taken (a full
 * bag) and is left.
 */
const PICKUP_MS = 3000

/**
 * Walk over dropped items within `radius` of `near` (a point, or any of several: the blocks a mine broke) until they
 * are picked up or `timeoutMs` passes; with `wanted`, only stacks of those names. Waits on the server's events (the
 * drop appearing, the item collected), never a fixed sleep: a drop whose spawn came late used to be missed, and a
 * crafting table picked back up stayed on the ground.
 */
export async function collectDrops(
  run: Run,
  near: Vec3 | readonly Vec3[],
  radius = 6,
  timeoutMs = 6000,
  wanted?: ReadonlySet<string>,
): Promise<void> {
  const points = Array.isArray(near) ? near : [near as Vec3]
  const { bot } = run
  const deadline = Date.now() + timeoutMs
  const ignored = new Set<number>()
  // the same entity still there (a server that moves an item after it was taken makes mineflayer create a blank
  // entity under its id: that one is no drop)
  const lying = (e: Entity): boolean => bot.entities[e.id] === e
  const left = (capMs: number): number => Math.max(0, Math.min(capMs, deadline - Date.now()))
  if (droppedItems(bot.entities, points, radius, wanted).length === 0)
    await onceEvent<[Entity]>(bot, 'itemDrop', {
      timeoutMs: left(DROP_APPEAR_MS),
      signal: run.signal,
      filter: (e) => points.some((p) => e.position.distanceTo(p) <= radius),
    }).catch(() => run.check())
  while (Date.now() < deadline) {
    run.check()
    const item = droppedItems(bot.entities, points, radius, wanted)
      .filter((e) => !ignored.has(e.id))
      .sort((a, b) => a.position.distanceTo(bot.entity.position) - b.position.distanceTo(bot.entity.position))[0]
    if (!item) return
    // what it is and how many the bag holds now, to see the pickup arrive in the inventory
    const stack = droppedStack(item)
    const held = stack ? countOf(bot, [stack.name]) : 0
    // a drop still falling (a log broken overhead) cannot be walked to where it is now: let it land first
    await waitFor(() => !lying(item) || landed(bot, item), left(SETTLE_MS), 'the drop landing', 50, run.signal).catch(
      () => run.check(),
    )
    if (!lying(item)) continue
    // close enough by the server's own rule, the pickup box: a drop in a hole a block below the feet is a metre off
    // and never handed over (bench p3 compass seed 3 left a furnace so) until the bot steps down to it
    const inReach = (): boolean => inPickupRange(bot.entity.position, item.position)
    const flat = (): number =>
      Math.hypot(item.position.x - bot.entity.position.x, item.position.z - bot.entity.position.z)
    if (!inReach() || flat() > STAND_WITHIN) {
      // the walk ends with the collect's own deadline: a drop in a pocket the pathfinder keeps circling held a
      // craft's table pick-up for its whole 40 s budget (bench seed 10)
      const p = item.position
      await gotoWithin(run, new goals.GoalNear(p.x, p.y, p.z, 0.8), 'the dropped item', left(timeoutMs))
      if (lying(item) && !inReach()) {
        ignored.add(item.id)
        continue
      }
    }
    if (lying(item))
      await onceEvent<[Entity]>(bot, 'entityGone', {
        timeoutMs: left(PICKUP_MS),
        signal: run.signal,
        filter: (e) => e.id === item.id,
      }).catch(() => run.check())
    // still lying here after the pickup delay: the bag is full, or it slid out of reach while we waited
    if (lying(item) && inReach()) ignored.add(item.id)
    else if (stack && !lying(item)) await inBag(run, stack.name, held, left(BAG_MS))
  }
  // what stays on the ground, and why: a station left lying sends a later step off to make a new one (bench p1
  // compass seed 2: a table dug in a tunnel was not in the bag after its 6 s, and the bot climbed 57 s for a log)
  const lost = droppedItems(bot.entities, points, radius, wanted)
  if (lost.length)
    log.debug('left lying', {
      items: lost.map((e) => droppedStack(e)?.name ?? 'item'),
      at: lost.map((e) => e.position.toString()),
      bot: bot.entity.position.toString(),
      ignored: lost.filter((e) => ignored.has(e.id)).length,
      freeSlots: bot.inventory.emptySlotCount(),
    })
}

/** Longest wait for a falling drop to land. */
const SETTLE_MS = 1500

/** Is the item lying on something solid (not falling)? A drop spawns 0.25 above the broken block's floor. */
function landed(bot: Bot, item: Entity): boolean {
  const under = bot.blockAt(item.position.offset(0, -0.3, 0))
  return under !== null && under.boundingBox === 'block'
}

/** Longest wait, once an item is gone from the ground, for the server's inventory update that follows the pickup. */
const BAG_MS = 1000

/**
 * Wait until more than `before` of `name` are in the inventory, at most `ms` (the pickup's slot update comes after
 * the entity is gone: a caller counting at once saw the old count, and mine gave up a log it had just picked up).
 */
async function inBag(run: Run, name: string, before: number, ms: number): Promise<void> {
  const count = (): number => countOf(run.bot, [name])
  await waitFor(() => count() > before, ms, `${name} in the inventory`, 50, run.signal).catch(() => run.check())
}

/**
 * Dig blocks we placed ourselves (a table, furnaces) and pick them back up: all dug first, then their drops collected
 * in one pass (picked up one by one, each furnace of a shared smelt cost its own wait for the drop: 10.6 s for three
 * in bench d19), and only those: a station drops itself, and the cobblestone dropped to keep room beside the furnaces
 * had the collect walk to it first until its deadline, leaving a furnace lying (bench d41 seeds 1 and 10). A block no
 * tool in the bag harvests (a furnace, with no pickaxe) stays where it stands: digging it would only destroy it.
 */
export async function pickUp(run: Run, blocks: readonly Block[]): Promise<void> {
  const dug: Vec3[] = []
  for (const block of blocks) {
    const b = run.bot.blockAt(block.position)
    if (!b || b.type !== block.type) continue
    // the fastest tool held (mineflayer-tool): the first pickaxe in the bag was the wooden one, 2.65 s on a furnace
    // where the stone one takes 1.3 s
    await run.bot.tool.equipForBlock(b, {}).catch(() => {})
    // with no tool that harvests it (a furnace by hand: 17.5 s and no drop), digging would only destroy it: it stays
    if (!b.canHarvest(run.bot.heldItem?.type ?? null)) continue
    await digBlock(run, b)
    dug.push(block.position)
  }
  const names = new Set(blocks.map((b) => b.name))
  if (dug.length) await collectDrops(run, dug, 4, 6000, names)
}
