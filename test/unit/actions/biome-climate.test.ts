/**
 * The climate lead of a biome search (src/actions/biome-climate.ts), from minecraft-data 1.20.2's biome table: how
 * unlike a target a biome's climate is, and which of eight headings the sampled land leads along (or none).
 */
import type { Bot } from 'mineflayer'
import minecraftData from 'minecraft-data'
import { describe, expect, it } from 'vitest'
import { climateGap, climateHeading } from '../../../src/actions/biome-climate.js'

const bot = { registry: minecraftData('1.20.2') } as unknown as Bot
const all = (): boolean => true

describe('climateGap', () => {
  it('puts savanna next to the desert, plains between, and snow and taiga far off', () => {
    const gap = (b: string): number => climateGap(bot, b, ['desert'])!
    expect(gap('desert')).toBe(0)
    expect(gap('savanna')).toBe(0)
    expect(gap('plains')).toBeLessThan(gap('taiga'))
    expect(gap('taiga')).toBeLessThan(gap('snowy_plains'))
    // a forest search: plains are close, the desert is not
    expect(climateGap(bot, 'plains', ['forest'])!).toBeLessThan(climateGap(bot, 'desert', ['forest'])!)
  })

  it('reads the registry a server has sent too, whose keys are namespaced', () => {
    const namespaced = Object.fromEntries(
      Object.entries(minecraftData('1.20.2').biomesByName).map(([k, v]) => [`minecraft:${k}`, v]),
    )
    const served = { registry: { biomesByName: namespaced } } as unknown as Bot
    expect(climateGap(served, 'savanna', ['desert'])).toBe(0)
    expect(climateGap(served, 'taiga', ['desert'])).toBe(climateGap(bot, 'taiga', ['desert']))
  })

  it('knows nothing of an unknown biome', () => {
    expect(climateGap(bot, 'no_such_biome', ['desert'])).toBeNull()
    expect(climateGap(bot, 'plains', ['no_such_biome'])).toBeNull()
  })
})

describe('climateHeading', () => {
  const taiga = climateGap(bot, 'taiga', ['desert'])!
  const plains = climateGap(bot, 'plains', ['desert'])!
  const savanna = climateGap(bot, 'savanna', ['desert'])!
  const flat = Array.from({ length: 8 }, () => [taiga, taiga])

  it('leads toward the heading whose land is nearest the climate', () => {
    const gaps = flat.map((g) => [...g])
    gaps[2] = [plains, plains]
    gaps[5] = [savanna, plains]
    expect(climateHeading(gaps, taiga, all)).toBe(5)
  })

  it('gives no lead when the land looks the same all round, or where a heading is not loaded', () => {
    expect(climateHeading(flat, taiga, all)).toBeNull()
    const unloaded = flat.map(() => [] as number[])
    expect(climateHeading(unloaded, taiga, all)).toBeNull()
  })

  it('never leads back the way the walk has been', () => {
    const gaps = flat.map((g) => [...g])
    gaps[2] = [plains]
    gaps[5] = [savanna]
    expect(climateHeading(gaps, taiga, (i) => i !== 5)).toBe(2)
    expect(climateHeading(gaps, taiga, (i) => i !== 5 && i !== 2)).toBeNull()
  })
})
