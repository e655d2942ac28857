/** Rules of `attack(object, tool)`: a creature, in sight, and the named weapon held; its drops are the world's to decide. */
import type { Action } from '../schemas/action.js'
import { toolNeed } from './tool.js'
import { NEVER_PLAYERS, TAMEABLE, neverPet } from './policy.js'
import type { ActionRules } from './types.js'

export const attackRules: ActionRules<Extract<Action, { type: 'attack' }>> = {
  describe: (a) => `attacking ${a.object}`,
  budget: { steps: 400, timeMs: 60_000 },
  tracked: true,
  requires: (a, { kb }) => [
    { kind: 'valid', ok: kb.isEntity(a.object), message: `${a.object} is not a creature I can attack.` },
    ...toolNeed(a.tool, `attack the ${a.object}`),
    { kind: 'sight', object: a.object, anyOf: [a.object] },
  ],
  changes: (a, { kb }) => ({ inventory: {}, uncertain: [...kb.sources.mobDropsOf(a.object).keys()] }),
  policy: (a, view) =>
    a.object === 'player' || view.players.includes(a.object)
      ? NEVER_PLAYERS
      : TAMEABLE.has(a.object)
        ? neverPet(a.object)
        : null,
}
