/** `help [command]`: lists the commands the asker may use, or details one command. Answers at once, even while busy. */
import { z } from 'zod'
import { defineCommand } from '../src/router/command.js'
import { atLeast } from '../src/router/request.js'
import { all } from './index.js'

export default defineCommand({
  name: 'help',
  aliases: ['commands', '?'],
  description: 'list what I can do, or explain one command',
  usage: '[command]',
  args: z.object({ words: z.array(z.string()).max(1, 'give at most one command name') }).transform((a) => ({ topic: a.words[0]?.toLowerCase() })),
  minRole: 'guest',
  mode: 'instant',
  async run({ args, role }) {
    const list = all()
    if (args.topic) {
      const c = list.find((x) => x.name === args.topic || x.aliases?.includes(args.topic!))
      if (!c) return `No command "${args.topic}". Say "help" for the list.`
      return `${c.name} ${c.usage ?? ''} — ${c.description} (needs ${c.minRole})`.replace(/\s+—/, ' —')
    }
    const mine = list.filter((c) => atLeast(role, c.minRole)).map((c) => c.name)
    return `Commands for you (${role}): ${mine.join(', ')}. Say "help <command>" for details, or just tell me what you need.`
  },
})
