/**
 * `hide()`: sit out the night where zombies cannot reach, as a player does on a first night without a bed. On the
 * surface it first runs from any hostile mob within LEAD blocks (digging in takes seconds), then digs straight down
 * `DEPTH` blocks with `dig_down` (its safety checks, its remembered surface), deeper (up to `MAX_DEPTH`) when only a
 * lower block drops something to seal with, seals the hole one block above its head with a block that does not fall,
 * and waits there until it is day and no hostile mob is near (zombies burn at sunrise) or `AFTER_DAWN_MS` has passed
 * since, then climbs back out with `go_up`. Below ground already (a cave, a shaft) it waits where it is. It ends at
 * once when it is already day. With nothing else to seal with, it makes planks of a log in the bag, or else walks to
 * the nearest ground within SEAL_REACH whose hole would give a seal (off a desert's sand onto grass). Fails with
 * `missing_materials` (nothing to seal the hole with, here or near: checked before it digs), and with `dig_down`'s
 * and `go_up`'s reasons.
 */
import type { Bot } from 'mineflayer'
import type { Entity } from 'prismarine-entity'
import type { Action } from '../schemas/action.js'
import { Vec3 } from 'vec3'
import { phaseOf } from '../perception/percipient.js'
import { isUnderground, sealedIn } from '../perception/vision.js'
import { waitFor } from '../util/async.js'
import { craft } from './craft.js'
import { digDown } from './dig_down.js'
import { goUp, PILLAR_BLOCKS } from './go_up.js'
import { dropsOf, harvestedBy } from './names.js'
import { isHostileMob } from './threats.js'
import { fail, type Run } from './types.js'
import { falls, fluidNear, goals, gotoWithin } from './world.js'
import { FACES, ringCells } from '../util/vec.js'

/** Blocks dug below the feet: the bot stands two below the ground with its head one below, the seal above that. */
const DEPTH = 3
/** How long it waits for the drop of the last block dug to reach the bag. */
const DROP_WAIT_MS = 3000
/** The deepest hole dug to reach a block that drops a seal. */
const MAX_DEPTH = 8
/** How far (blocks, each axis) it looks for ground to dig in when its own hole would have nothing to seal with. */
const SEAL_REACH = 32
/** Ground counts within this many blocks above or below the feet (a walk, not a climb or a fall). */
const SEAL_RISE = 3
/** The longest walk to that ground (a sprint across SEAL_REACH blocks takes about 6 s). */
const SEAL_WALK_MS = 15_000
/** After sunrise, the longest it waits for the zombies above to burn (1 damage a second, 20 health) or leave. */
const AFTER_DAWN_MS = 30_000
/** A hostile mob this near keeps it inside after sunrise. */
const HOSTILE_NEAR = 12
/** A hostile mob nearer than this when the bot is about to dig in is outrun first (`outrun`). */
const LEAD = 16
/** Blocks past LEAD each run goes (the mob follows), the longest single run, and the longest run for a lead. */
const RUN_PAST = 8
const RUN_MS = 8000
const OUTRUN_MS = 30_000
const LOOK_MS = 1000
/** The wait for the morning has no bound of its own: the action's budget (a whole night) or a stop ends it. */
const UNTIL_MORNING_MS = 24 * 3600_000
/** The one sentence for a hole with nothing to close it. */
const NO_SEAL = 'I have no block to close the hole over my head with.'

/** What may seal the hole: the blocks `go_up` pillars with, never a falling one (it would drop on the bot's head). */
const SEALS = PILLAR_BLOCKS.filter((n) => !falls(n))

function isDay(bot: Bot): boolean {
  return phaseOf(bot.time.timeOfDay) === 'day'
}

/** The nearest hostile mob within `range` blocks, or null. */
function nearestHostile(bot: Bot, range: number): Entity | null {
  const me = bot.entity.position
  return bot.nearestEntity((e) => isHostileMob(bot, e) && e.position.distanceTo(me) <= range)
}

/**
 * Run from the hostile mobs until none is within LEAD blocks (at most OUTRUN_MS): digging in takes a few seconds, and
 * a zombie that reaches the bot in the hole sets the combat reflex off, which ends the hide (bench mp5 2-3 seed 2 at
 * night: both hides ended "unsafe: I ran from the zombie" and a zombie killed it). A player sprints at 5.6 blocks a
 * second, a zombie walks at 2.3: the lead grows.
 */
async function outrun(run: Run): Promise<void> {
  const { bot } = run
  const deadline = Date.now() + OUTRUN_MS
  for (let mob = nearestHostile(bot, LEAD); mob && Date.now() < deadline; mob = nearestHostile(bot, LEAD)) {
    run.step()
    const m = mob.position
    const away = new goals.GoalInvert(new goals.GoalNear(m.x, m.y, m.z, LEAD + RUN_PAST))
    await gotoWithin(run, away, `away from the ${mob.name ?? 'mob'}`, Math.min(RUN_MS, deadline - Date.now()))
  }
}

/**
 * How deep below the feet the hole goes: DEPTH when a seal block is held or the blocks dug on the way drop one (dirt
 * from grass, cobblestone from stone), deeper when only a lower block does (a desert's sandstone under 4–5 blocks of
 * sand: mp5 2-3 in a desert at night, "I have no block to close the hole over my head with"), at most MAX_DEPTH; null
 * when none does.
 */
function holeDepth(bot: Bot, feet: Vec3): number | null {
  if (bot.inventory.items().some((i) => SEALS.includes(i.name))) return DEPTH
  const held = bot.inventory.items().map((i) => i.type)
  for (let dy = 1; dy <= MAX_DEPTH; dy++) {
    const b = bot.blockAt(feet.offset(0, -dy, 0))
    if (b && harvestedBy(b, held) && dropsOf(bot, b.name).some((d) => SEALS.includes(d))) return Math.max(DEPTH, dy)
  }
  return null
}

