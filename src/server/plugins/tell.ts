/**
 * Whispers: `/tell <player> <message>` with the aliases `/msg` and `/w`, as vanilla does it: the recipient gets a
 * `player_chat` packet of type msg_command_incoming carrying the sender's UUID (shown as "<sender> whispers to you:
 * <message>") and the sender one of type msg_command_outgoing ("You whisper to <player>: <message>"), so a whisper
 * cannot be forged by typing its text. Where player-chat.ts cannot send player_chat, both are system text.
 */
import { UserError, type SquidPlugin } from '../squid.js'
import { playerChatSupported, sendPlayerChat } from './player-chat.js'

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
        if (playerChatSupported(serv)) {
          sendPlayerChat(serv, to, from, message, 'msg_command_incoming')
          sendPlayerChat(serv, from, from, message, 'msg_command_outgoing', to.username)
          return
        }
        to.chat({
          translate: 'commands.message.display.incoming',
          with: [from.username, message],
          color: 'gray',
          italic: true,
        })
        from.chat({
          translate: 'commands.message.display.outgoing',
          with: [to.username, message],
          color: 'gray',
          italic: true,
        })
      },
    })
  },
}
export default plugin
