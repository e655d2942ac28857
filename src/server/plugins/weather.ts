/**
 * Weather: vanilla 1.20's weather cycle and `/weather <clear|rain|thunder> [seconds]`, sending the game events
 * vanilla sends (flying-squid's command sends them inverted and knows no thunder): rain = game event 1 "start
 * raining" plus rain level 1, thunder also thunder level 1, clear = event 2 "stop raining" with both levels 0.
 * The cycle follows ServerLevel.advanceWeatherCycle: rain and thunder each toggle when their timer runs out — rain
 * lasts 12000–24000 ticks (10–20 min) after 12000–180000 dry ticks, thunder 3600–15600 ticks after 12000–180000
 * ticks, and it only shows while it rains — drawn from a generator seeded by the world seed. `/weather` works like
 * vanilla's: the weather for the given seconds (default 300), then the cycle resumes. The cycle advances 20 ticks a
 * second; `practice: { weatherCycle: false }` switches it off (weather then changes only by command). Players who
 * join later get the current weather.
 */
import { UserError, type SquidPlayer, type SquidPlugin, type SquidServer } from '../squid.js'
import { practiceOptions } from '../mobs/practice.js'

export type Weather = 'clear' | 'rain' | 'thunder'

/** Vanilla's weather state, in ticks. */
export interface WeatherState {
  clearTime: number
  rainTime: number
  thunderTime: number
  raining: boolean
  thundering: boolean
}

const uniform = (rand: () => number, lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1))

/** A small deterministic generator (mulberry32) so a seed gives the same weather. */
export function weatherRandom(seed: number): () => number {
  let a = (seed * 0x9e3779b1) >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Advance the state by `ticks` ticks (vanilla's per-tick rules, applied tick by tick). */
export function advanceWeather(s: WeatherState, ticks: number, rand: () => number): void {
  for (let i = 0; i < ticks; i++) {
    if (s.clearTime > 0) {
      s.clearTime--
      s.thunderTime = s.thundering ? 0 : 1
      s.rainTime = s.raining ? 0 : 1
      s.thundering = false
      s.raining = false
      continue
    }
    if (s.thunderTime > 0) {
      if (--s.thunderTime === 0) s.thundering = !s.thundering
    } else s.thunderTime = s.thundering ? uniform(rand, 3600, 15600) : uniform(rand, 12000, 180000)
    if (s.rainTime > 0) {
      if (--s.rainTime === 0) s.raining = !s.raining
    } else s.rainTime = s.raining ? uniform(rand, 12000, 24000) : uniform(rand, 12000, 180000)
  }
}

export function weatherFromState(s: WeatherState): Weather {
  return !s.raining ? 'clear' : s.thundering ? 'thunder' : 'rain'
}

function sendWeather(write: (name: string, params: Record<string, unknown>) => void, w: Weather): void {
  const wet = w !== 'clear'
  write('game_state_change', { reason: wet ? 1 : 2, gameMode: 0 })
  write('game_state_change', { reason: 7, gameMode: wet ? 1 : 0 })
  write('game_state_change', { reason: 8, gameMode: w === 'thunder' ? 1 : 0 })
}

/** Current weather of the server. */
export function weatherOf(serv: SquidServer): Weather {
  return (serv.practiceWeather as Weather | undefined) ?? 'clear'
}

/** Set the state as vanilla's `/weather` does, for `ticks` ticks. */
function commandWeather(s: WeatherState, w: Weather, ticks: number): void {
  s.clearTime = w === 'clear' ? ticks : 0
  s.rainTime = w === 'clear' ? 0 : ticks
  s.thunderTime = w === 'thunder' ? ticks : 0
  s.raining = w !== 'clear'
  s.thundering = w === 'thunder'
}

function parseDuration(arg: string | undefined): number {
  if (arg === undefined) return 300
  if (!/^\d+$/.test(arg) || Number(arg) < 1 || Number(arg) > 1_000_000)
    throw new UserError(`Invalid duration '${arg}': seconds between 1 and 1000000`)
  return Number(arg)
}

const plugin: SquidPlugin = {
  name: 'weather',
  server(serv) {
    const options = practiceOptions(serv, plugin.name)
    const state: WeatherState = { clearTime: 0, rainTime: 0, thunderTime: 0, raining: false, thundering: false }
    const rand = weatherRandom(Number(options.seed ?? 1))
    const publish = (force = false): void => {
      const w = weatherFromState(state)
      if (w === weatherOf(serv) && !force) return
      serv.practiceWeather = w
      for (const p of serv.players) sendWeather((n, d) => p._client.write(n, d), w)
    }
    const cycle = options.weatherCycle !== false
    const timer = setInterval(() => {
      if (cycle) advanceWeather(state, 20, rand)
      else if (state.clearTime + state.rainTime > 0) {
        state.clearTime = Math.max(0, state.clearTime - 20)
        state.rainTime = Math.max(0, state.rainTime - 20)
        if (state.rainTime === 0) commandWeather(state, 'clear', 0)
      }
      publish()
    }, 1000)
    timer.unref()
    serv.commands.add({
      base: 'weather',
      info: 'Set the weather',
      usage: '/weather <clear|rain|thunder> [duration seconds]',
      op: true,
      parse(str) {
        const a = str.trim().split(/\s+/).filter(Boolean)
        return a.length >= 1 && a.length <= 2 ? { a } : false
      },
      action({ a }: { a: string[] }, ctx) {
        const w = a[0] as Weather
        if (!['clear', 'rain', 'thunder'].includes(w))
          throw new UserError(`Unknown weather '${a[0]}': use clear, rain or thunder`)
        const seconds = parseDuration(a[1])
        commandWeather(state, w, seconds * 20)
        if (!cycle && a[1] === undefined) state.clearTime = state.rainTime = state.thunderTime = 0 // no cycle: stays until changed
        publish(true)
        const text =
          w === 'clear'
            ? 'Set the weather to clear'
            : w === 'rain'
              ? 'Set the weather to rain'
              : 'Set the weather to rain & thunder'
        if (ctx.player) ctx.player.chat(text)
        else serv.info(text)
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
