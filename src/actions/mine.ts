/**
 * `mine(object, tool, count)`: dig visible blocks of the object with the given tool and collect the drops until
 * `count` of the wanted item are in the inventory (a total, as in GITM). The object may name the block (iron_ore →
 * counts raw_iron) or its drop (cobblestone → digs stone). Fails with `missing_tool` when the tool is absent or cannot
 * harvest the block, `not_found` when no instance is in view. The nearest block in view goes next, a block deeper
 * than the floor where the mining began counting as farther (digging ever downwards leaves it deep below its
 * shaft), and, while the bot has no weapon, one with a hostile mob beside it (threats.ts); underground only blocks
 * within reach by the search's own rule (sighting.ts); with none in view, a block of the object beside one it dug
 * (the rest of the vein), then the block explore saw last. A block it comes no closer to for REACH_MS, or whose walk
 * fails short of it, is skipped and remembered as out of reach (src/actions/memory.ts; explore looks past it); a walk
 * the guard turned back is tried once more first, and from the call's first turn-back on every walk goes clear of what
 * the guard stops at (world.ts `clearAfterTurnBack`). Drops are picked up in one walk per stand: when the next block
 * is out of reach, or when the blocks dug would make up the count (a block whose drop never arrives is skipped from
 * then on). With the count held, the rest of an ore's vein is taken too, as many items again as the call set out to
 * get (at most EXTRA_MAX), while the run has time to spare: blocks seen within EXTRA_REACH, then the rock beside the
 * vein opened as when short.
 */
import type { Action } from '../schemas/action.js'
import type { Block } from 'prismarine-block'
import type { Vec3 } from 'vec3'
import { blockTarget, harvestedBy, resolveItem } from './names.js'
import { countOf, fail, StopSignal, type Run } from './types.js'
import { isUnderground, nearestVisibleBlock } from '../perception/vision.js'
import { playerPlacedAt } from '../perception/placed.js'
import { clearAfterTurnBack, digBlock, equipNamed, noItemSaid } from './world.js'
import { probeVein, VEIN_PROBES } from './ore-vein.js'
import { collectDrops } from './drops.js'
import { makeRoom } from './junk.js'
import { markUnreachable, recentSighting } from './memory.js'
import { reachableSightings, worthDigging } from './sighting.js'
import { noToolMessage } from '../rules/index.js'
import { logger } from '../util/log.js'
import { hostilesBeside } from './threats.js'
import { bestWeapon } from './reflexes/combat.js'
import { FACES } from '../util/vec.js'
import { isOreBlock } from '../knowledge/location.js'
import { createKnowledge } from '../knowledge/index.js'
import { onLastUses } from '../bot/wear.js'

const log = logger('mine')

/**
 * Time without coming a block closer to the block being fetched before it is skipped for the next one in sight and
 * remembered as out of reach (under the progress signal's stall window, so the skip comes before the stall stop).
 */
const REACH_MS = 12_000

/**
 * Blocks per level a candidate counts extra for lying deeper than the floor where the mining began: digging ever
 * downwards strands the bot far below the shaft it came down (the floor level itself is free, nearest first).
 */
const BELOW_START_COST = 3

/**
 * Walks to one block the guard reflex may turn back (lava or a deadly drop ahead) before it is given up: the next walk
 * (every walk of the call after its first turn-back) rules every step the guard would turn back out
 * (src/bot/lava-margin.ts `clearOfDanger`), so the pathfinder tunnels round (bench d12 and d13 seed 1 gave up a
 * diamond 13 blocks off after turn-backs right at the start of the walk, then searched 280 s in vain).
 */
const TURN_BACKS = 1

/** Farther than this (blocks, feet to centre as `far` measures) the bot was still walking to the block, not digging. */
const DIG_REACH = 4.5
/** How far from a broken block its drop is looked for (it pops out and may roll a block), and for how long. */
const DROP_SPREAD = 2.5
const COLLECT_MS = 8000

