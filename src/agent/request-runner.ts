/**
 * Requests in the request language, end to end. `triage` runs when a line arrives: it understands the text
 * (grammar, LLM if needed), checks every step against the requester's role (src/agent/step-roles.ts), answers
 * questions and control words at once from game data and the bot's own state, drops steps whose skills have not
 * landed yet with a sentence, and queues the rest as a `StepPlan` with an acknowledgement ("On it: 3 torch for
 * you"), marked interactive when every step is short (come, give what is carried, answers). `perform` runs a plan:
 * obtains through the executor against the inventory minus what is set aside for others (ledger.ts), then set
 * aside for their player and delivered with the `give` action (walk within 2 blocks, toss exactly that, verified);
 * an unreachable player keeps their items set aside until "give me my …" or until they are next near the bot
 * (`handOver`, run by courier.ts). Progress lines are paced by chatter.ts.
 */
import type { ExecuteOptions, Hands } from './ports.js'
import type { Action } from '../schemas/action.js'
import type { Triage, StepAudit } from '../router/command.js'
import type { AgentRun, GotoTarget, Services, SkillsPort, StepPlan } from '../router/services.js'
import type { Role } from '../schemas/role.js'
import { describeStep, type ItemCount, type Step } from '../schemas/step.js'
import { Goal } from '../schemas/goal.js'
import { atLeast } from '../schemas/role.js'
import { failed, succeeded, type Outcome, type TaskEvent } from '../schemas/task.js'
import type { Request } from '../router/request.js'
import { answerStep, type SelfView } from './answers.js'
import { Chatter } from './chatter.js'
import { runGoal, type GoalDeps } from './executor.js'
import { Ledger } from './ledger.js'
import type { RequestKnowledge } from './request-knowledge.js'
import { checkSteps } from './step-roles.js'
import { shippedBlueprints } from '../rules/build.js'
import type { Understander } from './understand.js'

export interface RunnerDeps {
  goal: GoalDeps
  rkb: RequestKnowledge
  understander: Understander
  ledger?: Ledger
  chatter?: Chatter
  /** Whether an LLM is configured (replies then say how many calls a goal took). */
  llm: boolean
}

const IMMEDIATE = new Set<Step['kind']>(['answer', 'control'])
const NOT_YET: Partial<Record<Step['kind'], string>> = {}
const TOOL = /_(pickaxe|axe|shovel|hoe|sword)$|^(shears|flint_and_steel|fishing_rod|bow|crossbow|shield)$/

function notYet(s: Step): string | null {
  return NOT_YET[s.kind] ?? null
}

export function selfView(services: Services, ledger: Ledger, player: string): SelfView {
  const st = services.body.status()
  const cur = services.queue.current()
  const inv = Object.fromEntries(services.body.inventory().map((i) => [i.name, i.count]))
  return {
    inventory: ledger.view(inv, player),
    doing: cur
      ? `working on "${cur.text.slice(0, 60)}" for ${cur.player}${cur.progress ? ` (${cur.progress.slice(0, 80)})` : ''}`
      : null,
    waiting: services.queue.pending().length,
    position: st.position,
    dimension: st.dimension,
  }
}

/**
 * Hands whose state() shows the inventory through `view` (each request works from its own delta: everything set
 * aside for players taken out); every other port is passed on as it is — the `satisfies` below makes a port added
 * to Hands later fail to compile here instead of being dropped (recoverDrops once was: after a death no request
 * waited for the respawn, and the re-plan read the inventory the bot had just lost).
 */
export function viewedHands(hands: Hands, view: (inventory: Record<string, number>) => Record<string, number>): Hands {
  const wrapped = {
    execute: (a: Action, signal: AbortSignal, opts?: ExecuteOptions) => hands.execute(a, signal, opts),
    state: () => {
      const s = hands.state()
      return { ...s, inventory: view(s.inventory) }
    },
    nearbyBlocks: () => hands.nearbyBlocks(),
    lastTrace: () => hands.lastTrace(),
    identity: () => hands.identity(),
    recoverDrops: hands.recoverDrops ? (signal: AbortSignal) => hands.recoverDrops!(signal) : undefined,
  } satisfies Record<keyof Hands, unknown>
  return wrapped
}

