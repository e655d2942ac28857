/**
 * Nothing is broadcast to a player before its login packet, nor after it left. flying-squid adds a joining player to
 * `serv.players` (so to every broadcast near its saved position: block changes, dig animations) while it still loads
 * the player's data, before it writes `login`; and a dig under way keeps broadcasting its animation after the digger
 * left. A play packet that reaches a client before `login` lands before mineflayer has a world (`bot.world`
 * undefined: an uncaught TypeError in its block_break_animation handler, and the reconnect lost; suite I on 639fec7,
 * the bot reconnecting where its old self was digging). Broadcasts (`serv._writeArray`, under every `_writeNearby`
 * and `_writeOthers…`) now skip players not yet sent `login` and players gone.
 */
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid.js'

type WriteArray = (name: string, fields: Record<string, unknown>, players: SquidPlayer[]) => void

const plugin: SquidPlugin = {
  name: 'login-first',
  server(serv: SquidServer) {
    const loggedIn = new WeakSet<SquidPlayer>()
    serv.on('newPlayer', (player: SquidPlayer) => {
      const client = player._client
      const write = client.write.bind(client)
      client.write = (name: string, params: Record<string, unknown>): void => {
        if (name === 'login') loggedIn.add(player)
        write(name, params)
      }
    })
    const writeArray = serv._writeArray as WriteArray
    serv._writeArray = ((name, fields, players) =>
      writeArray(
        name,
        fields,
        players.filter((p) => loggedIn.has(p) && p.disconnected !== true),
      )) satisfies WriteArray
  },
}
export default plugin
