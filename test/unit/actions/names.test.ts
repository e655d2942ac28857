/**
 * Unit tests of action name resolution against the real 1.20.2 registry (prismarine-registry, no server): block or
 * drop targets for mining, groups such as `log`, entities, and `invalid` with a did-you-mean for unknown names.
 */
import { describe, expect, it } from 'vitest'
import type { Bot } from 'mineflayer'
import registryFor from 'prismarine-registry'
import blockLoader from 'prismarine-block'
import { blockTarget, harvestedBy, inBiome, resolveItem, resolveTarget } from '../../../src/actions/names.js'
import { ActionFailure } from '../../../src/actions/types.js'
import { blueprintNames, loadBlueprint } from '../../../src/actions/build.js'

// only `registry` and `version` are read by names.ts
const bot = { registry: registryFor('1.20.2'), version: '1.20.2' } as unknown as Bot

describe('action names', () => {
  it('harvestedBy: stone and sandstone need a pickaxe, dirt drops by hand', () => {
    const Block = blockLoader(bot.registry)
    const block = (name: string) => Block.fromStateId(bot.registry.blocksByName[name]!.defaultState, 0)
    const id = (name: string) => bot.registry.itemsByName[name]!.id
    expect(harvestedBy(block('stone'), [])).toBe(false)
    expect(harvestedBy(block('sandstone'), [id('dirt'), id('wooden_axe')])).toBe(false)
    expect(harvestedBy(block('sandstone'), [id('dirt'), id('wooden_pickaxe')])).toBe(true)
    expect(harvestedBy(block('dirt'), [])).toBe(true)
    expect(harvestedBy(block('iron_ore'), [id('wooden_pickaxe')])).toBe(false)
    expect(harvestedBy(block('iron_ore'), [id('stone_pickaxe')])).toBe(true)
  })

  it('mines by block (iron_ore → raw_iron) or by drop (cobblestone ← stone)', () => {
    expect(blockTarget(bot, 'iron_ore')?.wanted).toEqual(['raw_iron'])
    const cobble = blockTarget(bot, 'cobblestone')!
    expect(cobble.blockNames).toEqual(expect.arrayContaining(['stone', 'cobblestone']))
    expect(cobble.wanted).toEqual(['cobblestone'])
    expect(blockTarget(bot, 'raw_iron')?.blockNames).toEqual(expect.arrayContaining(['iron_ore', 'deepslate_iron_ore']))
    expect(blockTarget(bot, 'log')?.blockNames).toEqual(expect.arrayContaining(['oak_log', 'birch_log']))
  })

  it('finds plants and other shapeless blocks named exactly (grass, poppy, sugar_cane), groups stay solid', () => {
    for (const name of ['grass', 'poppy', 'sugar_cane']) {
      const t = resolveTarget(bot, name)
      expect(t.kind).toBe('block')
      if (t.kind === 'block') expect(t.block.blockNames).toContain(name)
    }
    expect(
      blockTarget(bot, 'log')?.blockNames.every((n) => bot.registry.blocksByName[n]!.boundingBox === 'block'),
    ).toBe(true)
  })

  it('resolves entities before blocks and rejects unknown names with a did-you-mean', () => {
    expect(resolveTarget(bot, 'cow')).toEqual({ kind: 'entity', names: ['cow'] })
    expect(resolveTarget(bot, 'Oak Log').kind).toBe('block')
    try {
      resolveItem(bot, 'iron_ingott')
      expect.unreachable()
    } catch (err) {
      expect(err).toBeInstanceOf(ActionFailure)
      expect((err as ActionFailure).reason).toBe('invalid')
      expect((err as ActionFailure).message).toMatch(/did you mean iron_ingot/)
    }
  })

  it('resolves every biome of the registry by its own name, families by a word, plurals without their s', () => {
    // "plains" and "badlands" end in s and are names of their own (a plural strip made them unknown)
    for (const biome of Object.values(bot.registry.biomes)) {
      const t = resolveTarget(bot, biome.name) // throws `invalid` for an unknown name
      if (t.kind === 'biome') expect(t.names).toContain(biome.name)
    }
    expect(resolveTarget(bot, 'plains')).toEqual({ kind: 'biome', names: ['plains'] })
    expect(resolveTarget(bot, 'forests')).toEqual({ kind: 'biome', names: ['forest'] })
    const peaks = resolveTarget(bot, 'peaks') // a family whose word ends in s
    expect(peaks.kind === 'biome' && peaks.names).toEqual(expect.arrayContaining(['jagged_peaks', 'stony_peaks']))
  })

  it('says whether the bot stands in a named biome by the same rule the search walks by', () => {
    expect(inBiome(bot, 'plains', 'plains')).toBe(true)
    expect(inBiome(bot, 'plains', 'snowy_plains')).toBe(false) // a word inside another name is not that biome
    expect(inBiome(bot, 'forests', 'forest')).toBe(true)
    expect(inBiome(bot, 'peaks', 'stony_peaks')).toBe(true) // a family, as explore searches it
    expect(inBiome(bot, 'atlantis', 'ocean')).toBe(false)
  })

  it('ships the three blueprints with valid block names', () => {
    expect(blueprintNames()).toEqual(expect.arrayContaining(['farm_plot', 'pillar', 'shelter']))
    for (const name of blueprintNames()) {
      const bp = loadBlueprint(name)!
      for (const b of bp.blocks) expect(bot.registry.blocksByName[b.block], `${name}: ${b.block}`).toBeDefined()
    }
    expect(loadBlueprint('../package')).toBeNull()
  })
})
