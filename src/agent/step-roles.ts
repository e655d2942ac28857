/**
 * Roles per step kind: the one table of who may ask for what, checked for every step of a request before anything
 * runs (and audited by the router). guest — answers and status; trusted — obtain and give to themselves (or the
 * bot), come, follow, goto, guard themselves, attack mobs, deposit/withdraw at chests; owner — everything,
 * including obtaining for, giving to or guarding other players and building. Attacking a player is never allowed,
 * for anyone.
 */
import { atLeast, type Role } from '../schemas/role.js'
import { describeStep, type Step } from '../schemas/step.js'

export interface StepCheck {
  step: string
  allowed: boolean
  reason?: string
  minRole: Role | null
}

/** The role a step needs, or null when no role may ask for it. `requester` is the asking player's name. */
export function stepMinRole(step: Step, requester: string): Role | null {
  const other = (who: string | null): boolean =>
    who !== null && who !== 'requester' && who !== 'self' && who.toLowerCase() !== requester.toLowerCase()
  switch (step.kind) {
    case 'answer':
      return 'guest'
    case 'control':
      return 'guest' // stopping someone else's task is checked when it runs, as for the stop command
    case 'obtain':
      return other(step.for) ? 'owner' : 'trusted'
    case 'give':
      return other(step.to) ? 'owner' : 'trusted'
    case 'move':
      return 'trusted'
    case 'store':
      return 'trusted'
    case 'guard':
      return other(step.player) ? 'owner' : 'trusted'
    case 'attack':
      return step.mob === 'player' ? null : 'trusted'
    case 'build':
      return 'owner'
  }
}

/** Check every step against the requester's role; the first denial is the reply. */
export function checkSteps(
  steps: Step[],
  role: Role,
  requester: string,
): { checks: StepCheck[]; denial: string | null } {
  const checks: StepCheck[] = []
  let denial: string | null = null
  for (const s of steps) {
    const min = stepMinRole(s, requester)
    const label = `${s.kind} ${describeStep(s, requester)}`.slice(0, 80)
    if (min === null) {
      checks.push({ step: label, allowed: false, reason: 'never allowed', minRole: null })
      denial ??= 'I never attack players.'
    } else if (!atLeast(role, min)) {
      checks.push({ step: label, allowed: false, reason: `needs ${min}`, minRole: min })
      denial ??= `Sorry ${requester}, "${describeStep(s, requester)}" needs the ${min} role and you are ${role}.`
    } else checks.push({ step: label, allowed: true, minRole: min })
  }
  return { checks, denial }
}
