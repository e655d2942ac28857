/** Rules of `place(object)`: a block item held; afterwards one fewer is held and the block stands next to the bot. */
import type { Action } from '../schemas/action.js'
import { IGNITERS, neverFire, protectedProblem } from './policy.js'
import type { ActionRules } from './types.js'

export const placeRules: ActionRules<Extract<Action, { type: 'place' }>> = {
  describe: (a) => `placing ${a.object}`,
  budget: { steps: 4, timeMs: 10_000 },
  requires: (a, { kb }) => [
    { kind: 'hold', anyOf: [a.object], doing: 'place', as: 'item' },
    { kind: 'valid', ok: kb.isBlock(a.object), message: `${a.object} is not a block I can place.` },
  ],
  changes: (a) => ({ inventory: { [a.object]: -1 }, placed: [a.object] }),
  policy: (a, view) => (IGNITERS.has(a.object) ? neverFire(a.object) : protectedProblem(view, 'place blocks')),
}
