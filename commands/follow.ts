/** `follow <player>`: follow a player until `stop`. A queued task. */
import { z } from 'zod'
import { defineCommand } from '../src/router/command.js'

export default defineCommand({
  name: 'follow',
  description: 'follow a player until you say stop',
  usage: '<player>',
  args: z
    .object({
      words: z.array(z.string().regex(/^[A-Za-z0-9_]{1,16}$/, 'a player name')).length(1, 'name exactly one player'),
    })
    .transform((a) => ({ player: a.words[0]! })),
  minRole: 'trusted',
  mode: 'task',
  async run({ args, request, services, signal }) {
    await request.reply(`Following ${args.player}. Say "stop" to end it.`)
    return services.body.follow(args.player, signal)
  },
})
