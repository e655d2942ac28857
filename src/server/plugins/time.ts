/**
 * `/time set <day|noon|night|midnight|ticks>`, `/time add <ticks>` and `/time query <daytime|gametime|day>`, as
 * vanilla names them (flying-squid's own command knows neither noon nor midnight). The time itself is flying-squid's
 * `serv.time` (advanced by its day cycle and sent with `serv.setTime`); `isNight(serv)` is shared with the mob
 * plugins that care whether it is dark.
 */
import { DAY_TICKS, dayTime } from '../../util/daytime.js'
import { UserError, type SquidPlugin, type SquidServer } from '../squid.js'

const NAMED: Record<string, number> = { day: 1000, noon: 6000, night: 13000, midnight: 18000 }

/** Vanilla's time of day in [0, DAY_TICKS). */
export function timeOfDay(serv: SquidServer): number {
  return dayTime(Number(serv.time))
}

/** Night as hostile mobs see it: between dusk (13000) and dawn (23000). */
export function isNight(serv: SquidServer): boolean {
  const t = timeOfDay(serv)
  return t >= 13000 && t < 23000
}

function parseTicks(raw: string | undefined): number {
  if (raw === undefined) throw new UserError('Expected a time: day, noon, night, midnight or a number of ticks')
  if (raw in NAMED) return NAMED[raw]!
  const m = /^(\d+(?:\.\d+)?)([dst]?)$/.exec(raw)
  if (!m) throw new UserError(`Invalid time '${raw}': use day, noon, night, midnight or a number of ticks`)
  const n = Number(m[1])
  return Math.floor(m[2] === 'd' ? n * DAY_TICKS : m[2] === 's' ? n * 20 : n)
}

const plugin: SquidPlugin = {
  name: 'time',
  server(serv) {
    const setTime = (t: number): void => (serv.setTime as (t: number) => void)(dayTime(t))
    serv.commands.add({
      base: 'time',
      info: 'Change or query the time of day',
      usage: '/time <set|add|query> <value>',
      op: true,
      parse(str) {
        const a = str.trim().split(/\s+/).filter(Boolean)
        return a.length >= 1 && a.length <= 2 ? { a } : false
      },
      action({ a }: { a: string[] }, ctx) {
        const say = (text: string): void => {
          if (ctx.player) ctx.player.chat(text)
          else serv.info(text)
        }
        const [verb, value] = a
        if (verb === 'set') {
          const t = parseTicks(value)
          setTime(t)
          say(`Set the time to ${t}`)
        } else if (verb === 'add') {
          const t = parseTicks(value)
          setTime(timeOfDay(serv) + t)
          say(`Set the time to ${timeOfDay(serv)}`)
        } else if (verb === 'query') {
          const what = value ?? 'daytime'
          if (what === 'daytime' || what === 'gametime') say(`The time is ${timeOfDay(serv)}`)
          else if (what === 'day') say('The time is 0')
          else throw new UserError(`Unknown query '${what}': use daytime, gametime or day`)
        } else throw new UserError(`Unknown time action '${verb}': use set, add or query`)
      },
    })
  },
}
export default plugin
