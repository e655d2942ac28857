/**
 * Rules of `deposit(items, chest)` and `withdraw(items, chest)` (issue 17): a deposit needs the listed items held
 * (a count of null means "all I have": at least one); a withdrawal's yield is up to the chest, so its items are
 * uncertain at plan time. Both open a container, which the safety policy forbids inside a protected box
 * (GHOST_PROTECTED): at run time the handler asks `policy()` with the chest's position as the target.
 */
import type { Action } from '../schemas/action.js'
import { protectedProblem } from './policy.js'
import type { ActionRules, Need } from './types.js'

type Deposit = Extract<Action, { type: 'deposit' }>
type Withdraw = Extract<Action, { type: 'withdraw' }>

const OPEN = 'open containers'

export const depositRules: ActionRules<Deposit> = {
  describe: (a) => `putting ${a.items.map((i) => i.object).join(', ') || 'everything but my tools'} in a chest`,
  budget: { steps: 40, timeMs: 60_000 },
  requires: (a) => {
    const counted = Object.fromEntries(a.items.filter((i) => i.count !== null).map((i) => [i.object, i.count!]))
    const needs: Need[] = a.items
      .filter((i) => i.count === null)
      .map((i) => ({ kind: 'hold', anyOf: [i.object], doing: `put ${i.object} in a chest`, as: 'item' }))
    if (Object.keys(counted).length > 0) needs.unshift({ kind: 'items', items: counted, doing: 'fill the chest' })
    return needs
  },
  changes: (a) => ({
    inventory: Object.fromEntries(a.items.filter((i) => i.count !== null).map((i) => [i.object, -i.count!])),
    uncertain: a.items.filter((i) => i.count === null).map((i) => i.object),
  }),
  policy: (_a, view) => protectedProblem(view, OPEN),
}

export const withdrawRules: ActionRules<Withdraw> = {
  describe: (a) => `taking ${a.items.map((i) => i.object).join(', ')} from a chest`,
  budget: { steps: 40, timeMs: 60_000 },
  requires: () => [],
  changes: (a) => ({ inventory: {}, uncertain: a.items.map((i) => i.object) }),
  policy: (_a, view) => protectedProblem(view, OPEN),
}
