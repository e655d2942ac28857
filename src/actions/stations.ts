/**
 * Work stations for craft and smelt: use a crafting table or furnace the bot can see within a few blocks, or place
 * one from the inventory next to the bot and pick it back up afterwards — unless the next step uses it there
 * (`run.keep`): then it stands for that step, which picks it up (src/perception/own-stations.ts remembers where).
 * Also the materials check both handlers run first (`missing_materials` lists what is short).
 */
import type { Block } from 'prismarine-block'
import { resolveItem } from './names.js'
import { countOf, fail, type Run, StopSignal } from './types.js'
import { nearestVisibleBlock } from '../perception/vision.js'
import {
  leftStationNear,
  rememberLeftStation,
  takeAllLeftStations,
  takeLeftStation,
} from '../perception/own-stations.js'
import { pickUp } from './drops.js'
import { placeNear } from './placing.js'
import { goals, goto } from './world.js'
import { LEFT_STATION_REACH } from '../rules/index.js'

export interface Station {
  block: Block
  /** Placed by the bot (now or by an earlier step that left it for this one): picked back up when done. */
  placed: boolean
}

/** The stations craft and smelt use (the rule book's STATIONS). */
export type StationName = 'crafting_table' | 'furnace'

/** How far a visible station is walked to rather than one placed from the bag. */
const STATION_SIGHT = 16

/**
 * A standing station `station` would use rather than place one: one the bot left standing within the rule book's
 * LEFT_STATION_REACH (it knows where that stands, in sight or not), else a visible one within STATION_SIGHT; null
 * when there is none.
 */
export function stationInSight(bot: Run['bot'], name: StationName): Block | null {
  const id = bot.registry.blocksByName[name]!.id
  return (
    leftStationNear(bot, name, LEFT_STATION_REACH) ?? nearestVisibleBlock(bot, new Set([id]), STATION_SIGHT) ?? null
  )
}

/**
 * The station to use: one the bot left standing for this step, else a visible one within 16 blocks (walked to within
 * reach), else one placed from the inventory.
 */
export async function station(run: Run, name: StationName, forWhat: string): Promise<Station> {
  const { bot } = run
  const seen = stationInSight(bot, name)
  if (seen) {
    const p = seen.position
    if (bot.entity.position.distanceTo(p.offset(0.5, 0.5, 0.5)) > 3.5)
      await goto(run, new goals.GoalNear(p.x, p.y, p.z, 2), `the ${name}`)
    return { block: bot.blockAt(p) ?? seen, placed: takeLeftStation(bot, p) }
  }
  if (!bot.inventory.items().some((i) => i.name === name))
    fail('missing_tool', `I need a ${name} to make ${forWhat} but see none and carry none.`)
  return { block: await placeNear(run, name), placed: true }
}

/**
 * Pick back up the stations that were placed from the inventory (the others stay where they stood), except those the
 * next step uses here (`run.keep`): that step finds them in sight, uses them and picks them up in turn.
 */
export async function release(run: Run, ...stations: Array<Station | null>): Promise<void> {
  const placed = stations.filter((s): s is Station => s?.placed === true)
  const left = placed.filter((s) => run.keep.includes(s.block.name))
  for (const s of left) rememberLeftStation(run.bot, s.block)
  await pickUp(
    run,
    placed.filter((s) => !left.includes(s)).map((s) => s.block),
  )
}

/** How far a station left standing is walked back to before the bot moves on without it. */
const LEFT_REACH = 8

/**
 * Before any step that does not craft or smelt: pick up the stations the last step left standing for a next step that
 * did not come (another plan came first), while they are near; farther ones are given up.
 */
export async function pickUpLeft(run: Run): Promise<void> {
  const me = run.bot.entity.position
  const blocks = takeAllLeftStations(run.bot).filter((b) => b.position.distanceTo(me) <= LEFT_REACH)
  if (blocks.length === 0) return
  await pickUp(run, blocks).catch((err: unknown) => {
    if (err instanceof StopSignal) throw err // a stop, not a station out of reach
  })
}

/** Throws missing_materials unless the inventory holds every material in the given amount. */
export function checkMaterials(run: Run, materials: Record<string, number>, times = 1): void {
  const short: string[] = []
  for (const [name, n] of Object.entries(materials)) {
    const ref = resolveItem(run.bot, name)
    const have = countOf(run.bot, ref.names)
    if (have < n * times) short.push(`${n * times - have} ${name}`)
  }
  if (short.length) fail('missing_materials', `I am short of ${short.join(', ')}.`)
}
