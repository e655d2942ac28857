/** `come`: walk to the requester (within 3 blocks). A queued task; `stop` cancels it. */
import { z } from 'zod'
import { defineCommand } from '../src/router/command.js'

export default defineCommand({
  name: 'come',
  aliases: ['here'],
  description: 'walk to you',
  args: z.object({}).passthrough(),
  minRole: 'trusted',
  mode: 'task',
  interactive: true,
  async run({ request, services, signal }) {
    return services.body.come(request.player, signal)
  },
})
