/**
 * Rules of `mine(object, tool, count)`: the object must be a block that drops something (fluids are taken with a
 * bucket), the named tool held and able to harvest the block, and the block — or a block that drops the item
 * (cobblestone ← stone) — in sight. Afterwards the bot holds at least `count` of what it was after.
 */
import type { Knowledge } from '../knowledge/index.js'
import type { Action } from '../schemas/action.js'
import { toolNeed } from './tool.js'
import { isContainer, neverContainer, playerPlacedProblem, protectedProblem } from './policy.js'
import type { ActionRules, Need } from './types.js'

/** The block dug for `object`: the block itself, or the first block it is mined from. */
export function mineBlock(kb: Knowledge, object: string): string {
  return kb.isBlock(object) ? object : (kb.whereFound(object).find((w) => w.kind === 'mine')?.from ?? object)
}

/** Items a mine action is after: the block's drops, or the named item itself. */
export function minedItems(kb: Knowledge, object: string): string[] {
  const drops = kb.isBlock(object) ? Object.keys(kb.dropsOf(object)) : []
  return drops.length > 0 ? drops : [object]
}

/** Blocks that may be dug for `object` besides itself: the blocks it drops from and their variants. */
export function sourceBlocks(kb: Knowledge, object: string): string[] {
  const out = new Set<string>()
  for (const s of kb.sources.sourcesFor(object)) if (s.kind === 'mine') for (const b of [s.block, ...s.also]) out.add(b)
  for (const b of kb.data.world.blocks[object]?.also ?? []) out.add(b)
  out.delete(object)
  return [...out]
}

/** The harvest need for digging `block` with `tool` (null: the hand). */
export function harvestNeed(block: string, tool: string | null): Need {
  return { kind: 'harvest', block, tool }
}

export const mineRules: ActionRules<Extract<Action, { type: 'mine' }>> = {
  describe: (a) => `mining ${a.count} ${a.object}`,
  budget: { steps: 128, timeMs: 180_000 },
  tracked: true,
  // stopped on the way to one block (a drop or lava between), the miner takes another one it can see
  detours: 3,
  requires: (a, { kb }) => {
    const dropsNothing = kb.isBlock(a.object) && Object.keys(kb.dropsOf(a.object)).length === 0
    const fluid = a.object === 'lava' || a.object === 'water'
    const block = mineBlock(kb, a.object)
    return [
      {
        kind: 'valid',
        ok: !dropsNothing,
        message: fluid
          ? `${a.object} is a fluid and cannot be mined; use apply with a bucket on it.`
          : `${a.object} drops nothing when mined.`,
      },
      ...toolNeed(a.tool, `mine ${a.object}`),
      ...(kb.isBlock(block) ? [harvestNeed(block, a.tool)] : []),
      { kind: 'sight', object: a.object, anyOf: [a.object, ...sourceBlocks(kb, a.object)] },
    ]
  },
  changes: (a, { kb }) => ({
    inventory: {},
    atLeast: Object.fromEntries(minedItems(kb, a.object).map((d) => [d, a.count])),
  }),
  policy: (a, view, { kb }) =>
    isContainer(a.object) && !view.placedByPlan(a.object)
      ? neverContainer(a.object)
      : (protectedProblem(view, 'dig') ??
        playerPlacedProblem(view, [...new Set([mineBlock(kb, a.object), ...sourceBlocks(kb, a.object)])])),
}
