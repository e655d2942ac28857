/**
 * The practice server's record of commands received: every command a player sends (chat commands, `/tell` included)
 * is emitted on the server as `ghost:command` `{ player, command, at }`; the child process forwards it to the parent
 * (src/server/child.ts → ServerHandle.commands), so a test can prove the bot never ran `/op` or any other command
 * it was talked into.
 */
import type { SquidPlugin } from '../squid.js'

export interface CommandRecord {
  player: string
  command: string
  at: number
}

const plugin: SquidPlugin = {
  name: 'command-log',
  player(player, serv) {
    player.on('command', (data: { command?: unknown }) => {
      const record: CommandRecord = { player: player.username, command: String(data?.command ?? ''), at: Date.now() }
      serv.emit('ghost:command', record)
    })
  },
}
export default plugin
