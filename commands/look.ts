/** `look`: what the bot can see right now — blocks in sight, creatures, water and lava. Instant. */
import { z } from 'zod'
import { defineCommand } from '../src/router/command.js'
import { failed, succeeded } from '../src/schemas/task.js'

export default defineCommand({
  name: 'look',
  description: 'what I can see around me',
  args: z.object({}).passthrough(),
  minRole: 'guest',
  mode: 'instant',
  async run({ services }) {
    return services.perception ? succeeded(services.perception.describe('look')) : failed('I cannot see right now.')
  },
})
