/**
 * Shared hands for the handlers: abortable pathfinder movement (failures mapped to `no_path`/`timeout`), equipping a
 * named item (a tool found gone because it wore out is said so: ../bot/wear.ts), digging one block with a given
 * tool (placing a block is placing.ts, picking drops up is drops.ts). Each helper honours the run's AbortSignal and
 * cleans up its listeners; none of them decides an action's outcome beyond throwing ActionFailure with a fixed reason.
 */
import type { Bot } from 'mineflayer'
import type { Block } from 'prismarine-block'
import pathfinderPkg from 'mineflayer-pathfinder'
import { Vec3 } from 'vec3'
import { standStill } from '../bot/body.js'
import { clearOfDanger } from '../bot/lava-margin.js'
import { createKnowledge } from '../knowledge/index.js'
import { pathTo } from '../bot/path-to.js'
import { brokeLately, harvestToolsHeld, lastBroken } from '../bot/wear.js'
import { playerPlacedAt } from '../perception/placed.js'
import { reachTo } from '../perception/vision.js'
import { neverPlayerPlaced } from '../rules/policy.js'
import { describeBox, inBox } from '../schemas/region.js'
import { onceEvent } from '../util/async.js'
import { logger } from '../util/log.js'
import { FACES } from '../util/vec.js'
import { FIGHT_MS } from './reflexes/combat.js'
import { reflexesOf } from './reflexes/index.js'
import { fail, type Run } from './types.js'

const { goals } = pathfinderPkg
const log = logger('world')
export { goals }
type Goal = Parameters<Bot['pathfinder']['goto']>[0]

/**
 * Longest wait for a reflex to give the body back: the longest reflex, a fight (the guard's step back lasts under a
 * second, a flight FLEE_MS; the wait ends as soon as the reflex does).
 */
const REFLEX_CALM_MS = FIGHT_MS
/** Longest wait for the body to land after the pathfinder says it arrived (a jump lasts about 0.6 s). */
const LANDING_MS = 1500
/** Times a goal the pathfinder reached in mid-air and lost on landing is walked to again. */
const LANDING_RETRIES = 2
/**
 * Ask a walk's `until` condition on every physics tick (goto, gotoWithin), in step with the body's movement: a wall
 * clock's poll misses a sight the walk passes when the event loop is late (under load mineflayer catches up several
 * ticks at once, the body moves blocks between two polls: ore-search's cave walk in clean-clone run ci7 walked past
 * its niche to the far end). Returns the disposer.
 */
function everyTick(bot: Bot, fn: () => void): () => void {
  bot.on('physicsTick', fn)
  return () => bot.removeListener('physicsTick', fn)
}

/** Blocks that fall when nothing is under them (sand, gravel, concrete powder, anvils). */
export function falls(name: string): boolean {
  return /(^|_)(sand|gravel)$|concrete_powder$|anvil$/.test(name)
}

/** A fluid in or next to the block at `p` (opening it, or standing there, would let the fluid in on the bot). */
export function fluidNear(bot: Bot, p: Vec3): boolean {
  return [new Vec3(0, 0, 0), ...FACES].some((d) => /lava|water/.test(bot.blockAt(p.plus(d))?.name ?? ''))
}

/** Whether the bot's block satisfies the goal (goals read only a node's x, y and z). */
function arrived(goal: Goal, bot: Bot): boolean {
  return goal.isEnd(bot.entity.position.floored() as unknown as Parameters<Goal['isEnd']>[0])
}

/**
 * Path to a goal; resolves when the pathfinder says it arrived (callers verify), throws no_path/timeout failures.
 * A reflex still moving the body (the guard stepping back from an edge the run detoured, a fight with a zombie that
 * came at the bot, a flight) finishes first: walking off would drag the bot out of the fight or back to the mob.
 * `until` (asked every physics tick) ends the walk where the bot stands as soon as it holds — also when the
 * pathfinder is still working on, or has given up on, the rest of the way: a player on a tree top is reached from
 * its foot, not after the pathfinder's whole think time (requests.test's `come`).
 */
