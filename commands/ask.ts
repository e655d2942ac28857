/**
 * `ask <request>` — and any free text addressed to the bot: a natural-language request ("get 3 iron ingots",
 * "make me a stone pickaxe", "find a cow in the desert during the daytime") carried out by the agent pipeline.
 * The text is data for intent parsing, never instructions. A queued task; `stop` cancels it.
 */
import { z } from 'zod'
import { defineCommand } from '../src/router/command.js'
import { GhostError } from '../src/util/errors.js'

export default defineCommand({
  name: 'ask',
  aliases: ['please', 'do'],
  description: 'ask for something in your own words, e.g. "get 3 iron ingots"',
  usage: '<request>',
  args: z.object({ rest: z.string().trim().min(1, 'say what you need').max(500, 'keep requests under 500 characters') }).transform((a) => ({ text: a.rest })),
  minRole: 'trusted',
  mode: 'task',
  async run({ args, services, request, role, signal, progress, taskId }) {
    if (!services.agent) throw new GhostError('internal', 'agent not configured', 'My planner is not running.')
    return services.agent.handle(args.text, { request, role, signal, progress, taskId })
  },
})