/** From the bot's position to the block's centre. */
const far = (bot: Run['bot'], block: Block): number =>
  block.position.offset(0.5, 0.5, 0.5).distanceTo(bot.entity.position)

/**
 * Blocks a candidate counts extra per hostile mob beside it (threats.ts `hostilesBeside`) while the bot has no weapon: more than
 * the sight range, so one with a zombie by it is dug only when none without is in view (bench:mp5 c10 2-4 seed 1,
 * unarmed at night, went back for the log by the zombie it had just run from, 14 times).
 */
const THREAT_COST = 16

/**
 * How far a block is to dig next: its distance, plus `BELOW_START_COST` per level below the floor at `startY`, plus
 * THREAT_COST per hostile mob beside it when `unarmed`.
 */
function digCost(bot: Run['bot'], b: Block, startY: number, unarmed: boolean): number {
  const below = startY - 1 - b.position.y
  const threats = unarmed ? hostilesBeside(bot, b.position) : 0
  return far(bot, b) + BELOW_START_COST * Math.max(0, below) + THREAT_COST * threats
}

/** Farthest (blocks, to the centre) a block of the ore is walked to for the rest of the vein once the count is held. */
const EXTRA_REACH = 8
/** Most items of the rest of a vein taken beyond the count (about a vein of iron). */
const EXTRA_MAX = 8
/** Steps and time a run must have left to take more of a vein: the count held is never put at risk for it. */
const EXTRA_STEPS = 8
const EXTRA_TIME_MS = 15_000

/**
 * With the count held, whether to take more of an ore's vein: only while the run has steps and time to spare and the
 * ore's tool (if any) is still held; then a block `inSight` within EXTRA_REACH, or, with none, the rock beside the dug ore
 * while probes are left and the tool is not on its last uses (they are kept for the ore, src/bot/wear.ts).
 */
function moreOfVein(run: Run, tool: string | null, inSight: boolean, probesLeft: boolean): boolean {
  const { bot } = run
  const timeLeftMs = run.budget.timeMs - (Date.now() - run.startedAt)
  if (run.budget.steps - run.stepsUsed() < EXTRA_STEPS || timeLeftMs < EXTRA_TIME_MS) return false
  if (tool !== null && countOf(bot, [tool]) === 0) return false
  return inSight || (probesLeft && (tool === null || !onLastUses(bot, tool)))
}

/** How long after explore saw a block mine still goes for it when it is out of sight (a step moved the eyes). */
const SIGHTING_MS = 60_000

/**
 * The block to dig next: the visible one cheapest by `digCost`, within reach by the search's own rule (sighting.ts:
 * underground, near and not high above, its drop not falling into lava), never one skipped or placed by a player.
 * With none in sight, the rest of the vein: a block of the object beside one this call dug (its face lies open to the
 * hole, as a player looks into the hole; bench d12 seed 4 mined one iron ore, saw no more from where it stood, and
 * spent a re-plan and a search on each of the next two, both beside the first). Else the block explore saw last, if
 * still there and not marked out of reach (bench d9 and d10 seed 1: explore saw a diamond 13 blocks off, and a second
 * later, from where the bot had stopped, mine saw none and gave up). With a `reach` (the vein's extras), only blocks
 * that near, and never the remembered one.
 */
