/**
 * Rules of `guard(player)`: the player online and known; nothing changes in the inventory (food may be eaten). The
 * never-hit rules (players, tameable and passive animals) are the combat reflex's and the attack policy's, which the
 * guard handler reuses (src/actions/guard.ts), so they exist once.
 */
import type { Action } from '../schemas/action.js'
import type { ActionRules } from './types.js'

export const guardRules: ActionRules<Extract<Action, { type: 'guard' }>> = {
  describe: (a) => `guarding ${a.player}`,
  budget: { steps: 1_000_000, timeMs: 30 * 60_000 },
  requires: (a) => [{ kind: 'player', name: a.player }],
  changes: () => ({ inventory: {} }),
}
