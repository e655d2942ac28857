/**
 * Silk Touch through an enchanting table: the exact per-attempt chance against a literal simulation of the vanilla
 * selection loop, experience arithmetic, and the decomposer + dry-run world planning silk-only blocks (GITM's
 * mushroom blocks) with the table, bookshelves, fresh tools, lapis and experience they really need.
 */
import { describe, expect, it } from 'vitest'
import { SUPPORTED_VERSIONS } from '../../../src/versions.js'
import { createKnowledge, runDryRun } from '../../../src/knowledge/index.js'
import { enchantChance, experienceFor, pointsForLevel } from '../../../src/knowledge/enchanting.js'
import type { SubGoal } from '../../../src/schemas/subgoal.js'
import { mulberry32, type Rng } from '../../../src/util/random.js'

describe.each(SUPPORTED_VERSIONS)('Minecraft %s', (version) => {
  const k = createKnowledge(version)
  const mc = k.data.mc

  /** EnchantmentHelper.selectEnchantment written out as the game runs it, one random draw at a time. */
  function simulate(rng: Rng, item: string, enchantability: number, level: number): string[] {
    const nextInt = (n: number): number => Math.floor(rng() * n)
    let l = level + 1 + nextInt(Math.floor(enchantability / 4) + 1) + nextInt(Math.floor(enchantability / 4) + 1)
    const f = (rng() + rng() - 1) * 0.15
    l = Math.max(1, Math.floor(l + l * f + 0.5))
    const cats = mc.itemsByName[item]?.enchantCategories ?? []
    let list = mc.enchantmentsArray
      .filter((e) => !e.treasureOnly && e.discoverable && cats.includes(e.category))
      .filter((e) => {
        for (let v = e.maxLevel; v >= 1; v--)
          if (l >= (e.minCost.a ?? 0) * v + (e.minCost.b ?? 0) && l <= (e.maxCost.a ?? 0) * v + (e.maxCost.b ?? 0))
            return true
        return false
      })
    const pick = (): (typeof list)[number] | undefined => {
      let r = nextInt(list.reduce((s, e) => s + e.weight, 0))
      for (const e of list) {
        r -= e.weight
        if (r < 0) return e
      }
      return undefined
    }
    const out: string[] = []
    const first = pick()
    if (!first) return out
    out.push(first.name)
    let last = first
    while (nextInt(50) <= l) {
      list = list.filter(
        (e) => e.name !== last.name && !e.exclude.includes(last.name) && !last.exclude.includes(e.name),
      )
      const e = pick()
      if (!e) break
      out.push(e.name)
      last = e
      l = Math.floor(l / 2)
    }
    return out
  }

  describe('enchanting odds', () => {
    it('matches a literal simulation of the vanilla selection loop', () => {
      const rng = mulberry32(7)
      for (const [tool, ea, level] of [
        ['wooden_shovel', 15, 30],
        ['diamond_pickaxe', 10, 30],
        ['golden_axe', 22, 12],
      ] as const) {
        const n = 60_000
        let hits = 0
        for (let i = 0; i < n; i++) if (simulate(rng, tool, ea, level).includes('silk_touch')) hits++
        const exact = enchantChance(mc, tool, ea, level, 'silk_touch')
        expect(Math.abs(hits / n - exact)).toBeLessThan(0.006)
      }
    })
    it('is zero where the level can never reach Silk Touch or the item cannot take it', () => {
      expect(enchantChance(mc, 'stone_pickaxe', 5, 1, 'silk_touch')).toBe(0)
      expect(enchantChance(mc, 'wooden_sword', 15, 30, 'silk_touch')).toBe(0)
      expect(enchantChance(mc, 'diamond_pickaxe', 10, 30, 'silk_touch')).toBeGreaterThan(0.1)
    })
    it('counts experience points the Java way', () => {
      expect(pointsForLevel(15)).toBe(315)
      expect(pointsForLevel(27)).toBe(1089)
      expect(pointsForLevel(30)).toBe(1395)
      expect(experienceFor(30, 3, 1)).toBe(1395)
      expect(experienceFor(30, 3, 3)).toBe(1395 + 2 * 306)
    })
  })

  type Of<K extends SubGoal['kind']> = Extract<SubGoal, { kind: K }>
  const find = <K extends SubGoal['kind']>(steps: SubGoal[], kind: K, object?: string): Of<K> | undefined =>
    steps.find((s): s is Of<K> => s.kind === kind && (object === undefined || s.goal.object === object))

  describe('silk-only blocks', () => {
    const d = k.decompose({ object: 'brown_mushroom_block', count: 1 })
    if (!d.ok) throw new Error(d.reason)

    it('plans a mushroom block through an enchanting table, and the dry run accepts it', () => {
      const mine = find(d.steps, 'mine', 'brown_mushroom_block')!
      expect(mine.mine.tool).toMatch(/^(wooden|stone|iron|golden|diamond)_(shovel|pickaxe|axe|hoe)\+silk_touch$/)
      const enchant = find(d.steps, 'enchant')!
      expect(enchant.goal.object).toBe(mine.mine.tool)
      expect(enchant.enchant.attempts).toBe(Math.ceil(1 / enchant.enchant.chance))
      expect(enchant.enchant.lapis).toBe(3 * enchant.enchant.attempts)
      expect(enchant.enchant.experience).toBe(experienceFor(30, 3, enchant.enchant.attempts))
      // post-order: everything the enchant consumes is made before it, the mine step comes after it
      const idx = (s: SubGoal | undefined): number => d.steps.indexOf(s!)
      for (const needed of ['enchanting_table', 'bookshelf', enchant.enchant.tool])
        expect(idx(find(d.steps, 'craft', needed))).toBeLessThan(idx(enchant))
      expect(idx(find(d.steps, 'mine', 'lapis_lazuli'))).toBeLessThan(idx(enchant))
      const xp = find(d.steps, 'hunt', 'experience')!
      expect(xp.hunt.kills * k.sources.experienceOf(xp.hunt.mob)).toBeGreaterThanOrEqual(enchant.enchant.experience)
      expect(idx(enchant)).toBeLessThan(idx(mine))
      expect(find(d.steps, 'craft', 'bookshelf')!.craft.runs).toBe(15)
      const run = runDryRun(k, d.steps, d.goal)
      expect(run.message).toBe('goal reached')
      expect(run.inventory.brown_mushroom_block).toBe(1)
    })

    it('uses a Silk Touch tool already held', () => {
      const tool = find(d.steps, 'mine', 'brown_mushroom_block')!.mine.tool!
      const held = k.decompose({ object: 'brown_mushroom_block', count: 2 }, { [tool]: 1 })
      expect(held.ok && held.steps.map((s) => `${s.kind} ${s.goal.object}`)).toEqual(['mine brown_mushroom_block'])
    })

    it('needs a silk tool of the harvest tier for ores', () => {
      const ore = k.decompose({ object: 'iron_ore', count: 1 })
      const mine = ore.ok ? find(ore.steps, 'mine', 'iron_ore') : undefined
      expect(mine?.mine.blocks).toEqual(['iron_ore'])
      for (const t of mine?.mine.acceptableTools ?? ['none'])
        expect(t).toMatch(/^(stone|iron|diamond|netherite)_pickaxe\+silk_touch$/)
      expect(k.decompose({ object: 'spawner' }).ok).toBe(false)
      expect(k.impossibleReason('spawner')).toMatch(/even with Silk Touch/)
    })

    it('fails an enchant step with too few attempts, no bookshelves or too little experience', () => {
      const i = d.steps.findIndex((s) => s.kind === 'enchant')
      const e = d.steps[i] as Of<'enchant'>
      const before = runDryRun(k, d.steps.slice(0, i), d.goal).inventory
      const one = (step: SubGoal, inv: Record<string, number>): ReturnType<typeof runDryRun> =>
        runDryRun(k, [step], { object: e.goal.object, count: 1 }, { inventory: inv })
      expect(one(e, before).ok).toBe(true)
      const few = one({ ...e, enchant: { ...e.enchant, attempts: 1 } }, before)
      expect([few.reason, few.message]).toEqual(['invalid', expect.stringMatching(/attempts on average/)])
      const noShelves = one(e, { ...before, bookshelf: 0 })
      expect([noShelves.reason, noShelves.message]).toEqual(['missing_tool', expect.stringMatching(/15 bookshelf/)])
      const lowXp = one(e, { ...before, experience: e.enchant.experience - 1 })
      expect([lowXp.reason, lowXp.message]).toEqual(['missing_materials', expect.stringMatching(/1 experience/)])
    })
  })
})