function nextBlock(
  bot: Run['bot'],
  ids: Set<number>,
  skipped: Set<string>,
  startY: number,
  dug: readonly Vec3[],
  reach = Infinity,
): { block: Block; how: 'seen' | 'vein' | 'remembered' } | undefined {
  const ok = (b: Block): boolean =>
    !skipped.has(b.position.toString()) && playerPlacedAt(bot, b.position)?.block !== b.name && far(bot, b) <= reach
  const unarmed = bestWeapon(bot) === null
  const cost = new Map<Block, number>()
  const costOf = (b: Block): number => cost.get(b) ?? cost.set(b, digCost(bot, b, startY, unarmed)).get(b)!
  const cheapest = (bs: Block[]): Block | undefined => bs.filter(ok).sort((a, b) => costOf(a) - costOf(b))[0]
  // blocks the bot saw players place are never targets (issue 20; digBlock refuses them too)
  const seen = cheapest(reachableSightings(bot, ids, isUnderground(bot), 16))
  if (seen) return { block: seen, how: 'seen' }
  const vein = cheapest(
    dug
      .flatMap((p) => FACES.map((f) => bot.blockAt(p.plus(f))))
      .filter((b): b is Block => b !== null && ids.has(b.type) && worthDigging(bot, b.position)),
  )
  if (vein) return { block: vein, how: 'vein' }
  // explore judged that sighting within reach where it stood; the bot may have moved on a few blocks since (the end
  // of a cave walk), so only a block marked out of reach since is left
  if (reach !== Infinity) return undefined
  const last = recentSighting(bot, SIGHTING_MS)
  const b = last ? bot.blockAt(last) : null
  return b && ids.has(b.type) && ok(b) && worthDigging(bot, b.position) ? { block: b, how: 'remembered' } : undefined
}

/**
 * A block seen across a cave may have no way to it: stops the pathfinder when the bot has come no closer to `block`
 * for `REACH_MS` (tunnelling toward it is coming closer); `late()` says whether that happened.
 */
function watchReach(bot: Run['bot'], block: Block): { late(): boolean; stop(): void } {
  let late = false
  let best = far(bot, block)
  let bestAt = Date.now()
  const timer = setInterval(() => {
    if (far(bot, block) < best - 1) {
      best = far(bot, block)
      bestAt = Date.now()
    } else if (Date.now() - bestAt > REACH_MS) {
      late = true
      bot.pathfinder.stop()
    }
  }, 500)
  return { late: () => late, stop: () => clearInterval(timer) }
}

/** What one mine call keeps about the blocks it failed to dig. */
interface DigMisses {
  /** `run.detours()` before the dig. */
  detours: number
  reach: { late(): boolean }
  /** Walks the guard turned back, per block. */
  turnedBack: Map<string, number>
  /** Blocks not to take again this call. */
  skipped: Set<string>
}

/**
 * After a dig that failed: 'retry' a walk the guard turned back (once per block, TURN_BACKS), else 'skip' the block
 * (and remember it out of reach when the bot never got to it), or 'gone' when the block broke after all. Throws when
 * the run was stopped.
 */
function afterFailedDig(run: Run, block: Block, m: DigMisses): 'retry' | 'skip' | 'gone' {
  const { bot } = run
  // the guard stopped the walk to it (lava or a deadly drop on the way) out of reach, or the stall stop did
  // wherever the bot stood (20 s without progress on one block): take another block, now and next time — else
  // the re-plan's explore sees it again and the next mine walks at it again (bench:diamond seed 1 lost 90 s to
  // three stalls on one diamond). The dig promise can reject although the block broke (a late block update):
  // only blocks still there are marked or skipped.
  const stillThere = bot.blockAt(block.position)?.type === block.type
  const outOfReach = far(bot, block) > DIG_REACH
  const why: unknown = run.signal.reason
  const stalled = why instanceof StopSignal && why.cause === 'stalled'
  const detoured = run.detours() > m.detours
  const key = block.position.toString()
  const turns = m.turnedBack.get(key) ?? 0
  if (stillThere && detoured && !stalled && !m.reach.late() && turns < TURN_BACKS) {
    m.turnedBack.set(key, turns + 1)
    run.check()
    return 'retry'
  }
  const stopped = detoured || stalled || (why instanceof StopSignal && why.cause === 'unsafe')
  if (stillThere && stopped && (stalled || outOfReach)) markUnreachable(bot, block.position)
  run.check()
  if (!stillThere) return 'gone'
  m.skipped.add(key)
  // never got to it (no path, no progress): the next search and the next plan look past it too, instead of
  // seeing it again and walking at it again
  if (m.reach.late() || outOfReach) markUnreachable(bot, block.position)
  return 'skip'
}

/**
 * Fails with `missing_tool` when `tool` (null: the hand) takes nothing from `block` (its drop needs another tool).
 */
