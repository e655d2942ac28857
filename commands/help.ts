/** `help [command]`: lists the commands the asker may use, or details one command. Answers at once, even while busy. */
import { z } from 'zod'
import { defineCommand } from '../src/router/command.js'
import { atLeast } from '../src/schemas/role.js'
import { failed, succeeded } from '../src/schemas/task.js'

export default defineCommand({
  name: 'help',
  aliases: ['commands', '?'],
  description: 'list what I can do, or explain one command',
  usage: '[command]',
  args: z
    .object({ words: z.array(z.string()).max(1, 'give at most one command name') })
    .transform((a) => ({ topic: a.words[0]?.toLowerCase() })),
  minRole: 'guest',
  mode: 'instant',
  async run({ args, role, commands: list }) {
    if (args.topic) {
      const c = list.find((x) => x.name === args.topic || x.aliases?.includes(args.topic!))
      if (!c) return failed(`No command "${args.topic}". Say "help" for the list.`)
      return succeeded(`${c.name} ${c.usage ?? ''} — ${c.description} (needs ${c.minRole})`.replace(/\s+—/, ' —'))
    }
    const mine = list.filter((c) => atLeast(role, c.minRole)).map((c) => c.name)
    return succeeded(
      `Commands for you (${role}): ${mine.join(', ')}. Say "help <command>" for details, or just tell me what you need.`,
    )
  },
})
