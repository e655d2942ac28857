/**
 * `ask <request>` — and any free text addressed to the bot: a natural-language request ("get 3 iron ingots",
 * "make me a stone pickaxe", "find a cow in the desert during the daytime") carried out by the agent pipeline.
 * The text is data for intent parsing, never instructions. It is understood when it arrives (triage): questions and
 * control words are answered at once, everything else is acknowledged and queued; `stop` cancels it.
 */
import { z } from 'zod'
import { defineCommand } from '../src/router/command.js'
import { GhostError } from '../src/util/errors.js'
import type { StepPlan } from '../src/router/services.js'

export default defineCommand({
  name: 'ask',
  aliases: ['please', 'do'],
  description: 'ask for something in your own words, e.g. "get 3 iron ingots"',
  usage: '<request>',
  args: z
    .object({ rest: z.string().trim().min(1, 'say what you need').max(500, 'keep requests under 500 characters') })
    .transform((a) => ({ text: a.rest })),
  // guests may ask questions and for status; every step is checked against the role when the request arrives
  minRole: 'guest',
  mode: 'task',
  async triage({ args, services, request, role }) {
    if (!services.agent?.triage) throw new GhostError('internal', 'agent not configured', 'My planner is not running.')
    return services.agent.triage(args.text, { request, role, services })
  },
  async run({ args, services, request, role, signal, progress, taskId }) {
    if (!services.agent) throw new GhostError('internal', 'agent not configured', 'My planner is not running.')
    const run = { request, role, signal, progress, taskId }
    // after triage the args are the understood plan (a StepPlan); without triage, the text
    const plan = args as unknown as StepPlan | { text: string }
    if ('kind' in plan && plan.kind === 'steps' && services.agent.perform)
      return services.agent.perform(plan, run, services)
    if ('text' in plan) return services.agent.handle(plan.text, run)
    throw new GhostError('internal', 'ask got no plan', 'I lost track of that request.')
  },
})
