/** `stop`: cancels the current task at once (and the asker's waiting tasks). Instant, so it preempts the queue. */
import { z } from 'zod'
import { defineCommand } from '../src/router/command.js'
import { failed, succeeded } from '../src/schemas/task.js'
import { atLeast } from '../src/schemas/role.js'

export default defineCommand({
  name: 'stop',
  aliases: ['cancel', 'halt'],
  description: 'stop what I am doing now',
  args: z.object({}).passthrough(),
  minRole: 'guest',
  mode: 'instant',
  async run({ request, role, services }) {
    const cur = services.queue.current()
    if (!cur) {
      // off the server, a paused task waits rather than runs: stopping drops it
      const dropped = services.queue.clear(request.player)
      return succeeded(
        dropped > 0 ? `Nothing is running; dropped ${dropped} of your waiting task(s).` : 'Nothing to stop.',
      )
    }
    if (cur.player !== request.player && !atLeast(role, 'trusted'))
      return failed(`That task belongs to ${cur.player}; only they or a trusted player can stop it.`)
    services.queue.stopCurrent()
    const dropped = services.queue.clear(request.player)
    return succeeded(dropped > 0 ? `Stopping; also dropped ${dropped} of your waiting task(s).` : 'Stopping.')
  },
})
