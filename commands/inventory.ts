/** `inventory`: what the bot carries, totals per item. Instant. */
import { z } from 'zod'
import { defineCommand } from '../src/router/command.js'

export default defineCommand({
  name: 'inventory',
  aliases: ['inv'],
  description: 'what I carry',
  args: z.object({}).passthrough(),
  minRole: 'guest',
  mode: 'instant',
  async run({ services }) {
    const items = services.body.inventory()
    if (items.length === 0) return 'My inventory is empty.'
    return `I carry: ${items.map((i) => `${i.count} ${i.name}`).join(', ')}.`
  },
})
