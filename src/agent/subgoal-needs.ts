/**
 * What a sub-goal needs at hand before it runs — its materials, and the station or tool its kind works with
 * (`subGoalNeeds`, from the rule book's needs) — and what follows from that: the inputs a sub-goal lost while it ran
 * (`missingInputs`: the executor decomposes again), the stations the steps ahead use where the bot stands
 * (`stationsAhead` over a plan's actions or the next sub-goals: a table or furnace left standing for them) and the
 * items they consume or are to hold (`reservedFor`: kept from what an action makes on its own account).
 */
import { STAYS_AT_STATIONS } from '../actions/types.js'
import type { Knowledge } from '../knowledge/index.js'
import { tableNeed } from '../rules/craft.js'
import { inventoryWorld, shortfall, stationNames, type Need } from '../rules/index.js'
import { furnaceNeed } from '../rules/smelt.js'
import { addCounts } from '../knowledge/decompose-merge.js'
import type { Action } from '../schemas/action.js'
import type { SubGoal } from '../schemas/subgoal.js'

/** What a sub-goal needs at hand before it runs: its materials, and the station or tool its kind works with. */
function subGoalNeeds(step: SubGoal): Need[] {
  const obj = step.goal.object
  const needs: Need[] = [{ kind: 'items', items: step.goal.material, doing: `make ${obj}` }]
  switch (step.kind) {
    case 'craft':
      if (step.craft.needsTable) needs.push(tableNeed(obj))
      break
    case 'smelt':
      needs.push(furnaceNeed(obj))
      break
    case 'mine': {
      const tools = [...(step.mine.tool ? [step.mine.tool] : []), ...step.mine.acceptableTools]
      if (tools.length > 0) needs.push({ kind: 'hold', anyOf: tools, doing: `mine ${obj}`, as: 'tool' })
      break
    }
    case 'apply':
      needs.push({ kind: 'hold', anyOf: [step.apply.tool], doing: `get ${obj}`, as: 'tool' })
      break
    default:
      break
  }
  return needs
}

/**
 * The stations (crafting_table, furnace) the steps ahead use where the bot stands: those of the crafts and smelts that
 * come next, up to the first step of another kind (it may walk away), and `after` when every step ahead is one.
 */
export function stationsAhead<T extends Action | SubGoal>(
  ahead: readonly T[],
  stationsOf: (step: T) => readonly string[],
  after: readonly string[] = [],
): string[] {
  const keep = new Set<string>()
  for (const step of ahead) {
    // a sub-goal's kind names the action it becomes (craft → craft, smelt → smelt)
    const kind: string = 'type' in step ? step.type : step.kind
    if (!(STAYS_AT_STATIONS as ReadonlySet<string>).has(kind)) return [...keep]
    for (const s of stationsOf(step)) keep.add(s)
  }
  for (const s of after) keep.add(s)
  return [...keep]
}

/**
 * The items a plan's steps from the one running now consume or are to hold (their materials and fuel, and their
 * goals' objects), summed by name: what no action may spend on its own account (a tool re-made in a tunnel must not
 * eat the compass's iron, bench:mp5 p12 compass seed 3, nor the diamonds it is mining for). A spare tool's share
 * (`SubGoal.spare`) is not held back: the plan does without it (bench d72 seed 72 kept the spare iron pickaxe's
 * sticks from the stone pickaxe it had to re-make, dug 50 blocks with a wooden one and failed `missing_tool`).
 */
export function reservedFor(steps: readonly SubGoal[]): Record<string, number> {
  const out: Record<string, number> = {}
  for (const step of steps) {
    const share = step.spare ?? { count: 0, material: {} }
    const wants = addCounts(step.goal.material, { [step.goal.object]: step.goal.count })
    const spared = addCounts(share.material, { [step.goal.object]: share.count })
    for (const [item, n] of Object.entries(wants))
      if (n > (spared[item] ?? 0)) out[item] = (out[item] ?? 0) + n - (spared[item] ?? 0)
  }
  return out
}

/** The stations a sub-goal uses where it stands (its station needs). */
export function subGoalStations(step: SubGoal): string[] {
  return stationNames(subGoalNeeds(step))
}

/**
 * What the sub-goal needs from the inventory and no longer holds (materials, fuel, station, tool). The goal was
 * decomposed so that these were held when the sub-goal started; when they are gone (a `/clear`, a death, a plan that
 * used them up), re-planning this sub-goal alone cannot help and the executor must decompose the goal again.
 */
export function missingInputs(
  step: SubGoal,
  inventory: Record<string, number>,
  kb: Knowledge,
  stationsNear: readonly string[] = [],
): string[] {
  const needs = subGoalNeeds(step)
  // only the inventory counts: the sub-goal was decomposed so that these were carried
  const world = { ...inventoryWorld(inventory), placed: (n: string) => stationsNear.includes(n) }
  return needs.flatMap((n) => shortfall(n, world, kb))
}
