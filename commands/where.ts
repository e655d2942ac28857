/** `where`: position, surface or underground, biome, time of day, weather and light. Instant. */
import { z } from 'zod'
import { defineCommand } from '../src/router/command.js'

export default defineCommand({
  name: 'where',
  aliases: ['pos'],
  description: 'where I am: position, biome, time, weather, light',
  args: z.object({}).passthrough(),
  minRole: 'guest',
  mode: 'instant',
  async run({ services }) { return services.perception?.describe('where') ?? 'I am not in the world right now.' },
})
