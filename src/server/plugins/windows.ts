/**
 * Window handling for every player (src/server/windows/session.ts): replaces flying-squid's window_click handler —
 * which applied every click, whatever the window, to the player inventory — with vanilla menus and vanilla
 * client sync, including the 2×2 crafting grid of the player inventory. The crafting, furnace and chest plugins
 * open their menus through the session this installs. Installed on the player's `asap` event, after all of
 * flying-squid's own player plugins (ours run before its inventory plugin) so its listeners can be replaced.
 */
import type { SquidPlugin } from '../squid.js'
import { installSession } from '../windows/session.js'

const plugin: SquidPlugin = {
  name: 'windows',
  player(player, serv) {
    const p = player as unknown as { once(ev: string, l: () => void): void }
    p.once('asap', () => {
      installSession(player, serv)
    })
  },
}
export default plugin
