/**
 * Batching of a decomposition's repeated steps (three separate "mine 1 oak_log" become one "mine 3 oak_log"), split
 * from the decomposer (src/knowledge/decompose.ts): which steps are the same work (`mergeKey`), how two become one
 * (`combine`), and `mergeRepeats`, which keeps a merge only when the dry-run world accepts the whole list.
 */
import { MAX_COUNT } from '../schemas/goal.js'
import type { DecompositionNode, SubGoal } from '../schemas/subgoal.js'

/** Key of steps that do the same thing and can be batched into one (same kind, object and per-run recipe). */
function mergeKey(s: SubGoal): string {
  switch (s.kind) {
    case 'mine':
      // the tool too: the first blocks of a long dig, mined to make its faster tool, stay a step of their own
      return `mine|${s.goal.object}|${s.mine.blocks[0]}|${s.mine.tool}`
    case 'hunt':
      return `hunt|${s.goal.object}|${s.hunt.mob}`
    case 'collect':
      return `collect|${s.goal.object}`
    case 'apply':
      return `apply|${s.goal.object}|${s.apply.tool}|${s.apply.target}`
    case 'smelt':
      return `smelt|${s.goal.object}|${s.smelt.input}|${s.smelt.fuel}`
    case 'craft':
      return `craft|${s.goal.object}|${Object.entries(s.craft.materials)
        .map(([i, n]) => `${i}:${n / s.craft.runs}`)
        .sort()
        .join(',')}`
    case 'enchant':
      return `enchant|${s.goal.object}`
  }
}

export function addCounts(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
  const out = { ...a }
  for (const [k, v] of Object.entries(b)) out[k] = (out[k] ?? 0) + v
  return out
}

/** One step doing the work of `a` then `b` (same merge key). */
function combine(a: SubGoal, b: SubGoal): SubGoal {
  const goal = {
    ...a.goal,
    count: Math.min(MAX_COUNT, a.goal.count + b.goal.count),
    material: addCounts(a.goal.material, b.goal.material),
  }
  const estimatedSteps = a.estimatedSteps + b.estimatedSteps
  if (a.kind === 'mine' && b.kind === 'mine')
    return { ...a, goal, estimatedSteps, mine: { ...a.mine, blocksToDig: a.mine.blocksToDig + b.mine.blocksToDig } }
  if (a.kind === 'hunt' && b.kind === 'hunt')
    return { ...a, goal, estimatedSteps, hunt: { ...a.hunt, kills: a.hunt.kills + b.hunt.kills } }
  if (a.kind === 'apply' && b.kind === 'apply')
    return { ...a, goal, estimatedSteps, apply: { ...a.apply, uses: a.apply.uses + b.apply.uses } }
  if (a.kind === 'smelt' && b.kind === 'smelt') {
    return {
      ...a,
      goal,
      estimatedSteps: 1,
      smelt: {
        ...a.smelt,
        inputCount: a.smelt.inputCount + b.smelt.inputCount,
        fuelCount: a.smelt.fuelCount + b.smelt.fuelCount,
      },
    }
  }
  if (a.kind === 'enchant' && b.kind === 'enchant') {
    const e = {
      ...a.enchant,
      attempts: a.enchant.attempts + b.enchant.attempts,
      lapis: a.enchant.lapis + b.enchant.lapis,
      experience: a.enchant.experience + b.enchant.experience,
    }
    return { ...a, goal, estimatedSteps, enchant: e }
  }
  if (a.kind === 'craft' && b.kind === 'craft') {
    return {
      ...a,
      goal,
      estimatedSteps: 1,
      craft: {
        ...a.craft,
        runs: a.craft.runs + b.craft.runs,
        materials: addCounts(a.craft.materials, b.craft.materials),
      },
    }
  }
  return { ...a, goal, estimatedSteps }
}

/**
 * Batch repeated steps (three separate "mine 1 oak_log" become one "mine 3 oak_log" at the first one's place), keeping
 * a merge only when `ok` (the dry-run world) accepts the whole list. Renumbers ids and re-points the tree.
 */
export function mergeRepeats(
  steps: SubGoal[],
  tree: DecompositionNode,
  ok: (candidate: SubGoal[]) => boolean,
): SubGoal[] {
  let cur = steps.map((s) => ({ step: s, ids: [s.id] }))
  if (!ok(cur.map((c) => c.step))) return steps
  for (let j = 1; j < cur.length; j++) {
    const key = mergeKey(cur[j]!.step)
    const i = cur.findIndex((c, idx) => idx < j && mergeKey(c.step) === key)
    if (i < 0) continue
    const merged = { step: combine(cur[i]!.step, cur[j]!.step), ids: [...cur[i]!.ids, ...cur[j]!.ids] }
    const cand = [...cur.slice(0, i), merged, ...cur.slice(i + 1, j), ...cur.slice(j + 1)]
    if (ok(cand.map((c) => c.step))) {
      cur = cand
      j--
    }
  }
  const remap = new Map<number, number>()
  cur.forEach((c, idx) => {
    for (const id of c.ids) remap.set(id, idx)
  })
  const visit = (n: DecompositionNode): void => {
    if (n.subGoal !== null) n.subGoal = remap.get(n.subGoal) ?? null
    n.children.forEach(visit)
  }
  visit(tree)
  return cur.map((c, idx) => ({ ...c.step, id: idx }))
}
