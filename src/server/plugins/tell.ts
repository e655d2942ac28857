/**
 * Whispers: `/tell <player> <message>` with the aliases `/msg` and `/w`, as vanilla does it. The recipient gets
 * "<sender> whispers to you: <message>" (the format mineflayer's `whisper` event recognises) and the sender gets
 * "You whisper to <player>: <message>".
 */
import { UserError, type SquidPlugin } from '../squid.js'

const plugin: SquidPlugin = {
  name: 'tell',
  server(serv) {
    serv.commands.add({
      base: 'tell',
      aliases: ['msg', 'w'],
      info: 'send a private message to a player',
      usage: '/tell <player> <message>',
      onlyPlayer: true,
      parse(str) {
        const m = /^(\S+)\s+(.+)$/s.exec(str.trim())
        return m ? { target: m[1], message: m[2] } : false
      },
      action({ target, message }: { target: string; message: string }, ctx) {
        const to = serv.getPlayer(target)
        if (!to) throw new UserError(`No player named ${target} is online`)
        const from = ctx.player!
        to.chat({ translate: 'commands.message.display.incoming', with: [from.username, message], color: 'gray', italic: true })
        from.chat({ translate: 'commands.message.display.outgoing', with: [to.username, message], color: 'gray', italic: true })
      },
    })
  },
}
export default plugin
