/**
 * `craft(object, count, materials, tool)`: craft `count` more of an item with bot.craft, in the 2×2 inventory grid or
 * at a crafting table (a visible one, or one placed from the inventory and picked back up), by a recipe made of the
 * step's materials that leaves what the plan's later steps keep (`sparing`). Fails with `invalid`
 * (unknown or uncraftable item), `missing_materials`, `missing_tool` (table needed but none) or `unverified` when the
 * items did not arrive. Every craft starts from the server's own bag, and a 2×2 craft ends on the server's own grid
 * (src/actions/grid.ts).
 */
import type { Action } from '../schemas/action.js'
import { resolveItem } from './names.js'
import { settleGrid } from './grid.js'
import { checkMaterials, release, station, type Station } from './stations.js'
import { countOf, fail, type Run } from './types.js'
import { onceEvent } from '../util/async.js'
import { logger } from '../util/log.js'

const log = logger('craft')

/** Longest wait after a craft for its items to show up in the inventory. */
const ARRIVE_MS = 1000

type CraftAction = Extract<Action, { type: 'craft' }>
type Recipe = ReturnType<Run['bot']['recipesFor']>[number]

/** How many times `recipe` is crafted for `count` items. */
const craftsFor = (recipe: Recipe, count: number): number => Math.ceil(count / (recipe.result.count || 1))

/**
 * Of the recipes the bag can make, the first made of the step's own materials, else the first that leaves what the
 * running sub-goal and the later ones keep (the run's reserve, less the step's own materials: two kinds of planks make
 * sticks, and a later step holds the other kind), else the first.
 */
function sparing(run: Run, recipes: Recipe[], action: CraftAction): Recipe | undefined {
  const { bot } = run
  const nameOf = (id: number): string => bot.registry.items[id]?.name ?? ''
  const used = (r: Recipe): string[] => r.delta.filter((d) => d.count < 0).map((d) => nameOf(d.id))
  const kept = (name: string): number => Math.max(0, (run.reserve[name] ?? 0) - (action.materials[name] ?? 0))
  const spares = (r: Recipe): boolean => holdsIngredients(bot, r, craftsFor(r, action.count), kept)
  const own = (r: Recipe): boolean => used(r).every((n) => n in action.materials)
  return recipes.find((r) => own(r) && spares(r)) ?? recipes.find(spares) ?? recipes[0]
}

/** What a craft step wants: `count` more of `name` than the bag held `before` it. */
interface Want {
  name: string
  count: number
  before: number
}

/**
 * Craft `recipe` as often as `want` takes. A result that does not stack is crafted one at a time, each craft from the
 * server's settled state: mineflayer pipelines its clicks, and a full-window resync (the crafted tool's data differs
 * from its prediction) that lands among a second craft's clicks left 1 of 2 iron pickaxes crafted (bench d70 seeds 53
 * and 56; 7 of 20 in a loop). In the 2×2 grid the craft ends on the server's own grid (src/actions/grid.ts): when the
 * server had kept items there, the ingredients matched no recipe; they come back to the inventory and the crafts
 * that did not happen are made again, as they are whenever the settled bag is short of the count and still holds the
 * ingredients (a slot the model had wrong during the craft's own clicks, which the resync before it cannot catch).
 */
async function craftAll(bot: Run['bot'], recipe: Recipe, table: Station | null, want: Want): Promise<void> {
  const stacks = (bot.registry.itemsByName[want.name]?.stackSize ?? 64) > 1
  const craftTimes = async (n: number): Promise<void> => {
    for (const batch of stacks ? [n] : Array.from({ length: n }, () => 1))
      await bot.craft(recipe, batch, table?.block ?? undefined)
  }
  await craftTimes(craftsFor(recipe, want.count))
  if (table) return
  const held = await settleGrid(bot)
  // the model now is the server's: a craft short of its count with the ingredients still in the bag did not happen
  const short = craftsFor(recipe, want.count - (countOf(bot, [want.name]) - want.before))
  if (short <= 0 || !holdsIngredients(bot, recipe, short)) return
  log.info('crafting again', { name: want.name, short, held })
  await craftTimes(short)
  await settleGrid(bot)
}

/** Does the bag hold what `recipe` consumes, `times` over, besides what `kept` says is kept of each item? */
function holdsIngredients(
  bot: Run['bot'],
  recipe: Recipe,
  times: number,
  kept: (name: string) => number = () => 0,
): boolean {
  return recipe.delta.every((d) => {
    const name = bot.registry.items[d.id]?.name ?? ''
    return d.count >= 0 || countOf(bot, [name]) - kept(name) >= -d.count * times
  })
}

export async function craft(run: Run, action: CraftAction): Promise<string> {
  const { bot } = run
  const ref = resolveItem(bot, action.object)
  const name = ref.names[0]!
  const id = ref.ids[0]!
  if (action.tool !== null && resolveItem(bot, action.tool).names[0] !== 'crafting_table')
    fail('invalid', `Crafting uses a crafting_table or the inventory grid, not ${action.tool}.`)
  // every craft starts from the server's bag: clicks laid on a model that drifted from it put another shape in the
  // grid (two planks in the model's slot, one on the server's: an oak button, no stick)
  await settleGrid(bot)
  checkMaterials(run, action.materials)
  if (bot.recipesAll(id, null, true).length === 0) fail('invalid', `${name} cannot be crafted.`)
  let recipe = sparing(run, bot.recipesFor(id, null, 1, null), action)
  let table: Station | null = null
  try {
    if (!recipe || action.tool === 'crafting_table') {
      const any = sparing(run, bot.recipesFor(id, null, 1, true), action)
      if (!any) fail('missing_materials', `I lack the materials for any recipe of ${name}.`)
      const t0 = Date.now()
      table = await station(run, 'crafting_table', name)
      log.debug('table', { placed: table.placed, at: table.block.position.toString(), ms: Date.now() - t0 })
      recipe = sparing(run, bot.recipesFor(id, null, 1, table.block), action) ?? any
    }
    const times = craftsFor(recipe, action.count)
    const before = countOf(bot, [name])
    run.step(times)
    const t1 = Date.now()
    await craftAll(bot, recipe, table, { name, count: action.count, before })
    log.debug('crafted', { name, times, ms: Date.now() - t1 })
    // the server's slot update can come after the craft's last click is answered (bench p3 piston seed 2: "only 0
    // arrived" 5 ms after crafting planks, and the re-plan crafted them from another log)
    const arrived = (): boolean => countOf(bot, [name]) - before >= action.count
    if (!arrived())
      await onceEvent(bot.inventory, 'updateSlot', { filter: arrived, timeoutMs: ARRIVE_MS, signal: run.signal }).catch(
        () => run.check(),
      )
    run.check()
    const made = countOf(bot, [name]) - before
    if (made < action.count) fail('unverified', `I tried to craft ${action.count} ${name} but only ${made} arrived.`)
    const t2 = Date.now()
    await release(run, table)
    if (table) log.debug('released', { ms: Date.now() - t2 })
    table = null
    return `I crafted ${made} ${name}.`
  } catch (err) {
    if (table) await release(run, table).catch(() => {})
    throw err
  }
}
