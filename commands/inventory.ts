/** `inventory`: what the bot carries, totals per item. Instant. */
import { z } from 'zod'
import { defineCommand } from '../src/router/command.js'
import { succeeded } from '../src/schemas/task.js'

export default defineCommand({
  name: 'inventory',
  aliases: ['inv'],
  description: 'what I carry',
  args: z.object({}).passthrough(),
  minRole: 'guest',
  mode: 'instant',
  async run({ services }) {
    const items = services.body.inventory()
    if (items.length === 0) return succeeded('My inventory is empty.')
    return succeeded(`I carry: ${items.map((i) => `${i.count} ${i.name}`).join(', ')}.`)
  },
})
