/** `forget <place>`: delete a named place (only the player who saved it, or an owner). `places` lists them. Instant. */
import { z } from 'zod'
import { defineCommand } from '../src/router/command.js'
import { NO_PLACES } from '../src/router/services.js'
import { atLeast } from '../src/schemas/role.js'
import { failed } from '../src/schemas/task.js'

export default defineCommand({
  name: 'forget',
  description: 'forget a named place',
  usage: '<place>',
  args: z.object({ rest: z.string().min(1, 'say which place') }),
  minRole: 'trusted',
  mode: 'instant',
  async run({ args, request, role, services }) {
    if (!services.places) return failed(NO_PLACES)
    return services.places.forget(args.rest.replace(/^(?:the|my|our)\s+/i, ''), request.player, atLeast(role, 'owner'))
  },
})
