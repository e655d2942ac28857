/**
 * The practice world's weather cycle (src/server/plugins/weather.ts) follows vanilla's timers: over simulated days
 * rain comes and goes, each rain spell lasts 12000–24000 ticks, dry spells at least 12000, thunder shows only
 * while it rains, and the same seed gives the same weather.
 */
import { describe, expect, it } from 'vitest'
import {
  advanceWeather,
  weatherFromState,
  weatherRandom,
  type Weather,
  type WeatherState,
} from '../../../src/server/plugins/weather.js'

function simulate(seed: number, ticks: number): Weather[] {
  const s: WeatherState = { clearTime: 0, rainTime: 0, thunderTime: 0, raining: false, thundering: false }
  const rand = weatherRandom(seed)
  const out: Weather[] = []
  for (let t = 0; t < ticks; t += 20) {
    advanceWeather(s, 20, rand)
    out.push(weatherFromState(s))
  }
  return out
}

/** Lengths (in ticks) of the complete runs where `wet(w)` holds and where it does not (the first and last run are cut). */
function spells(ws: Weather[], wet: (w: Weather) => boolean): { wet: number[]; dry: number[] } {
  const changes: number[] = []
  for (let i = 1; i < ws.length; i++) if (wet(ws[i]!) !== wet(ws[i - 1]!)) changes.push(i)
  const res = { wet: [] as number[], dry: [] as number[] }
  for (let k = 1; k < changes.length; k++)
    (wet(ws[changes[k - 1]!]!) ? res.wet : res.dry).push((changes[k]! - changes[k - 1]!) * 20)
  return res
}

describe('weather cycle', () => {
  const days = 24000 * 60
  const ws = simulate(7, days)

  it('rains now and then for 10–20 minutes, with dry spells of at least 10 minutes', () => {
    const { wet, dry } = spells(ws, (w) => w !== 'clear')
    expect(wet.length).toBeGreaterThan(5)
    for (const n of wet) {
      expect(n).toBeGreaterThanOrEqual(12000)
      expect(n).toBeLessThanOrEqual(24020)
    }
    for (const n of dry) expect(n).toBeGreaterThanOrEqual(12000 - 20)
  })

  it('thunders only while raining, and sometimes', () => {
    expect(ws.filter((w) => w === 'thunder').length).toBeGreaterThan(0)
    const share = ws.filter((w) => w !== 'clear').length / ws.length
    expect(share).toBeGreaterThan(0.05)
    expect(share).toBeLessThan(0.5)
  })

  it('is the same for the same seed', () => {
    expect(simulate(7, 24000 * 10)).toEqual(ws.slice(0, (24000 * 10) / 20))
    expect(simulate(8, 24000 * 10)).not.toEqual(ws.slice(0, (24000 * 10) / 20))
  })
})
