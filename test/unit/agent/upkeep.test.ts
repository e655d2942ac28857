/**
 * The food a hungry find hunts (src/agent/upkeep.ts `foodToHunt`), on the real 1.20.2 game data: nothing while food
 * is above the threshold or something edible is carried; else the drop of the nearest animal in sight (from the loot
 * tables), never a food the eating reflex will not eat (a zombie's rotten flesh), never the creature a find is looking
 * for, and nothing with no animal in sight.
 */
import { describe, expect, it } from 'vitest'
import { HUNGRY_FOOD, foodToHunt } from '../../../src/agent/upkeep.js'
import { createKnowledge } from '../../../src/knowledge/index.js'

const kb = createKnowledge('1.20.2')
/** Senses that see the given creatures at the given distances. */
const seeing = (seen: Record<string, number>) => ({ nearestVisible: (name: string) => seen[name] ?? null })

describe('foodToHunt', () => {
  it('hunts nothing while food is above the threshold', () => {
    expect(foodToHunt(kb, { food: HUNGRY_FOOD + 1, inventory: {} }, seeing({ cow: 5 }))).toBeNull()
  })

  it('hunts nothing while something edible is carried (the eating reflex eats it)', () => {
    expect(foodToHunt(kb, { food: 4, inventory: { bread: 1 } }, seeing({ cow: 5 }))).toBeNull()
    expect(foodToHunt(kb, { food: 4, inventory: { cooked_porkchop: 2 } }, seeing({ cow: 5 }))).toBeNull()
  })

  it('hunts the nearest animal in sight for its meat', () => {
    expect(foodToHunt(kb, { food: HUNGRY_FOOD, inventory: { dirt: 9 } }, seeing({ pig: 12, cow: 5 }))).toEqual({
      item: 'beef',
      mob: 'cow',
    })
    expect(foodToHunt(kb, { food: 3, inventory: {} }, seeing({ pig: 4, cow: 20, sheep: 9 }))).toEqual({
      item: 'porkchop',
      mob: 'pig',
    })
  })

  it('never hunts a food the bot will not eat, and counts none carried as food', () => {
    expect(foodToHunt(kb, { food: 2, inventory: {} }, seeing({ zombie: 2 }))).toBeNull()
    expect(foodToHunt(kb, { food: 2, inventory: { rotten_flesh: 5 } }, seeing({ chicken: 6 }))).toEqual({
      item: 'chicken',
      mob: 'chicken',
    })
  })

  it('spares the creature a find is looking for', () => {
    expect(foodToHunt(kb, { food: 3, inventory: {} }, seeing({ pig: 4, cow: 20 }), 'pig')).toEqual({
      item: 'beef',
      mob: 'cow',
    })
    expect(foodToHunt(kb, { food: 3, inventory: {} }, seeing({ pig: 4 }), 'pig')).toBeNull()
  })

  it('does not wander off for food when no animal is in sight', () => {
    expect(foodToHunt(kb, { food: 1, inventory: {} }, seeing({}))).toBeNull()
  })
})
