/** `status`: health, food, position, dimension, the current task and its progress, queue length, LLM usage. Instant. */
import { z } from 'zod'
import { defineCommand } from '../src/router/command.js'
import { succeeded } from '../src/schemas/task.js'

export default defineCommand({
  name: 'status',
  description: 'my health, food, position, current task and progress',
  args: z.object({}).passthrough(),
  minRole: 'guest',
  mode: 'instant',
  async run({ services, role }) {
    const s = services.body.status()
    // Guests may be anyone on the server: no exact coordinates for them (they could find the owner's base).
    const at = role === 'guest' ? '' : ` at ${s.position?.x} ${s.position?.y} ${s.position?.z}`
    const parts: string[] = []
    if (!s.connected) parts.push('Not connected (reconnecting).')
    else parts.push(`Health ${s.health}/20, food ${s.food}/20${at} in the ${s.dimension}.`)
    const cur = services.queue.current()
    if (cur) {
      const secs = Math.round((Date.now() - cur.startedAt) / 1000)
      parts.push(`Working on "${cur.command}" for ${cur.player} (${secs}s)${cur.progress ? `: ${cur.progress}` : ''}.`)
    } else parts.push('Idle.')
    const waiting = services.queue.pending().length
    if (waiting > 0) parts.push(`${waiting} waiting.`)
    const memory = services.memory?.health()
    if (memory) parts.push(memory)
    const usage = services.agent?.usageLine?.()
    if (usage) parts.push(usage)
    return succeeded(parts.join(' '))
  },
})
