/**
 * A notice told to every player when they join, for `noticeMs` after the server started: the restart keeper
 * (src/server/process.ts `keepServerRunning`) passes `practice: { notice, noticeMs }` when it restarts a practice
 * server that died, so players (and the bot, whose reconnect is a join) learn what happened to the world.
 */
import type { SquidPlugin } from '../squid.js'
import { practiceOptions } from '../mobs/practice.js'

const plugin: SquidPlugin = {
  name: 'notice',
  server(serv) {
    const o = practiceOptions(serv, plugin.name)
    serv.practiceNoticeUntil = Date.now() + Number(o.noticeMs ?? 600_000)
  },
  player(player, serv) {
    const o = practiceOptions(serv, plugin.name)
    const notice = typeof o.notice === 'string' ? o.notice : ''
    if (!notice) return
    player.on('spawned', () => {
      if (Date.now() <= Number(serv.practiceNoticeUntil)) player.chat(notice)
    })
  },
}
export default plugin
