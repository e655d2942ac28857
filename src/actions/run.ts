/**
 * Runs one handler under the uniform contract: one AbortController that fires for stop (the caller's signal), a
 * reflex taking over (`unsafe`), death (`died`), the progress signal seeing no progress (`stalled`), the time budget
 * and the step budget. The handler is raced against that signal so a stop ends the action at once; afterwards the
 * bot is left standing still and the progress trace is recorded per bot. Exported for the registry and for tests
 * that drive a test-only movement loop through the same machinery.
 */
import type { Bot } from 'mineflayer'
import type { ActionResult, FailureReason } from '../schemas/action.js'
import { standStill } from '../bot/body.js'
import { ProgressTracker, type ProgressEntry } from '../progress/signal.js'
import { loadRules } from '../progress/rules.js'
import { recordTrace } from '../progress/recorder.js'
import { logger } from '../util/log.js'
import { attachReflexes, reflexesOf } from './reflexes/index.js'
import { lavaInView } from '../perception/vision.js'
import {
  ActionFailure,
  StopSignal,
  delta,
  inventoryCounts,
  result,
  type ActionContext,
  type Budget,
  type Run,
  type StopCause,
} from './types.js'

const log = logger('actions')

export interface RunOptions {
  /** Action name for messages, budgets and per-action stall windows. */
  name: string
  /** Phrase describing what the bot is doing ("mining 3 iron_ore"), for messages. */
  doing: string
  budget: Budget
  tracked: boolean
  /** Reason to report when the budget runs out (explore: not_found). */
  budgetReason?: FailureReason
  /** The message when the budget runs out; a function is asked at that moment (e.g. to say the distance left). */
  budgetMessage?: string | (() => string)
  /** Guard-reflex stops (lava, a drop ahead) the handler finds its own way around before one ends the run. */
  detours?: number
}

/** The reflexes a handler may take another way around (the guard's); a fight always ends the run, a flight too unless
 * the handler is running from the mob itself (`run.fleeing`). */
const DETOURABLE = new Set(['lava', 'drop'])