export function createRequestRunner(deps: RunnerDeps) {
  const ledger = deps.ledger ?? new Ledger()
  const chatter = deps.chatter ?? new Chatter()
  const kb = deps.rkb.knowledge

  function control(
    op: Extract<Step, { kind: 'control' }>['op'],
    request: Request,
    role: Role,
    services: Services,
  ): string {
    switch (op) {
      case 'quiet':
        chatter.setQuiet(request.player, true)
        return 'OK, no progress lines for you; I will still say when a request is done. Say "keep me posted" to hear them again.'
      case 'loud':
        chatter.setQuiet(request.player, false)
        return 'OK, I will tell you about progress (at most one line every 30 s).'
      case 'inventory':
        return answerStep(
          { kind: 'answer', question: 'inventory', subject: null, have: null },
          kb,
          selfView(services, ledger, request.player),
        )
      case 'status': {
        const st = services.body.status()
        const doing = answerStep(
          { kind: 'answer', question: 'doing', subject: null, have: null },
          kb,
          selfView(services, ledger, request.player),
        )
        return `${st.connected ? `Health ${st.health}, food ${st.food}.` : 'Not connected.'} ${doing}`
      }
      case 'stop': {
        const cur = services.queue.current()
        if (!cur) return 'Nothing to stop.'
        if (cur.player !== request.player && !atLeast(role, 'trusted'))
          return `That task belongs to ${cur.player}; only they or a trusted player can stop it.`
        services.queue.stopCurrent()
        const dropped = services.queue.clear(request.player)
        return dropped > 0 ? `Stopping; also dropped ${dropped} of your waiting request(s).` : 'Stopping.'
      }
    }
  }

  function immediate(s: Step, request: Request, role: Role, services: Services): string {
    if (s.kind === 'control') return control(s.op, request, role, services)
    if (s.kind === 'answer') return answerStep(s, kb, selfView(services, ledger, request.player))
    return ''
  }

  async function triage(text: string, ctx: { request: Request; role: Role; services: Services }): Promise<Triage> {
    const { request, role, services } = ctx
    const u = await deps.understander.understand(text, { player: request.player, requestId: request.id })
    if (u.understanding.kind === 'clarify')
      return {
        kind: 'answered',
        outcome: failed(u.understanding.question),
        audit: [{ step: 'clarify', allowed: true }],
      }
    if (u.understanding.kind === 'refuse')
      return {
        kind: 'answered',
        outcome: failed(`I can't do that: ${u.understanding.reason}`),
        audit: [{ step: 'refuse', allowed: true, reason: u.understanding.reason.slice(0, 80) }],
      }
    const { checks, denial } = checkSteps(u.understanding.steps, role, request.player)
    const audit: StepAudit[] = checks.map(({ step, allowed, reason }) => ({
      step,
      allowed,
      ...(reason ? { reason } : {}),
    }))
    if (denial) return { kind: 'answered', outcome: failed(denial), audit }
    const now: string[] = []
    const notes: string[] = []
    const queued: Step[] = []
    for (const s of u.understanding.steps) {
      const later = notYet(s)
      if (later) {
        notes.push(`I can't ${later} yet ("${describeStep(s, request.player)}")`)
        continue
      }
      if (IMMEDIATE.has(s.kind) && queued.length === 0) now.push(immediate(s, request, role, services))
      else queued.push(s)
    }
    const held = Object.entries(ledger.heldFor(request.player))
    if (held.length && !u.understanding.steps.some((s) => s.kind === 'give')) {
      notes.push(
        `I still have ${held.map(([k, n]) => `${n} ${k}`).join(', ')} set aside for you: say "give me my ${held[0]![0]}"`,
      )
    }
    const said = [...now, ...(notes.length ? [`${notes.join('; ')}.`] : [])].join(' ')
    if (queued.length === 0) return { kind: 'answered', outcome: { ok: notes.length === 0, text: said }, audit }
    const summary = queued.map((s) => describeStep(s, request.player)).join(', then ')
    const interactive = queued.every(
      (s) =>
        s.kind === 'give' || s.kind === 'answer' || s.kind === 'control' || (s.kind === 'move' && s.mode === 'come'),
    )
    const plan: StepPlan = { kind: 'steps', steps: queued, done: 0, summary }
    return { kind: 'queue', args: plan, interactive, ack: `${said ? `${said} ` : ''}On it: ${summary}`, audit }
  }

  /** Progress lines at milestones (a sub-goal done, a re-plan), paced and silenced per player. */
  function progressSink(run: AgentRun, summary: string): AgentRun['progress'] {
    let lastDone = 0
    return (e: TaskEvent) => {
      run.progress(e)
      if (e.kind !== 'progress') return
      const milestone = e.done > lastDone || e.message.startsWith('failed')
      lastDone = Math.max(lastDone, e.done)
      if (milestone && chatter.mayTell(run.request.player, run.taskId)) {
        void run.request.reply(`${summary}: ${e.done}/${e.total} done — ${e.message}.`).catch(() => {
          /* best effort */
        })
      }
    }
  }

  /** Hand items to a player with the give action; what could not be handed over stays set aside for them. */
  async function deliver(
    to: string,
    items: Array<{ object: string; count: number }>,
    signal: AbortSignal,
  ): Promise<Outcome> {
    const lines: string[] = []
    for (const it of items) {
      const res = await deps.goal.hands.execute({ type: 'give', object: it.object, count: it.count, to }, signal)
      if (!res.ok) {
        const kept = Object.entries(ledger.heldFor(to)).map(([k, n]) => `${n} ${k}`)
        return failed(
          `${lines.join(' ')} I could not hand ${it.count} ${it.object} to ${to}: ${res.message.replace(/\.+$/, '')}.${kept.length ? ` I keep ${kept.join(', ')} set aside for ${to} and will hand them over when ${to} is next near me (or say "give me my ${it.object}").` : ''}`.trim(),
        )
      }
      ledger.release(to, it.object, it.count)
      lines.push(res.message)
    }
    return succeeded(lines.join(' '))
  }

  function who(r: string, request: Request): string {
    return r === 'requester' ? request.player : r
  }

  async function obtain(s: Extract<Step, { kind: 'obtain' }>, run: AgentRun): Promise<Outcome> {
    const goal = Goal.parse({ object: s.object, count: s.count, conditions: s.conditions })
    const out = await runGoal(
      goal,
      { ...deps.goal, hands: viewedHands(deps.goal.hands, (inv) => ledger.view(inv)) },
      {
        player: run.request.player,
        requestId: run.request.id,
        taskId: run.taskId,
        signal: run.signal,
        progress: run.progress,
      },
    )
    const calls = deps.llm ? ` (${out.llmCalls} LLM call${out.llmCalls === 1 ? '' : 's'})` : ''
    const line = out.ok
      ? `${out.message} Verified: ${out.verification}.${calls}`
      : `${out.message}${out.verification ? ` Checked: ${out.verification}.` : ''}`
    if (!out.ok || s.for === 'self' || !kb.isItem(s.object)) return { ok: out.ok, text: line }
    const to = who(s.for, run.request)
    ledger.reserve(to, s.object, s.count)
    const d = await deliver(to, [{ object: s.object, count: s.count }], run.signal)
    return { ok: d.ok, text: `${line} ${d.text}` }
  }

  async function give(s: Extract<Step, { kind: 'give' }>, run: AgentRun): Promise<Outcome> {
    const to = who(s.to, run.request)
    const inv = deps.goal.hands.state().inventory
    const mine = ledger.view(inv, to) // free stock plus what is set aside for this player
    const wanted: ItemCount[] = s.items.length
      ? s.items
      : Object.keys(mine)
          .filter((k) => !TOOL.test(k))
          .map((object) => ({ object, count: null }))
    const items: Array<{ object: string; count: number }> = []
    for (const w of wanted) {
      const have = mine[w.object] ?? 0
      if (have === 0)
        return failed(
          `I have no ${w.object} to give${s.items.length ? `; say "bring me ${w.object}" and I will get some` : ''}.`,
        )
      if (w.count !== null && w.count > have) return failed(`I have only ${have} ${w.object}, not ${w.count}.`)
      items.push({ object: w.object, count: w.count ?? have })
    }
    if (items.length === 0) return failed('I have nothing to give but my tools.')
    return deliver(to, items, run.signal)
  }

  /**
   * Hand a player everything set aside for them (the courier, when they come near; src/agent/courier.ts). What the
   * bot no longer holds (lost in a death, or taken) is released with a sentence; what fails to go over stays set
   * aside. Nothing set aside: an ok outcome with no text (nothing is said).
   */
  async function handOver(player: string, signal: AbortSignal): Promise<Outcome> {
    const mine = ledger.view(deps.goal.hands.state().inventory, player)
    const items: Array<{ object: string; count: number }> = []
    const lost: string[] = []
    for (const [object, count] of Object.entries(ledger.heldFor(player))) {
      const n = Math.min(count, mine[object] ?? 0)
      if (n < count) lost.push(`${ledger.release(player, object, count - n)} ${object}`)
      if (n > 0) items.push({ object, count: n })
    }
    const gone = lost.length ? `I no longer have ${lost.join(', ')} I kept for you.` : ''
    if (items.length === 0) return gone ? failed(`${player}: ${gone}`) : succeeded('')
    const out = await deliver(player, items, signal)
    return { ok: out.ok, text: `${player}, here is what I kept for you: ${out.text}${gone ? ` ${gone}` : ''}` }
  }

  async function runStep(s: Step, run: AgentRun, services: Services): Promise<Outcome> {
    switch (s.kind) {
      case 'obtain':
        return obtain(s, run)
      case 'give':
        return give(s, run)
      case 'move':
        if (s.mode === 'come') return services.body.come(who(s.player ?? 'requester', run.request), run.signal)
        if (s.mode === 'follow') return services.body.follow(who(s.player ?? 'requester', run.request), run.signal)
        return skill(services, (k) => k.goto(gotoTarget(s, run.request), run.signal))
      case 'store':
        return skill(services, (k) => k.store(s.op, s.items, s.chest, run.signal))
      case 'guard':
        return skill(services, (k) => k.guard(who(s.player, run.request), run.signal))
      case 'attack':
        return skill(services, (k) => k.attack(s.mob, run.signal))
      case 'build':
        return build(s, run, services)
      case 'answer':
      case 'control':
        return succeeded(immediate(s, run.request, run.role, services))
      default:
        return failed(`I can't do "${describeStep(s, run.request.player)}" yet.`)
    }
  }

  /** The companion skills (issue 17) through the SkillsPort, when the app provides one. */
  function skill(services: Services, go: (k: SkillsPort) => Promise<Outcome>): Promise<Outcome> {
    return services.skills
      ? go(services.skills)
      : Promise.resolve(failed("I can't do that here: no skills are connected."))
  }

  /** A survival build: every missing block obtained through the normal goal pipeline first, then built where asked. */
  async function build(s: Extract<Step, { kind: 'build' }>, run: AgentRun, services: Services): Promise<Outcome> {
    const need = shippedBlueprints()[s.blueprint]
    if (!need)
      return failed(`I know no blueprint called ${s.blueprint}; I know ${Object.keys(shippedBlueprints()).join(', ')}.`)
    const lines: string[] = []
    for (const [block, count] of Object.entries(need)) {
      const have = ledger.view(deps.goal.hands.state().inventory)[block] ?? 0
      if (have >= count) continue
      const got = await obtain({ kind: 'obtain', object: block, count, conditions: null, for: 'self' }, run)
      if (!got.ok) return failed(`I could not get the ${count} ${block} the ${s.blueprint} needs: ${got.text}`)
      lines.push(`Got ${count} ${block}.`)
    }
    const built = await skill(services, (k) =>
      k.build(s.blueprint, s.where, run.request.player, run.signal, (done, total) => {
        run.progress({
          kind: 'progress',
          taskId: run.taskId,
          subgoals: [],
          done,
          total,
          message: `layer ${done}/${total} of the ${s.blueprint}`,
        })
      }),
    )
    return { ok: built.ok, text: [...lines, built.text].join(' ') }
  }

  function gotoTarget(s: Extract<Step, { kind: 'move' }>, request: Request): GotoTarget {
    if (s.x !== null && s.y !== null && s.z !== null) return { kind: 'xyz', x: s.x, y: s.y, z: s.z }
    if (s.place) return { kind: 'place', name: s.place }
    return { kind: 'player', name: who(s.player ?? 'requester', request) }
  }

  async function perform(plan: StepPlan, run: AgentRun, services: Services): Promise<Outcome> {
    const paced: AgentRun = { ...run, progress: progressSink(run, plan.summary) }
    const lines: string[] = []
    for (; plan.done < plan.steps.length; plan.done++) {
      const out = await runStep(plan.steps[plan.done]!, paced, services)
      if (out.text) lines.push(out.text)
      if (!out.ok) return failed(lines.join(' '))
    }
    return succeeded(lines.join(' '))
  }

  return { triage, perform, handOver, ledger, chatter }
}
