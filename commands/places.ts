/** `places`: the named places of this server, with who saved them. Instant. */
import { z } from 'zod'
import { defineCommand } from '../src/router/command.js'
import { NO_PLACES } from '../src/router/services.js'
import { failed, succeeded } from '../src/schemas/task.js'

export default defineCommand({
  name: 'places',
  description: 'list the named places',
  args: z.object({}).passthrough(),
  minRole: 'guest',
  mode: 'instant',
  async run({ services }) {
    if (!services.places) return failed(NO_PLACES)
    const all = await services.places.list()
    return succeeded(
      all.length
        ? all.map((p) => `${p.name}: ${p.x} ${p.y} ${p.z} (${p.owner})`).join('; ')
        : 'No named places yet; say "remember this place as base".',
    )
  },
})
