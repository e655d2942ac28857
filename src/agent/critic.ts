/**
 * The plan critic (after Auto MC-Reward's reward critic): before any plan runs it is checked against the game data
 * and the bot's inventory — schema; every item, block and entity name exists for the version (with "did you mean",
 * e.g. `magma` → `magma_block`, and a note that lava is a fluid); the tool can harvest the block; and, simulated
 * along the plan, materials, fuel and stations are there when each step needs them. It returns critiques in plain
 * sentences, which go back to the planner (at most 3 rounds, see executor.ts).
 */
import { z } from 'zod'
import type { Knowledge } from '../knowledge/index.js'
import { Action, Plan } from '../schemas/action.js'
import { didYouMean } from '../util/text.js'

export interface Critique { ok: boolean; problems: string[] }

/** Blueprints are shipped data; the critic only needs their names. */
export interface CriticOptions { blueprints: string[] }

type Inv = Map<string, number>

/** `likely`: names that fit the step (e.g. smelting outputs), suggested before plain look-alikes ("iron" → iron_ingot). */
function nameProblem(kb: Knowledge, name: string, want: 'item' | 'block' | 'entity' | 'any', likely: string[] = []): string | null {
  const r = kb.resolveName(name)
  if (!r.ok) {
    const suggestions = [...new Set([...didYouMean(name, likely, 2), ...r.suggestions])]
    const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.slice(0, 3).map((s) => `"${s}"`).join(' or ')}?` : ''
    return `"${name}" is not ${want === 'any' ? 'a known name' : want === 'item' || want === 'entity' ? `an ${want}` : 'a block'} in Minecraft ${kb.version}.${hint}`
  }
  if (r.name !== name) return `Use the game name "${r.name}" instead of "${name}".`
  if (want === 'entity' && !kb.isEntity(name)) return `"${name}" is not an entity; attack needs a mob name.`
  if (want === 'block' && !kb.isBlock(name)) {
    const from = kb.whereFound(name).filter((w) => w.kind === 'mine').map((w) => w.from)
    return from.length > 0 ? null : `"${name}" is not a block that can be mined.`
  }
  if (want === 'item' && !kb.isItem(name)) return `"${name}" is not an item.`
  return null
}

export function critiquePlan(kb: Knowledge, rawPlan: unknown, inventory: Record<string, number>, opts: CriticOptions): Critique {
  const parsed = Plan.safeParse(rawPlan)
  if (!parsed.success) return { ok: false, problems: [`The plan does not match the schema: ${z.prettifyError(parsed.error).split('\n').slice(0, 3).join('; ')}`] }
  const problems: string[] = []
  const inv: Inv = new Map(Object.entries(inventory))
  /** Items a step may produce whose amount the data cannot predict (mob drops): later needs are not flagged. */
  const uncertain = new Set<string>()
  /** Stations placed earlier in the plan: a placed table or furnace serves later steps from nearby. */
  const placed = new Set<string>()
  const count = (n: string): number => inv.get(n) ?? 0
  const add = (n: string, k: number): void => { inv.set(n, count(n) + k) }
  const need = (i: number, a: Action, item: string, k: number, what: string): void => {
    if (count(item) >= k || uncertain.has(item)) return
    problems.push(`Step ${i + 1} (${a.type}): needs ${k} ${item} as ${what} but will have ${count(item)}.`)
  }
  parsed.data.actions.forEach((a, i) => {
    const named = (name: string, want: 'item' | 'block' | 'entity' | 'any', likely: string[] = []): boolean => {
      const p = nameProblem(kb, name, want, likely)
      if (p) { problems.push(`Step ${i + 1} (${a.type}): ${p}`); return false }
      return true
    }
    const tool = 'tool' in a ? a.tool : null
    if (tool && a.type !== 'craft' && named(tool, 'item')) need(i, a, tool, 1, 'its tool')
    switch (a.type) {
      case 'equip': if (named(a.object, 'item')) need(i, a, a.object, 1, 'the item to hold'); break
      case 'place': if (named(a.object, 'item')) { need(i, a, a.object, 1, 'the block to place'); add(a.object, -1); placed.add(a.object) } break
      case 'explore': case 'approach':
        // pick-ups lying near a mob or block (eggs by chickens) may come with going there
        if (named(a.object, 'any')) for (const c of kb.data.world.collect) if (c.near === a.object) uncertain.add(c.item)
        break
      case 'mine': {
        if (!named(a.object, 'block')) break
        if (kb.isBlock(a.object) && Object.keys(kb.dropsOf(a.object)).length === 0) {
          problems.push(`Step ${i + 1} (mine): ${a.object === 'lava' || a.object === 'water'
            ? `${a.object} is a fluid and cannot be mined; use apply with a bucket on it.`
            : `${a.object} drops nothing when mined.`}`)
          break
        }
        const block = kb.isBlock(a.object) ? a.object : kb.whereFound(a.object).find((w) => w.kind === 'mine')?.from ?? a.object
        if (!kb.canHarvest(block, a.tool)) {
          const tools = kb.harvestTools(block)
          problems.push(`Step ${i + 1} (mine): ${a.tool ?? 'a bare hand'} cannot harvest ${block}; use ${tools.slice(0, 2).join(' or ') || 'another tool'}.`)
        }
        const drops = kb.isBlock(a.object) ? Object.keys(kb.dropsOf(a.object)) : [a.object]
        for (const d of drops.length > 0 ? drops : [a.object]) inv.set(d, Math.max(count(d), a.count))
        break
      }
      case 'attack':
        if (named(a.object, 'entity')) for (const [drop] of kb.sources.mobDropsOf(a.object)) uncertain.add(drop)
        break
      case 'dig_down': case 'go_up': break
      case 'craft': {
        if (!named(a.object, 'item')) break
        if (kb.recipesFor(a.object).length === 0) { problems.push(`Step ${i + 1} (craft): ${a.object} has no crafting recipe.`); break }
        if (a.tool !== null && a.tool !== 'crafting_table') problems.push(`Step ${i + 1} (craft): tool must be "crafting_table" or null, not "${a.tool}".`)
        if (a.tool === 'crafting_table' && !placed.has('crafting_table')) need(i, a, 'crafting_table', 1, 'a crafting table to craft on')
        for (const [m, k] of Object.entries(a.materials)) if (named(m, 'item')) { need(i, a, m, k, 'material'); add(m, -k) }
        add(a.object, a.count)
        break
      }
      case 'smelt': {
        if (!named(a.object, 'item', kb.data.smelting.map((r) => r.output)) || !named(a.fuel, 'item', kb.data.fuels.map((f) => f.item))) break
        if (kb.smeltingFor(a.object).length === 0) { problems.push(`Step ${i + 1} (smelt): ${a.object} cannot be smelted in a furnace.`); break }
        if (kb.burnItems(a.fuel) === null) problems.push(`Step ${i + 1} (smelt): ${a.fuel} is not a furnace fuel.`)
        if (!placed.has('furnace')) need(i, a, 'furnace', 1, 'a furnace')
        for (const [m, k] of Object.entries(a.materials)) if (named(m, 'item')) { need(i, a, m, k, 'input'); add(m, -k) }
        const fuelNeeded = Math.ceil(a.count / (kb.burnItems(a.fuel) ?? 1))
        need(i, a, a.fuel, fuelNeeded, 'fuel')
        add(a.fuel, -fuelNeeded)
        add(a.object, a.count)
        break
      }
      case 'apply':
        // what the use gives (a bucket on water → water_bucket) is there for later steps
        if (named(a.object, 'any')) for (const x of kb.data.world.apply) if (x.target === a.object && x.tool === a.tool) uncertain.add(x.item)
        break
      case 'build':
        if (!opts.blueprints.includes(a.blueprint)) problems.push(`Step ${i + 1} (build): no blueprint "${a.blueprint}"; shipped: ${opts.blueprints.join(', ')}.`)
        break
    }
  })
  return { ok: problems.length === 0, problems }
}

/** Validate one action alone (used for ws/Discord "run this action" requests and tests). */
export function isAction(x: unknown): x is Action { return Action.safeParse(x).success }
