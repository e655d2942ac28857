/**
 * One action of a sub-goal's plan under the patroller, and the cut of a search once the sub-goal's count is held
 * (`guardedUntilMet`): split from the sub-goal runner (src/agent/subgoal-runner.ts), which calls it per action.
 */
import type { Action, ActionResult } from '../schemas/action.js'
import { AbortedError } from '../util/errors.js'
import { cutSignal } from '../util/async.js'
import type { Patroller } from './patroller.js'
import type { ExecuteOptions, Hands } from './ports.js'

/** Actions that only look or make a way (a search, a shaft): cut as soon as the sub-goal's count is held. */
const SEARCHES: ReadonlySet<Action['type']> = new Set(['explore', 'dig_down'])
/** How often a search under way asks whether the count is held. */
const MET_POLL_MS = 500

/**
 * One action under the patroller; a search (SEARCHES) is cut as soon as `met` holds, and its result then says so as a
 * success (`cut`: the rest of the plan is not needed). bench d36 seed 4: the shaft down dug through a diamond ore and
 * picked it up, and the plan's explore then searched 130 s for another. A stop still aborts it as before.
 */
export async function guardedUntilMet(
  action: Action,
  hands: Hands,
  patroller: Patroller,
  signal: AbortSignal,
  met: () => boolean,
  opts: ExecuteOptions,
  object: string,
): Promise<{ result: ActionResult; cut: boolean }> {
  if (!SEARCHES.has(action.type)) return { result: await patroller.guarded(action, hands, signal, opts), cut: false }
  const cut = cutSignal(signal, null, null, { check: met, everyMs: MET_POLL_MS, reason: new AbortedError('goal met') })
  try {
    const result = await patroller.guarded(action, hands, cut.signal, opts)
    if (!cut.signal.aborted || signal.aborted || !met()) return { result, cut: false }
    const message = `I stopped the ${action.type} there: the ${object} I was after is in my inventory now.`
    return { result: { ...result, ok: true, reason: null, message }, cut: true }
  } finally {
    cut.done()
  }
}