function mustHarvest(bot: Run['bot'], block: Block, tool: string | null): void {
  const toolId = tool === null ? undefined : bot.registry.itemsByName[tool]?.id
  if (harvestedBy(block, toolId === undefined ? [] : [toolId])) return
  const names = createKnowledge(bot.version).harvestTools(block.name)
  fail(
    'missing_tool',
    `${block.name} needs ${names.slice(0, 3).join(' or ')} to drop anything, not ${tool ?? 'my hand'}.`,
  )
}

/**
 * Walk to and dig one block, watching that the walk comes closer (watchReach): 'dug' when it broke (a late block
 * update after a failed dig counts too), 'next' to choose again (another block, or this one again after a walk the
 * guard turned back), 'end' when an extra of the vein failed (the count is held). Throws when the run was stopped or
 * too many blocks were skipped.
 */
async function digTaking(
  run: Run,
  block: Block,
  short: boolean,
  m: Pick<DigMisses, 'turnedBack' | 'skipped'>,
): Promise<'dug' | 'next' | 'end'> {
  const reach = watchReach(run.bot, block)
  const detours = run.detours()
  try {
    // once the guard has turned a walk of this call back, every walk goes clear of danger: round through the rock, or
    // not at all (bench d66 seed 56: at a pit's rim, each new iron ore 3 blocks up across it was walked at the rim
    // first; seven turn-backs in 17 s over three calls before the ores were given up)
    await clearAfterTurnBack(run, () => digBlock(run, block))
    return 'dug'
  } catch (err) {
    const next = afterFailedDig(run, block, { ...m, detours, reach })
    if (!short) return 'end' // an extra of the vein: the count is held
    if (next === 'skip' && m.skipped.size > 5) throw err
    return next === 'gone' ? 'dug' : 'next'
  } finally {
    reach.stop()
  }
}

type MineAction = Extract<Action, { type: 'mine' }>

/**
 * The blocks a mine call digs and the tool it digs them with: fails `invalid` for a thing that cannot be dug and
 * `missing_tool` for a tool not held.
 */
function mineTarget(
  bot: Run['bot'],
  action: MineAction,
): { target: NonNullable<ReturnType<typeof blockTarget>>; tool: string | null } {
  const target = blockTarget(bot, action.object)
  if (!target) {
    resolveItem(bot, action.object)
    fail('invalid', `${action.object} is not something I can dig.`)
  }
  const tool = action.tool === null ? null : resolveItem(bot, action.tool).names[0]!
  if (tool && !bot.inventory.items().some((i) => i.name === tool))
    fail('missing_tool', noItemSaid(bot, tool, noToolMessage(tool, `mine ${action.object}`)))
  return { target, tool }
}

/**
 * Pick up the drops of the blocks dug at `pending` (only `wanted` items, only where the blocks broke: the rock a
 * search dug nearby, its poke holes, and the junk dropped to keep room are left; a drop that stayed in a pocket above
 * the floor takes a dig to reach, hence the longer budget). When nothing came, those blocks are `skipped` from then on.
 */
async function collectAt(run: Run, pending: readonly Vec3[], wanted: string[], skipped: Set<string>): Promise<void> {
  const before = countOf(run.bot, wanted)
  const where = pending.map((p) => p.offset(0.5, 0.5, 0.5))
  await collectDrops(run, where, DROP_SPREAD, COLLECT_MS, new Set(wanted))
  const got = countOf(run.bot, wanted) - before
  log.debug('collected', { blocks: pending.length, got })
  if (got <= 0) for (const p of pending) skipped.add(p.toString())
}

/**
 * Why no block is left to dig: none seen, or those seen were given up on the way (no path, no progress: bench d64
 * seed 42 walked 7 s at a diamond 10 blocks down, and said it could see none), or no more after `dug`.
 */
