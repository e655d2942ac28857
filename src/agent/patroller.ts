/**
 * The patroller (after MP5): the bot does not take its own word for anything. Before each action it checks the
 * preconditions (tool, materials, fuel and station in inventory or in sight, the target seen) so a doomed action
 * goes back to the planner as feedback instead of running; after each action that claims success it verifies the
 * effect in the world (inventory really changed by the expected amount, the bot really near the target, the tool
 * really in hand, the y-level really reached). A claimed success whose effect is missing becomes reason `unverified`.
 */
import type { Knowledge } from '../knowledge/index.js'
import type { Action, ActionResult, BotState } from '../schemas/action.js'
import type { Senses } from './ports.js'

export type Check = { ok: true } | { ok: false; reason: 'missing_tool' | 'missing_materials' | 'not_found'; message: string }

const OK: Check = { ok: true }
const STATION_REACH = 6

export class Patroller {
  constructor(private readonly kb: Knowledge, private readonly senses: Senses) {}

  /** Items a mine action is after: the block's drops, or the named item itself. */
  wanted(object: string): string[] {
    if (this.kb.isBlock(object)) {
      const drops = Object.keys(this.kb.dropsOf(object))
      if (drops.length > 0) return drops
    }
    return [object]
  }

  /** Blocks a mine action may dig for `object`: the blocks it drops from (cobblestone → stone) and their variants. */
  sourceBlocks(object: string): string[] {
    const out = new Set<string>()
    for (const s of this.kb.sources.sourcesFor(object)) if (s.kind === 'mine') for (const b of [s.block, ...s.also]) out.add(b)
    for (const b of this.kb.data.world.blocks[object]?.also ?? []) out.add(b)
    out.delete(object)
    return [...out]
  }

  before(a: Action, s: BotState): Check {
    const has = (n: string, k = 1): boolean => (s.inventory[n] ?? 0) >= k
    const tool = 'tool' in a ? a.tool : null
    if (tool && a.type !== 'craft' && !has(tool)) return { ok: false, reason: 'missing_tool', message: `I need a ${tool} for ${a.type} but have none.` }
    switch (a.type) {
      case 'equip': case 'place':
        return has(a.object) ? OK : { ok: false, reason: 'missing_materials', message: `I have no ${a.object} to ${a.type}.` }
      case 'craft': {
        const short = Object.entries(a.materials).filter(([m, k]) => !has(m, k)).map(([m, k]) => `${k - (s.inventory[m] ?? 0)} ${m}`)
        if (short.length > 0) return { ok: false, reason: 'missing_materials', message: `To craft ${a.object} I still need ${short.join(', ')}.` }
        if (a.tool === 'crafting_table' && !has('crafting_table') && !this.near('crafting_table')) {
          return { ok: false, reason: 'missing_tool', message: `I need a crafting table for ${a.object}: none in my inventory or within ${STATION_REACH} blocks.` }
        }
        return OK
      }
      case 'smelt': {
        const short = Object.entries(a.materials).filter(([m, k]) => !has(m, k)).map(([m, k]) => `${k - (s.inventory[m] ?? 0)} ${m}`)
        if (!has(a.fuel)) short.push(`some ${a.fuel} as fuel`)
        if (short.length > 0) return { ok: false, reason: 'missing_materials', message: `To smelt ${a.object} I still need ${short.join(', ')}.` }
        if (!has('furnace') && !this.near('furnace')) return { ok: false, reason: 'missing_tool', message: 'I need a furnace: none in my inventory or nearby.' }
        return OK
      }
      case 'approach': case 'mine': case 'attack':
        return this.senses.nearestVisible(a.object) !== null || (a.type === 'mine' && this.sourceBlocks(a.object).some((b) => this.senses.nearestVisible(b) !== null))
          ? OK
          : { ok: false, reason: 'not_found', message: `I can't see any ${a.object} from here; I should explore for it first.` }
      default:
        return OK
    }
  }

  private near(name: string): boolean {
    const d = this.senses.nearestVisible(name)
    return d !== null && d <= STATION_REACH
  }

  /** Verify a claimed success against the world; returns the result unchanged or turned into `unverified`. */
  after(a: Action, r: ActionResult, before: BotState, after: BotState): ActionResult {
    if (!r.ok) return r
    const gained = (n: string): number => (after.inventory[n] ?? 0) - (before.inventory[n] ?? 0)
    const held = (n: string): number => after.inventory[n] ?? 0
    const fail = (message: string): ActionResult => ({ ...r, ok: false, reason: 'unverified', message })
    switch (a.type) {
      case 'mine': {
        const w = this.wanted(a.object)
        const total = Math.max(...w.map(held))
        return total >= a.count ? r : fail(`I reported mining ${a.object}, but I hold only ${total} of the ${a.count} ${w[0]} I wanted.`)
      }
      case 'craft': case 'smelt':
        return gained(a.object) >= a.count ? r : fail(`I reported ${a.type}ing ${a.count} ${a.object}, but my inventory changed by ${gained(a.object)}.`)
      case 'equip': {
        const h = this.senses.held()
        return h === a.object ? r : fail(`I meant to hold ${a.object} but I am holding ${h ?? 'nothing'}.`)
      }
      case 'place':
        return gained(a.object) <= -1 ? r : fail(`I reported placing ${a.object} but still hold as many as before.`)
      case 'approach': {
        const d = this.senses.nearestVisible(a.object)
        return d !== null && d <= 3 ? r : fail(`I reported reaching ${a.object} but ${d === null ? 'cannot see one' : `the nearest is ${d.toFixed(1)} blocks away`}.`)
      }
      case 'explore':
        return this.senses.nearestVisible(a.object) !== null ? r : fail(`I reported seeing ${a.object} but none is in sight now.`)
      case 'dig_down':
        return after.y <= a.ylevel + 1 ? r : fail(`I reported digging down to y=${a.ylevel} but I am at y=${after.y}.`)
      case 'go_up':
        return !after.underground ? r : fail('I reported returning to the surface but I am still underground.')
      default:
        return r
    }
  }

  /** The line a reply uses to say how completion was checked. */
  verificationLine(object: string, count: number, s: BotState): { ok: boolean; line: string } {
    const have = s.inventory[object] ?? 0
    return { ok: have >= count, line: `${have} ${object} now in inventory (needed ${count})` }
  }
}