export async function goto(run: Run, goal: Goal, what: string, until?: () => boolean): Promise<void> {
  const { bot } = run
  run.check()
  if (until?.()) return
  const reflexes = reflexesOf(bot)
  if (reflexes?.busy())
    await onceEvent(bot, 'physicsTick', {
      filter: () => !reflexes.busy(),
      timeoutMs: REFLEX_CALM_MS,
      signal: run.signal,
    }).catch(() => run.check())
  const onAbort = (): void => standStill(bot)
  run.signal.addEventListener('abort', onAbort, { once: true })
  // the walk `until` stopped ends well even when the body, still moving, drifts back out of the condition before the
  // pathfinder's rejection of the cancelled goal arrives (reflexes-skills' low pillar: 3.01 blocks from reach 3)
  let untilHeld = false
  const unpoll = until
    ? everyTick(bot, () => {
        if (untilHeld || !until()) return
        untilHeld = true
        standStill(bot)
      })
    : () => {}
  try {
    for (let attempt = 0; ; attempt++) {
      await pathTo(bot, goal)
      // the pathfinder checks its goal every tick, mid-jump too: a tower step "arrives" at the top of its jump, before
      // the block under it is placed; judge the arrival where the body lands (swimming, it never lands: no wait)
      const body = bot.entity as typeof bot.entity & { isInWater?: boolean } // set by prismarine-physics, not typed
      const landed = (): boolean => body.onGround || body.isInWater === true
      if (!landed()) await onceEvent(bot, 'physicsTick', { filter: landed, timeoutMs: LANDING_MS }).catch(() => {})
      if (attempt >= LANDING_RETRIES || arrived(goal, bot) || until?.()) break
      run.check()
    }
  } catch (err) {
    run.check()
    if (untilHeld || until?.()) return
    const name = (err as Error).name
    if (name === 'NoPath') fail('no_path', `I found no path to ${what}.`)
    if (name === 'Timeout') fail('no_path', `I could not work out a path to ${what} in time.`)
    fail('error', `Moving to ${what} failed: ${(err as Error).message}.`)
  } finally {
    unpoll()
    run.signal.removeEventListener('abort', onAbort)
    // after an abort the registry has already stopped the body; a late standStill could cancel the next action
    if (!run.signal.aborted) standStill(bot)
  }
  run.check()
}

/**
 * After a walk's time is up, how long the pathfinder may take to honour its stop before the body is stopped outright.
 * mineflayer-pathfinder 2.4.5 stops only on reaching its next node (never mid-jump): a pathfinder still working out
 * a path, or digging toward a node, walks on (bench d13 seed 10: picking a table back up, the walk to its drop went
 * on past the collect's limit until the craft's 40 s ran out).
 */
const STOP_GRACE_MS = 2000

/**
 * Walk toward `goal` for at most `ms`, or until `until()` holds (asked every physics tick): the pathfinder is
 * stopped then, at its next node, and STOP_GRACE_MS later at once. A walk that fails or is stopped is no error: the
 * caller judges where the bot ended up. A stop of the run still throws.
 */
export async function gotoWithin(
  run: Run,
  goal: Goal,
  what: string,
  ms: number,
  until: () => boolean = () => false,
): Promise<void> {
  let grace: ReturnType<typeof setTimeout> | undefined
  const end = (): void => {
    clearTimeout(timer)
    unpoll()
    if (grace !== undefined) return
    run.bot.pathfinder.stop()
    grace = setTimeout(() => standStill(run.bot), STOP_GRACE_MS)
  }
  const timer = setTimeout(end, ms)
  const unpoll = everyTick(run.bot, () => {
    if (until()) end()
  })
  try {
    await goto(run, goal, what).catch(() => run.check())
  } finally {
    clearTimeout(timer)
    unpoll()
    clearTimeout(grace)
  }
}

/**
 * Run a walk as it is or, once the guard has turned a walk of this run back (a cave's rim, lava ahead: `run.detours()`),
 * with every step it would turn back ruled out (`clearOfDanger`): the pathfinder then goes round through the rock or
 * finds no path at once, where a weighed walk to the same rim only ends there again and uses up another of the run's
 * detours (bench d63 seed 42: at y 24 on a cave's rim, each way down walked to the rim; 42 turn-backs, six ending each
 * search, used up the 12 plans for its raw iron, and the diamond was given up at 154 s).
 */
export function clearAfterTurnBack<T>(run: Run, walk: () => Promise<T>): Promise<T> {
  return run.detours() > 0 ? clearOfDanger(run.bot, walk) : walk()
}

