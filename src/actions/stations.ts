/**
 * Work stations for craft and smelt: use a crafting table or furnace the bot can see within a few blocks, or place
 * one from the inventory next to the bot and pick it back up afterwards. Also the materials check both handlers run
 * first (`missing_materials` lists what is short).
 */
import type { Block } from 'prismarine-block'
import { resolveItem } from './names.js'
import { countOf, fail, type Run } from './types.js'
import { nearestVisibleBlock } from '../perception/vision.js'
import { pickUp } from './drops.js'
import { goals, goto, placeNear } from './world.js'

export interface Station {
  block: Block
  placed: boolean
}

/** A visible station within 16 blocks (walked to within reach) or one placed from the inventory. */
export async function station(run: Run, name: 'crafting_table' | 'furnace', forWhat: string): Promise<Station> {
  const { bot } = run
  const id = bot.registry.blocksByName[name]!.id
  const seen = nearestVisibleBlock(bot, new Set([id]), 16)
  if (seen) {
    const p = seen.position
    if (bot.entity.position.distanceTo(p.offset(0.5, 0.5, 0.5)) > 3.5)
      await goto(run, new goals.GoalNear(p.x, p.y, p.z, 2), `the ${name}`)
    return { block: bot.blockAt(p) ?? seen, placed: false }
  }
  if (!bot.inventory.items().some((i) => i.name === name))
    fail('missing_tool', `I need a ${name} to make ${forWhat} but see none and carry none.`)
  return { block: await placeNear(run, name), placed: true }
}

/** Pick back up the stations that were placed from the inventory (the others stay where they stood). */
export async function release(run: Run, ...stations: Array<Station | null>): Promise<void> {
  await pickUp(
    run,
    stations.flatMap((s) => (s?.placed ? [s.block] : [])),
  )
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
