/** `memory [stats|list|show <goal>|forget <goal>]`: inspect the shared plan memory. Trusted; forgetting needs owner. */
import { z } from 'zod'
import { defineCommand } from '../src/router/command.js'
import { failed, succeeded } from '../src/schemas/task.js'
import { atLeast } from '../src/schemas/role.js'

export default defineCommand({
  name: 'memory',
  description: 'what I have learned: stats, list, show <goal>, forget <goal>',
  usage: '[stats|list|show <goal>|forget <goal>]',
  args: z.object({ words: z.array(z.string()).max(2) }).transform((a, ctx) => {
    const sub = (a.words[0] ?? 'stats').toLowerCase()
    if (!['stats', 'list', 'show', 'forget'].includes(sub)) {
      ctx.addIssue({ code: 'custom', message: 'use stats, list, show <goal> or forget <goal>' })
      return z.NEVER
    }
    if ((sub === 'show' || sub === 'forget') && !a.words[1]) {
      ctx.addIssue({ code: 'custom', message: `${sub} needs a goal, e.g. ${sub} iron_ingot` })
      return z.NEVER
    }
    return { sub: sub as 'stats' | 'list' | 'show' | 'forget', goal: a.words[1]?.toLowerCase() ?? '' }
  }),
  minRole: 'trusted',
  mode: 'instant',
  async run({ args, services, role }) {
    const m = services.memory
    if (!m) return failed('Memory is not available.')
    switch (args.sub) {
      case 'stats':
        return succeeded(await m.stats())
      case 'list': {
        const l = await m.list(10)
        return succeeded(l.length ? `Goals I remember: ${l.join('; ')}` : 'I remember no plans yet.')
      }
      case 'show':
        return succeeded((await m.show(args.goal)) ?? `I remember nothing about ${args.goal}.`)
      case 'forget': {
        if (!atLeast(role, 'owner')) return failed('Only an owner can make me forget.')
        const n = await m.forget(args.goal)
        return succeeded(
          n > 0 ? `Forgot ${n} record(s) about ${args.goal}.` : `I remembered nothing about ${args.goal}.`,
        )
      }
    }
  },
})