function noneLeft(object: string, dug: number, skipped: number, held: string): string {
  if (dug) return `I mined ${dug} ${object} but can see no more I can reach; I have ${held}.`
  if (skipped)
    return `I could not get to the ${skipped === 1 ? '' : `${skipped} `}${object} I saw, and I see no other from here.`
  return `I cannot see any ${object} from here.`
}

export async function mine(run: Run, action: MineAction): Promise<string> {
  const { bot } = run
  const { target, tool } = mineTarget(bot, action)
  const have = (): number => countOf(bot, target.wanted)
  const wantedName = target.wanted.length === 1 ? target.wanted[0]! : action.object
  run.progress.setWanted(have)
  /** The block being fetched: coming closer to it counts as progress even where rock hides it (a tunnel to it). */
  let fetching: Block | null = null
  run.progress.setTarget(() => {
    const b = fetching ?? nearestVisibleBlock(bot, target.blockIds, 16)
    return b ? far(bot, b) : null
  })
  const skipped = new Set<string>()
  const turnedBack = new Map<string, number>()
  /** Where this call dug a block of the object: the rest of its vein lies beside. */
  const dugAt: Vec3[] = []
  /** Rock this call opened beside its ore to find the rest of the vein (ore-vein.ts); the vein may lie beside it too. */
  const opened: Vec3[] = []
  const startY = Math.floor(bot.entity.position.y)
  const notes: string[] = []
  let dug = 0
  // blocks dug whose drops still lie on the ground: picked up in one walk when the next block needs a walk anyway
  let pending: Vec3[] = []
  const collect = async (): Promise<void> => {
    await collectAt(run, pending, target.wanted, skipped)
    pending = []
  }
  // once the count is held, the rest of an ore's vein nearby too (as many items again as this call set out to get, at
  // most EXTRA_MAX), as a player takes it: the spare raw iron of a second pickaxe when the first wears out (retool.ts)
  const extraTo = target.blockNames.every(isOreBlock)
    ? action.count + Math.min(EXTRA_MAX, Math.max(1, action.count - have()))
    : action.count
  for (;;) {
    const short = have() + pending.length < action.count
    // the vein's extras take only blocks within EXTRA_REACH: one farther off is as if none were in sight (the vein
    // beside the dug blocks, then the probes, come next)
    const next = nextBlock(bot, target.blockIds, skipped, startY, [...dugAt, ...opened], short ? Infinity : EXTRA_REACH)
    const more = dug > 0 && have() + pending.length < extraTo
    if (!short && !(more && moreOfVein(run, tool, next !== undefined, opened.length < VEIN_PROBES))) break
    const block = next?.block
    if (!block && pending.length > 0) {
      await collect()
      continue
    }
    // none in sight: the rest of the vein may touch what was dug only by an edge, so open the rock beside it
    if (!block && dug > 0 && opened.length < VEIN_PROBES && (await probeVein(run, dugAt, opened))) continue
    if (!block && !short) break // the vein's extras are all taken
    if (!block)
      fail('not_found', noneLeft(action.object, dug, skipped.size, `${have()} of ${action.count} ${wantedName}`))
    mustHarvest(bot, block, tool)
    // a block out of reach means a walk: pick up what lies here first
    if (pending.length > 0 && far(bot, block) > DIG_REACH) {
      await collect()
      continue
    }
    const roomNote = await makeRoom(run, new Set([...target.wanted, action.object, ...(tool ? [tool] : [])]))
    if (roomNote) notes.push(roomNote)
    await equipNamed(run, tool)
    log.debug('dig', {
      block: block.name,
      at: `${block.position}`,
      far: far(bot, block),
      how: next?.how,
      pending: pending.length,
    })
    fetching = block
    const result = await digTaking(run, block, short, { turnedBack, skipped }).finally(() => {
      fetching = null
    })
    if (result === 'end') break
    if (result === 'next') continue
    dug++
    dugAt.push(block.position)
    pending.push(block.position)
    if (have() + pending.length >= action.count) await collect()
  }
  return `I have ${have()} ${wantedName} now (mined ${dug} ${action.object}).${notes.length ? ` ${notes.join(' ')}` : ''}`
}
