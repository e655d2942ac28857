/** `goal <item> [count]`: pursue one structured goal by its game name, skipping intent parsing. A queued task. */
import { z } from 'zod'
import { defineCommand } from '../src/router/command.js'
import { MAX_COUNT } from '../src/schemas/goal.js'
import { GhostError } from '../src/util/errors.js'

export default defineCommand({
  name: 'goal',
  description: 'obtain an item by its game name, e.g. "goal iron_ingot 3"',
  usage: '<item> [count]',
  args: z
    .object({ words: z.array(z.string()).min(1, 'name an item').max(2, 'give an item and at most a count') })
    .transform((a, ctx) => {
      const count = a.words[1] === undefined ? 1 : Number(a.words[1])
      if (!Number.isInteger(count) || count < 1 || count > MAX_COUNT) {
        ctx.addIssue({ code: 'custom', message: `count must be a whole number from 1 to ${MAX_COUNT}` })
        return z.NEVER
      }
      return { object: a.words[0]!.toLowerCase(), count }
    }),
  minRole: 'trusted',
  mode: 'task',
  async run({ args, services, request, role, signal, progress, taskId }) {
    if (!services.agent) throw new GhostError('internal', 'agent not configured', 'My planner is not running.')
    return services.agent.pursue(args, { request, role, signal, progress, taskId })
  },
})