export async function runHandler(
  bot: Bot,
  ctx: ActionContext,
  opts: RunOptions,
  body: (run: Run) => Promise<string>,
): Promise<ActionResult> {
  const started = Date.now()
  const before = inventoryCounts(bot)
  const rules = ctx.rules ?? loadRules()
  const reflexes = reflexesOf(bot) ?? attachReflexes(bot)
  const controller = new AbortController()
  let stop: StopSignal | null = null
  const abort = (cause: StopCause, detail: string): void => {
    if (stop) return
    stop = new StopSignal(cause, detail)
    controller.abort(stop)
  }
  const progress = new ProgressTracker(rules, opts.name, started, ctx.onSignal)
  let steps = 0
  let detours = 0
  let fleeing = 0
  const run: Run = {
    bot,
    signal: controller.signal,
    budget: opts.budget,
    startedAt: started,
    progress,
    protected: ctx.protected ?? [],
    keep: ctx.keep ?? [],
    reserve: ctx.reserve ?? {},
    step(n = 1) {
      steps += n
      if (steps > opts.budget.steps) abort('budget', `used all ${opts.budget.steps} steps`)
      if (stop) throw stop
    },
    stepsUsed: () => steps,
    check() {
      if (stop) throw stop
    },
    detours: () => detours,
    async fleeing(fn) {
      fleeing++
      try {
        return await fn()
      } finally {
        fleeing--
      }
    },
  }

  const onExternal = (): void => abort('interrupted', 'told to stop')
  if (ctx.signal.aborted) onExternal()
  ctx.signal.addEventListener('abort', onExternal, { once: true })
  const offReflex = reflexes.onInterrupt((e) => {
    if (e.kind === 'flee' && fleeing > 0) {
      log.debug('reflex alongside', { action: opts.name, message: e.message })
      return
    }
    if (DETOURABLE.has(e.kind) && detours < (opts.detours ?? 0)) {
      detours++
      log.debug('reflex detour', { action: opts.name, detours, message: e.message })
      return
    }
    abort('unsafe', e.message)
  })
  const onDeath = (): void => abort('died', 'died')
  bot.on('death', onDeath)
  const timer = setTimeout(
    () => abort('timeout', `ran out of time after ${Math.round(opts.budget.timeMs / 1000)} s`),
    opts.budget.timeMs,
  )
  let sampler: NodeJS.Timeout | null = null
  const sample = (): ProgressEntry | null => {
    if (!bot.entity) return null
    const entry = progress.observe({
      t: Date.now(),
      pos: bot.entity.position,
      health: bot.health,
      wanted: progress.wantedCount(),
      targetDistance: progress.targetDistance(),
      lavaInView: lavaInView(bot, rules.lava.viewDistance),
      inventoryTotal: bot.inventory.items().reduce((a, i) => a + i.count, 0),
      work: progress.takeWork(),
      dead: bot.health <= 0,
    })
    if (progress.stalled()) abort('stalled', `made no progress for ${Math.round(progress.stallWindowMs / 1000)} s`)
    return entry
  }
  if (opts.tracked) {
    sample()
    sampler = setInterval(() => {
      try {
        sample()
      } catch (err) {
        log.warn('progress sample failed', { err: (err as Error).message })
      }
    }, rules.sampleEveryMs)
  }

  const stopped = new Promise<never>((_, reject) => {
    if (controller.signal.aborted) reject(controller.signal.reason)
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true })
  })
  stopped.catch(() => {})
  let ok = false
  let reason: FailureReason | null = null
  let message = ''
  const work = body(run)
  work.catch(() => {})
  try {
    message = await Promise.race([work, stopped])
    ok = true
  } catch (err) {
    const s = stop as StopSignal | null
    if (s) ({ reason, message } = describeStop(s, opts))
    else if (err instanceof ActionFailure) {
      reason = err.reason
      message = err.message
    } else {
      reason = 'error'
      message = `Something went wrong while ${opts.doing}: ${(err as Error).message}.`
      // with the stack: a TypeError from inside a dependency (suite 20's "reading 'present'") says where only there
      log.warn('handler error', { action: opts.name, err: (err as Error).message, stack: (err as Error).stack })
    }
  } finally {
    clearTimeout(timer)
    if (sampler) clearInterval(sampler)
    ctx.signal.removeEventListener('abort', onExternal)
    offReflex()
    bot.removeListener('death', onDeath)
    if (!stop) controller.abort(new StopSignal('interrupted', 'action finished'))
    if (!reflexes.busy()) standStill(bot)
  }
  // give an aborted handler a moment to unwind so it cannot touch the body during the next action
  if (stop)
    await Promise.race([
      work.then(
        () => {},
        () => {},
      ),
      new Promise((r) => setTimeout(r, 500)),
    ])
  if (opts.tracked) {
    progress.finish(ok, ok ? 'goal reached' : `${reason}: ${message}`)
    recordTrace(bot, { action: opts.name, ok, reason, entries: progress.entries(), at: Date.now() })
  }
  return result(ok, reason, message, delta(before, inventoryCounts(bot)), Date.now() - started)
}

function describeStop(s: StopSignal, opts: RunOptions): { reason: FailureReason; message: string } {
  switch (s.cause) {
    case 'interrupted':
      return { reason: 'interrupted', message: `I stopped ${opts.doing} because I was told to stop.` }
    case 'unsafe':
      return { reason: 'unsafe', message: s.detail }
    case 'died':
      return { reason: 'died', message: `I died while ${opts.doing}.` }
    case 'stalled':
      return { reason: 'stalled', message: `I gave up ${opts.doing} because I ${s.detail}.` }
    case 'timeout':
    case 'budget': {
      const m = typeof opts.budgetMessage === 'function' ? opts.budgetMessage() : opts.budgetMessage
      return { reason: opts.budgetReason ?? 'timeout', message: m ?? `I stopped ${opts.doing} because I ${s.detail}.` }
    }
  }
}