/** How long after a tool broke its absence is put down to the break. */
const BROKE_TOLD_MS = 10 * 60_000

/** Why the bot holds no `name`: it wore out lately (and broke), or `otherwise`. */
export function noItemSaid(bot: Bot, name: string, otherwise: string): string {
  return brokeLately(bot, name, BROKE_TOLD_MS) ? `My ${name} wore out and broke.` : otherwise
}

/**
 * Fails with `missing_tool` when `block` drops only for tools, the bag holds none of them, and one of them wore out
 * lately: a pickaxe that broke in a tunnel leaves deepslate to the hand, 15 s a block, with nothing to show for it,
 * so the search stops and the re-plan makes another. (A bot that never had one digs on by hand, as before.)
 */
export function needHarvestTool(bot: Bot, block: Block): void {
  const held = harvestToolsHeld(bot, block)
  if (!held || held.length > 0) return
  const broke = lastBroken(bot, createKnowledge(bot.version).harvestTools(block.name), BROKE_TOLD_MS)
  if (broke) fail('missing_tool', `My ${broke} wore out and broke; I have nothing to dig ${block.name} with.`)
}

/** Hold the named item in the hand (or in the armour/off-hand slot for armour and shields). */
export async function equipNamed(run: Run, name: string | null): Promise<void> {
  const { bot } = run
  if (name === null) {
    if (bot.heldItem) await bot.unequip('hand').catch(() => {})
    return
  }
  const item = bot.inventory.items().find((i) => i.name === name)
  if (!item) fail('missing_tool', noItemSaid(bot, name, `I have no ${name} to hold.`))
  const dest = /_helmet$/.test(name)
    ? 'head'
    : /_chestplate$|^elytra$/.test(name)
      ? 'torso'
      : /_leggings$/.test(name)
        ? 'legs'
        : /_boots$/.test(name)
          ? 'feet'
          : name === 'shield'
            ? 'off-hand'
            : 'hand'
  await bot.equip(item, dest)
  run.check()
}

/**
 * How near (blocks, feet to block) a walk to a block out of reach goes before digging it: the eyes are then within
 * about 4.5 blocks of it (vanilla's reach; servers allow 6), from the ground below a log or across a cave floor.
 */
const DIG_FROM = 3

/** Dig one block (the tool must already be in hand); counts a step and reports work to the progress signal. */
export async function digBlock(run: Run, block: Block): Promise<void> {
  const { bot } = run
  const box = run.protected.find((b) => inBox(b, block.position))
  if (box)
    fail(
      'unsafe',
      `I never dig inside the protected area ${describeBox(box)}; ${block.name} at ${block.position.x} ${block.position.y} ${block.position.z} is in it.`,
    )
  const placed = playerPlacedAt(bot, block.position)
  if (placed?.block === block.name) fail('unsafe', neverPlayerPlaced(block.name, [placed]))
  run.step()
  const onAbort = (): void => {
    try {
      bot.stopDigging()
    } catch {
      /* not digging */
    }
  }
  run.signal.addEventListener('abort', onAbort, { once: true })
  try {
    const reach = reachTo(bot, block.position)
    const t0 = Date.now()
    if (reach > 5.5) {
      // near enough to reach it, not right beside it: a log above the lowest one, with leaves around it, has no
      // free cell beside it to stand in (bench seed 5 walked round such a tree for 20 s)
      const p = block.position
      const held = bot.heldItem?.name
      await goto(run, new goals.GoalNear(p.x, p.y, p.z, DIG_FROM), block.name)
      // the walk may leave a scaffold block or another tool in hand (the pathfinder places and digs on its way): the
      // ore 8 blocks up, reached by a tower, was dug by hand in 15 s and dropped nothing (5 benches, 1–2 a run)
      if (held && bot.heldItem?.name !== held && bot.inventory.items().some((i) => i.name === held))
        await equipNamed(run, held)
    }
    const t1 = Date.now()
    await bot.dig(block, true)
    log.debug('dug', { block: block.name, reach, walkMs: t1 - t0, digMs: Date.now() - t1 })
  } catch (err) {
    run.check()
    fail('error', `Digging ${block.name} failed: ${(err as Error).message}.`)
  } finally {
    run.signal.removeEventListener('abort', onAbort)
  }
  run.progress.work(1)
  run.check()
}

export { Vec3 }
