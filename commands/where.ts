/** `where`: position (rounded to 100 blocks for guests), surface or underground, biome, time of day, weather and light. Instant. */
import { z } from 'zod'
import { defineCommand } from '../src/router/command.js'
import { failed, succeeded } from '../src/schemas/task.js'

export default defineCommand({
  name: 'where',
  aliases: ['pos'],
  description: 'where I am: position, biome, time, weather, light',
  args: z.object({}).passthrough(),
  minRole: 'guest',
  mode: 'instant',
  async run({ services, role }) {
    if (!services.perception) return failed('I am not in the world right now.')
    const text = services.perception.describe('where')
    // Guests may be anyone on the server: coordinates rounded to 100 blocks, never exact (the owner's base).
    return succeeded(
      role === 'guest'
        ? text.replace(
            /^At (-?[\d.]+) (-?[\d.]+) (-?[\d.]+)/,
            (_m, x: string, _y: string, z: string) =>
              `Around ${Math.round(Number(x) / 100) * 100} ~ ${Math.round(Number(z) / 100) * 100}`,
          )
        : text,
    )
  },
})
