/**
 * Weather: `/weather <clear|rain|thunder> [seconds]` sending the game events vanilla sends (flying-squid's command
 * sends them inverted and knows no thunder): rain = game event 1 "start raining" plus rain level 1, thunder also
 * thunder level 1, clear = event 2 "stop raining" with both levels 0. Players who join later get the current
 * weather. An optional duration (seconds) turns the weather back to clear when it ends.
 */
import { UserError, type SquidPlayer, type SquidPlugin, type SquidServer } from '../squid.js'

export type Weather = 'clear' | 'rain' | 'thunder'

function sendWeather(write: (name: string, params: Record<string, unknown>) => void, w: Weather): void {
  const wet = w !== 'clear'
  write('game_state_change', { reason: wet ? 1 : 2, gameMode: 0 })
  write('game_state_change', { reason: 7, gameMode: wet ? 1 : 0 })
  write('game_state_change', { reason: 8, gameMode: w === 'thunder' ? 1 : 0 })
}

/** Current weather of the server (clear until a command changes it). */
export function weatherOf(serv: SquidServer): Weather {
  return (serv.practiceWeather as Weather | undefined) ?? 'clear'
}

const plugin: SquidPlugin = {
  name: 'weather',
  server(serv) {
    let timer: NodeJS.Timeout | undefined
    const setWeather = (w: Weather): void => {
      serv.practiceWeather = w
      for (const p of serv.players) sendWeather((n, d) => p._client.write(n, d), w)
    }
    serv.commands.add({
      base: 'weather',
      info: 'Set the weather',
      usage: '/weather <clear|rain|thunder> [duration seconds]',
      op: true,
      parse(str) { const a = str.trim().split(/\s+/).filter(Boolean); return a.length >= 1 && a.length <= 2 ? { a } : false },
      action({ a }: { a: string[] }, ctx) {
        const w = a[0] as Weather
        if (!['clear', 'rain', 'thunder'].includes(w)) throw new UserError(`Unknown weather '${a[0]}': use clear, rain or thunder`)
        let durationMs: number | undefined
        if (a[1] !== undefined) {
          if (!/^\d+$/.test(a[1]) || Number(a[1]) < 1 || Number(a[1]) > 1_000_000) throw new UserError(`Invalid duration '${a[1]}': seconds between 1 and 1000000`)
          durationMs = Number(a[1]) * 1000
        }
        if (timer) clearTimeout(timer)
        timer = undefined
        setWeather(w)
        if (durationMs !== undefined && w !== 'clear') {
          timer = setTimeout(() => setWeather('clear'), durationMs)
          timer.unref()
        }
        const text = w === 'clear' ? 'Set the weather to clear' : w === 'rain' ? 'Set the weather to rain' : 'Set the weather to rain & thunder'
        if (ctx.player) ctx.player.chat(text); else serv.info(text)
      },
    })
  },
  player(player: SquidPlayer, serv) {
    player.on('spawned', () => {
      const w = weatherOf(serv)
      if (w !== 'clear') sendWeather((n, d) => player._client.write(n, d), w)
    })
  },
}
export default plugin
