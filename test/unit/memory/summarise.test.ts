/**
 * The offline plan merge and the local embedder: deterministic, keeps steps common to all plans, drops lucky and
 * repeated steps; similar goal texts embed close together.
 */
import { describe, expect, it } from 'vitest'
import { cosine, hashEmbed, mergePlans, stepKey } from '../../../src/memory/index.js'
import { attack, craft, explore, mine } from './helpers.js'

describe('mergePlans', () => {
  const core = [mine('iron_ore', 3), craft('iron_ingot', 3, 'furnace')]
  it('keeps common steps, majority steps, and drops lucky and repeated ones', () => {
    const plans = [
      [explore('iron_ore'), attack('skeleton'), ...core],
      [explore('iron_ore'), explore('iron_ore'), mine('coal_ore', 1), ...core],
      [mine('coal_ore', 1), ...core],
      [explore('iron_ore'), mine('coal_ore', 1), ...core],
      [explore('iron_ore'), mine('coal_ore', 2), mine('dirt', 4), ...core],
    ]
    const merged = mergePlans(plans)
    // Shortest plan with all common steps is plans[2]; coal (4 of 5) is kept, skeleton/dirt never reach it.
    expect(merged).toEqual([mine('coal_ore', 1), ...core])
    expect(mergePlans(plans)).toEqual(merged)
    const withRepeats = [
      [explore('iron_ore'), explore('iron_ore'), ...core],
      [explore('iron_ore'), ...core, attack('zombie')],
    ]
    expect(mergePlans(withRepeats)).toEqual([explore('iron_ore'), ...core])
  })

  it('prefers a shorter previous reference that still holds every common step', () => {
    const plans = [
      [explore('stone'), mine('dirt', 1), ...core],
      [explore('stone'), mine('sand', 1), ...core],
    ]
    expect(mergePlans(plans, [explore('stone'), ...core])).toEqual([explore('stone'), ...core])
    // The previous reference lacks a common step, so it is not a candidate; dirt (1 of 2 plans) is dropped.
    expect(mergePlans(plans, [...core])).toEqual([explore('stone'), ...core])
    expect(stepKey(mine('dirt', 1))).toBe('mine:dirt')
  })
})

describe('local embedder', () => {
  it('is deterministic, normalised and puts similar goals near each other', () => {
    const a = hashEmbed('obtain 3 iron ingot with furnace from iron ore')
    expect(Array.from(a)).toEqual(Array.from(hashEmbed('obtain 3 iron ingot with furnace from iron ore')))
    expect(a.reduce((s, x) => s + x * x, 0)).toBeCloseTo(1, 5)
    const near = cosine(a, hashEmbed('obtain 1 iron ingot with furnace from raw iron'))
    const far = cosine(a, hashEmbed('obtain 5 oak log'))
    expect(near).toBeGreaterThan(0.7)
    expect(far).toBeLessThan(0.3)
  })
})