/** The feet of a standing spot in the column (x, z) within SEAL_RISE of `near`'s height, nearest that height first. */
function groundIn(bot: Bot, x: number, z: number, near: number): Vec3 | null {
  for (let d = 0; d <= SEAL_RISE; d++)
    for (const y of d === 0 ? [near] : [near - d, near + d]) {
      const feet = new Vec3(x, y, z)
      const [under, at, head] = [-1, 0, 1].map((dy) => bot.blockAt(feet.offset(0, dy, 0)))
      if (under?.boundingBox === 'block' && at?.boundingBox === 'empty' && head?.boundingBox === 'empty')
        if (!fluidNear(bot, feet) && !falls(under.name)) return feet
    }
  return null
}

/**
 * The nearest ground within SEAL_REACH whose hole would give a seal (`holeDepth`), ring by ring, or null: a desert's
 * sand with no pickaxe for the sandstone under it has none, the grass at its edge has dirt (bench mp5 4-3 seed 2,
 * c25: "I have no block to close the hole over my head with" in the desert at night, and a zombie killed it).
 */
function groundToHideIn(bot: Bot, from: Vec3): Vec3 | null {
  for (let r = 1; r <= SEAL_REACH; r++)
    for (const [dx, dz] of ringCells(r)) {
      const feet = groundIn(bot, from.x + dx, from.z + dz, from.y)
      if (feet && holeDepth(bot, feet) !== null) return feet
    }
  return null
}

/**
 * Planks crafted in the 2×2 grid (no table) from a log in the bag, when nothing held or dug would seal the hole: the
 * wood left over from making a sword, on sand with no pickaxe for the sandstone under it (bench mp5 2-3 seed 1 at a
 * desert's edge: "I have no block to close the hole over my head with"). True when it crafted some.
 */
async function planksFromLogs(run: Run): Promise<boolean> {
  const { bot } = run
  const craftable = (name: string): boolean => {
    const id = bot.registry.itemsByName[name]?.id
    return id !== undefined && bot.recipesFor(id, null, 1, null).length > 0
  }
  const planks = SEALS.find((n) => n.endsWith('_planks') && craftable(n))
  if (!planks) return false
  await craft(run, { type: 'craft', object: planks, count: 1, materials: {}, tool: null })
  return true
}

/** Place a seal block at `at` against any solid neighbour (the hole's walls, or what is above). */
async function seal(run: Run, at: Vec3): Promise<void> {
  const { bot } = run
  const held = (): ReturnType<Bot['inventory']['items']>[number] | undefined =>
    bot.inventory.items().find((i) => SEALS.includes(i.name))
  // the last block dug may be the seal (sandstone at the bottom of a desert hole): its drop lands a moment later
  await waitFor(() => held() !== undefined, DROP_WAIT_MS, 'the seal block', 100, run.signal).catch(() => run.check())
  const item = held()
  if (!item) fail('missing_materials', NO_SEAL)
  await bot.equip(item, 'hand')
  for (const face of FACES) {
    const ref = bot.blockAt(at.plus(face))
    if (ref?.boundingBox !== 'block') continue
    run.step()
    await bot.placeBlock(ref, face.scaled(-1)).catch(() => run.check())
    if (bot.blockAt(at)?.boundingBox === 'block') return
  }
  fail('unverified', `I could not close the hole over my head at ${at.x} ${at.y} ${at.z}.`)
}

/** Wait for the day, then for the hostile mobs near to burn or leave (at most AFTER_DAWN_MS). */
async function waitForMorning(run: Run): Promise<void> {
  const { bot } = run
  await waitFor(() => isDay(bot), UNTIL_MORNING_MS, 'the morning', LOOK_MS, run.signal)
  await waitFor(
    () => !nearestHostile(bot, HOSTILE_NEAR),
    AFTER_DAWN_MS,
    'the zombies to burn',
    LOOK_MS,
    run.signal,
  ).catch(() => {
    run.check()
  })
}

export async function hide(run: Run, _action: Extract<Action, { type: 'hide' }>): Promise<string> {
  const { bot } = run
  if (isDay(bot)) return 'It is day: there is no need to hide.'
  if (isUnderground(bot)) {
    await waitForMorning(run)
    return 'I waited below ground until morning.'
  }
  // the flee reflex runs the same way (a zombie already within its reach): the hide goes on
  await run.fleeing(() => outrun(run))
  let start = bot.entity.position.floored()
  let depth = holeDepth(bot, start)
  if (depth === null && (await planksFromLogs(run))) depth = holeDepth(bot, start)
  if (depth === null) {
    const ground = groundToHideIn(bot, start)
    if (!ground) fail('missing_materials', NO_SEAL)
    await gotoWithin(run, new goals.GoalBlock(ground.x, ground.y, ground.z), 'ground to dig in', SEAL_WALK_MS)
    start = bot.entity.position.floored()
    depth = holeDepth(bot, start)
    if (depth === null) fail('missing_materials', NO_SEAL)
  }
  await digDown(run, { type: 'dig_down', ylevel: start.y - depth, tool: null })
  const feet = bot.entity.position.floored()
  const top = feet.offset(0, 2, 0)
  if (!sealedIn(bot)) await seal(run, top)
  await waitForMorning(run)
  await goUp(run, { type: 'go_up', tool: null })
  return `I hid in the ground at ${feet.x} ${feet.y} ${feet.z} until morning and came back up.`
}
