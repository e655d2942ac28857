/**
 * Rules of `apply(object, tool)`: the tool held and the target in sight; when the game data knows the use (a bucket
 * on water → water_bucket, data/knowledge world.json `apply`) also its station and materials. What the use gives is
 * there for later steps in an amount the world decides.
 */
import type { Knowledge } from '../knowledge/index.js'
import type { Action } from '../schemas/action.js'
import { toolNeed } from './tool.js'
import { IGNITERS, isContainer, neverFire, protectedProblem } from './policy.js'
import type { ActionRules, Need } from './types.js'

/** The known use of `tool` on `target`, if any. */
export function applySpec(
  kb: Knowledge,
  target: string,
  tool: string,
): Knowledge['data']['world']['apply'][number] | undefined {
  return kb.data.world.apply.find((s) => s.target === target && s.tool === tool)
}

export const applyRules: ActionRules<Extract<Action, { type: 'apply' }>> = {
  describe: (a) => `using ${a.tool} on ${a.object}`,
  budget: { steps: 4, timeMs: 15_000 },
  requires: (a, { kb }) => {
    const spec = applySpec(kb, a.object, a.tool)
    const doing = `use ${a.tool} on ${a.object}`
    const needs: Need[] = [...toolNeed(a.tool, doing)]
    if (spec?.station) needs.push({ kind: 'station', name: spec.station, doing })
    if (spec?.materials) needs.push({ kind: 'items', items: spec.materials, doing })
    if (spec?.targetKind !== 'placed') needs.push({ kind: 'sight', object: a.object, anyOf: [a.object] })
    return needs
  },
  changes: (a, { kb }) => ({
    inventory: {},
    uncertain: kb.data.world.apply.filter((x) => x.target === a.object && x.tool === a.tool).map((x) => x.item),
  }),
  policy: (a, view) =>
    IGNITERS.has(a.tool)
      ? neverFire(a.tool)
      : protectedProblem(view, isContainer(a.object) ? 'open containers' : `use ${a.tool}`),
}
