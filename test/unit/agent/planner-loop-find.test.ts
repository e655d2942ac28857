/**
 * The planning loop without an LLM (llm null: the offline planner) against the sim world, for find-goals: an object
 * in sight with every condition met (biome, time, a thing near it); in the dark it arms or hides first, hurt it hides,
 * hungry it hunts an animal in sight (never the one it looks for), a flight from a mob does not give up the search, and
 * a search ends as soon as the count is in the bag. The rest of the loop is in planner-loop-offline.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { UNSAFE_RETRIES } from '../../../src/agent/subgoal-runner.js'
import { STARVING_FOOD } from '../../../src/agent/upkeep.js'
import { failures, labels, simGoal } from '../../helpers/offline-goal.js'
import type { SimWorldOptions } from '../../helpers/sim-world.js'
import { createKnowledge } from '../../../src/knowledge/index.js'
import type { GoalInput } from '../../../src/schemas/goal.js'
import { setLogLevel } from '../../../src/util/log.js'

setLogLevel('error')
const kb = createKnowledge('1.20.2')

const run = (goal: GoalInput, opts: SimWorldOptions = {}, budgetMs = 60_000) => simGoal(kb, goal, opts, budgetMs)

describe('offline planning loop: find-goals (no LLM)', () => {
  it('a find-goal succeeds only when the object is in sight with every condition met', async () => {
    const found = await run({ object: 'cow', count: 1, conditions: { biome: 'savanna' } })
    expect(found.out.ok).toBe(true)
    expect(found.out.verification).toMatch(/^cow in sight .* biome savanna/)
    const night = await run({ object: 'zombie', count: 1, conditions: { time: 'night' } }, { time: 'night' })
    expect(night.out.ok).toBe(true)
    // a cow with water by it is searched for as a pair, not waited for; a cow alone in sight does not count
    const near = await run({ object: 'cow', count: 1, conditions: { near: 'water' } }, {}, 3000)
    expect(near.out).toMatchObject({ ok: true, subGoalsRun: 1 })
    expect(near.world.calls.map((c) => c.action)).toEqual([
      { type: 'explore', object: 'cow', strategy: 'surface', near: 'water', biome: null },
    ])
    const alone = await run({ object: 'cow', count: 1, conditions: { near: 'water' } }, { visible: { cow: 5 } }, 3000)
    expect(labels(alone.world)).toEqual(['explore cow'])
    // with a biome too: walk to the biome, then search for the pair inside it
    const both = await run({ object: 'pig', count: 1, conditions: { biome: 'forest', near: 'grass' } }, {}, 60_000)
    expect(both.out.ok, both.out.message).toBe(true)
    expect(both.world.calls.map((c) => c.action)).toEqual([
      { type: 'explore', object: 'forest', strategy: 'surface' },
      { type: 'explore', object: 'pig', strategy: 'surface', near: 'grass', biome: 'forest' },
    ])
    // a biome not reached yet: its search goes on, and no search for the object runs outside it
    const far = await run({ object: 'cow', count: 1, conditions: { biome: 'desert' } }, { absent: ['desert'] }, 2000)
    expect(far.out.ok).toBe(false)
    expect(new Set(labels(far.world))).toEqual(new Set(['explore desert']))
    const rain = await run({ object: 'cow', count: 1, conditions: { weather: 'rain' } }, {}, 1200)
    expect(rain.out.ok).toBe(false)
    expect(rain.out.message).toBe(
      'I could not find cow with every condition met in time; unmet: weather rain (it is clear).',
    )
  })

  it('an unarmed find in the dark makes a wooden sword first; armed or in daylight it does not', async () => {
    const dark = await run({ object: 'pig', count: 1 }, { time: 'night' }, 120_000)
    expect(dark.out.ok).toBe(true)
    expect(labels(dark.world)).toContain('craft wooden_sword')
    expect(labels(dark.world).indexOf('craft wooden_sword')).toBeLessThan(labels(dark.world).indexOf('explore pig'))
    expect(dark.world.state().inventory.wooden_sword).toBe(1)
    const armed = await run({ object: 'pig', count: 1 }, { time: 'night', inventory: { stone_axe: 1 } })
    expect(labels(armed.world)).toEqual(['explore pig'])
    const day = await run({ object: 'pig', count: 1 })
    expect(labels(day.world)).toEqual(['explore pig'])
  })

  it('a daytime find in the dark hides until morning first, then searches; a find by night or any time does not', async () => {
    const day = await run({ object: 'pig', count: 1, conditions: { time: 'day' } }, { time: 'night' }, 120_000)
    expect(day.out.ok, day.out.message).toBe(true)
    expect(labels(day.world)).toEqual(['hide', 'explore pig'])
    const night = await run({ object: 'pig', count: 1, conditions: { time: 'night' } }, { time: 'night' }, 120_000)
    expect(labels(night.world)).not.toContain('hide')
    const dusk = await run({ object: 'pig', count: 1, conditions: { time: 'day' } }, { time: 'dusk' }, 120_000)
    expect(labels(dusk.world)[0]).toBe('hide')
    const daylight = await run({ object: 'pig', count: 1, conditions: { time: 'day' } })
    expect(labels(daylight.world)).toEqual(['explore pig'])
  })

  it('a hide a zombie cut short is tried again: it does not use up a hide', async () => {
    // mp5 c19 2-3 seed 1: both hides ended "I fought back against zombie", and the search went on at night until
    // the zombies killed it
    const fought = [1, 2, 3].map((nth) => ({
      type: 'hide' as const,
      nth,
      reason: 'unsafe' as const,
      message: 'I fought back against zombie.',
    }))
    const r = await run(
      { object: 'pig', count: 1, conditions: { time: 'day' } },
      { time: 'night', faults: fought },
      120_000,
    )
    expect(r.out.ok, r.out.message).toBe(true)
    // the fourth hide, after three cut short, lasts until morning, and the pig is found in daylight
    const hides = r.world.calls.filter((c) => c.action.type === 'hide').map((c) => c.result.ok)
    expect(hides).toEqual([false, false, false, true])
  })

  it('a hurt find in the dark hides until morning unless it needs the night', async () => {
    const armed = { stone_axe: 1 }
    const hurt = await run({ object: 'pig', count: 1 }, { time: 'night', inventory: armed, health: 8 }, 120_000)
    expect(hurt.out.ok, hurt.out.message).toBe(true)
    expect(labels(hurt.world)).toEqual(['hide', 'explore pig'])
    const well = await run({ object: 'pig', count: 1 }, { time: 'night', inventory: armed, health: 11 }, 120_000)
    expect(labels(well.world)).toEqual(['explore pig'])
    const night = { object: 'pig', count: 1, conditions: { time: 'night' as const } }
    const needsIt = await run(night, { time: 'night', inventory: armed, health: 8 }, 120_000)
    expect(labels(needsIt.world)).toEqual(['explore pig'])
  })

  it('a flight from a mob does not give up the wood it was after: the same tree is tried again', async () => {
    // bench:mp5 c10 2-4 seed 1: one flight used up oak's only try and marked it costly, then birch's, and so on
    const fled = [{ type: 'mine' as const, nth: 1, reason: 'unsafe' as const, message: 'I ran from the zombie.' }]
    const r = await run({ object: 'wooden_sword', count: 1 }, { faults: fled })
    expect(r.out.ok, r.out.message).toBe(true)
    const logs = labels(r.world).filter((l) => /^(explore|mine) \w+_log$/.test(l))
    expect(logs.slice(0, 4)).toEqual(['explore oak_log', 'mine oak_log', 'explore oak_log', 'mine oak_log'])
    expect(r.world.calls.find((c) => c.action.type === 'mine')!.result.reason).toBe('unsafe')
  })

  it('an unarmed find in the dark with a zombie near hides at once, before it tries to make a weapon', async () => {
    // bench:mp5 c13 2-2 seed 2: a night start among five to seven zombies; every log ended in a flight, dead at 57 s
    const r = await run({ object: 'pig', count: 1 }, { time: 'night', visible: { zombie: 10 } }, 120_000)
    expect(r.out.ok, r.out.message).toBe(true)
    expect(labels(r.world)).toEqual(['hide', 'explore pig'])
    // no zombie near: it makes its weapon first, as before
    const calm = await run({ object: 'pig', count: 1 }, { time: 'night' }, 120_000)
    expect(labels(calm.world)[0]).toBe('explore oak_log')
    // a find that needs the night does not hide, zombie or not: it searches (with a zombie near, unarmed)
    const night = await run(
      { object: 'pig', count: 1, conditions: { time: 'night' } },
      { time: 'night', visible: { zombie: 10 } },
      120_000,
    )
    expect(labels(night.world)).not.toContain('hide')
  })

  it('an unarmed find in the dark gives up its arming as soon as a zombie comes near, and hides', async () => {
    // mp5 c21 2-2 seed 2: no zombie at the night start, so it went for wood; they came, and it fled from them for its
    // whole 120 s of arming, then died digging in at 6 health
    const longs = [{ type: 'explore' as const, nth: 1, ms: 30_000, sees: { zombie: 10 } }]
    const started = Date.now()
    const r = await run({ object: 'pig', count: 1 }, { time: 'night', longs }, 120_000)
    expect(r.out.ok, r.out.message).toBe(true)
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(labels(r.world)).toEqual(['explore oak_log', 'hide', 'explore pig'])
    expect(r.world.calls[0]!.result.reason).toBe('interrupted')
    // a find that needs the night has no hide to give way to: it searches on, unarmed (every log would end in a
    // flight from the zombies), and the flee reflex keeps it alive
    const night = await run(
      { object: 'pig', count: 1, conditions: { time: 'night' } },
      { time: 'night', longs },
      120_000,
    )
    expect(night.out.ok, night.out.message).toBe(true)
    expect(labels(night.world)).toEqual(['explore oak_log', 'explore pig'])
  })

  it('an unarmed find in the dark that cannot make a weapon hides until morning, then searches', async () => {
    // every search for wood (seven kinds, each tried again after a flight UNSAFE_RETRIES times) ends the way a
    // zombie chase does: the bot ran, no log
    const chased = Array.from({ length: 7 * (1 + UNSAFE_RETRIES) }, (_, i) => ({
      type: 'explore' as const,
      nth: i + 1,
      reason: 'unsafe' as const,
      message: 'I ran from the zombie because I have no weapon.',
    }))
    const r = await run({ object: 'pig', count: 1 }, { time: 'night', faults: chased }, 120_000)
    expect(r.out.ok, r.out.message).toBe(true)
    const steps = labels(r.world)
    // it hid right after the arming failed: no search for the pig ran unarmed in the dark before it
    expect(steps.slice(steps.indexOf('hide'))).toEqual(['hide', 'explore pig'])
    expect(steps.slice(0, steps.indexOf('hide')).every((l) => /^explore \w+_log$/.test(l))).toBe(true)
  })

  it('a search stops as soon as the count is in the bag, and the rest of the plan is skipped', async () => {
    // the shaft down digs through the ore and picks the diamond up as it starts (bench d36 seed 4): without the cut
    // it would dig on for a minute and the explore and mine after it would run
    const shaft = await run(
      { object: 'diamond', count: 1 },
      { inventory: { iron_pickaxe: 1 }, longs: [{ type: 'dig_down', nth: 1, ms: 60_000, gains: { diamond: 1 } }] },
    )
    expect(shaft.out.ok, shaft.out.message).toBe(true)
    expect(labels(shaft.world)).toEqual(['dig_down'])
    expect(shaft.world.calls[0]!.result.reason).toBe('interrupted')
    // the player's progress says why the shaft stopped, as a success
    expect(failures(shaft.events)).toEqual([])
    expect(shaft.events).toContainEqual(
      expect.objectContaining({
        kind: 'action',
        ok: true,
        message: 'I stopped the dig_down there: the diamond I was after is in my inventory now.',
      }),
    )
    // the search itself meets the count on the way (a vein dug into): the mine after it is not run
    const search = await run(
      { object: 'diamond', count: 1 },
      { inventory: { iron_pickaxe: 1 }, longs: [{ type: 'explore', nth: 1, ms: 60_000, gains: { diamond: 1 } }] },
    )
    expect(search.out.ok, search.out.message).toBe(true)
    expect(labels(search.world)).toEqual(['dig_down', 'explore diamond_ore'])
    // a search whose count is not met runs to its end as before
    const plain = await run({ object: 'diamond', count: 1 }, { inventory: { iron_pickaxe: 1 } })
    expect(labels(plain.world)).toEqual(['dig_down', 'explore diamond_ore', 'mine diamond'])
  })

  it('a hungry find with nothing to eat hunts an animal in sight first, never the one it looks for', async () => {
    const hungry = await run({ object: 'pig', count: 1 }, { food: 6, visible: { cow: 6 } }, 120_000)
    expect(hungry.out.ok, hungry.out.message).toBe(true)
    const steps = labels(hungry.world)
    expect(steps).toContain('attack cow')
    expect(steps.lastIndexOf('attack cow')).toBeLessThan(steps.indexOf('explore pig'))
    expect(hungry.world.state().inventory.beef).toBeGreaterThan(0)
    const fed = await run({ object: 'pig', count: 1 }, { food: 6, visible: { cow: 6 }, inventory: { bread: 2 } })
    expect(labels(fed.world)).toEqual(['explore pig'])
    const spared = await run({ object: 'cow', count: 1 }, { food: 6, visible: { cow: 6 } })
    expect(spared.out.ok, spared.out.message).toBe(true)
    expect(labels(spared.world)).not.toContain('attack cow')
  })

  it('a hungry find with its object in sight and only the biome unmet walks into the biome before any hunt', async () => {
    // mp5 c24 4-3 seed 1: a cow by water in sight at a desert's edge, the bot a block or two out of the desert; a hunt
    // for food at food 6 walked it away from the cow, and the run timed out
    const cow = { object: 'cow', count: 1, conditions: { biome: 'desert' } }
    const edge = await run(cow, { food: 6, visible: { cow: 5, pig: 6 }, biome: 'plains' }, 120_000)
    expect(edge.out.ok, edge.out.message).toBe(true)
    expect(labels(edge.world)[0]).toBe('explore desert')
    expect(labels(edge.world)).not.toContain('attack pig')
    // starving, the hunt still comes first: the biome search would be cut for it at once, round after round
    const starving = await run(cow, { food: STARVING_FOOD, visible: { cow: 5, pig: 6 }, biome: 'plains' }, 120_000)
    expect(starving.out.ok, starving.out.message).toBe(true)
    expect(labels(starving.world)).toContain('attack pig')
    expect(labels(starving.world).indexOf('attack pig')).toBeLessThan(labels(starving.world).indexOf('explore desert'))
    // with the cow out of sight the hunt still comes first, as before
    const away = await run(cow, { food: 6, visible: { pig: 6 }, biome: 'plains' }, 120_000)
    const steps = labels(away.world)
    expect(steps).toContain('attack pig')
    expect(steps.indexOf('attack pig')).toBeLessThan(steps.indexOf('explore desert'))
  })

  it('a search that leaves the bot starving with an animal in sight ends for the hunt, then goes on', async () => {
    // the first search for the pig walks long (mp5 4-3: a biome search sprints up to its whole budget) and tires the
    // bot, with a cow coming into sight on the way
    const longs = [{ type: 'explore' as const, nth: 1, ms: 40_000, food: STARVING_FOOD, sees: { cow: 6 } }]
    const started = Date.now()
    const r = await run({ object: 'pig', count: 1 }, { longs }, 120_000)
    expect(r.out.ok, r.out.message).toBe(true)
    expect(Date.now() - started).toBeLessThan(20_000)
    const steps = labels(r.world)
    expect(steps[0]).toBe('explore pig')
    expect(r.world.calls[0]!.result.reason).toBe('interrupted')
    expect(steps.indexOf('attack cow')).toBeGreaterThan(0)
    expect(steps.lastIndexOf('explore pig')).toBeGreaterThan(steps.indexOf('attack cow'))
    // the cow slips out of sight as the search stops (mp5 4-3 seed 3 went on searching until its food was 0): the
    // hunt still goes for it, its own explore finding it again
    const slipped = [{ ...longs[0]!, gone: ['cow'] }]
    const s = await run({ object: 'pig', count: 1 }, { longs: slipped }, 120_000)
    expect(s.out.ok, s.out.message).toBe(true)
    expect(labels(s.world).slice(0, 3)).toEqual(['explore pig', 'explore cow', 'attack cow'])
    // hungry but not starving (walking costs no food): the search runs its course; the hunt waits for its end
    const hungry = [{ ...longs[0]!, ms: 3000, food: STARVING_FOOD + 3 }]
    const h = await run({ object: 'pig', count: 1 }, { longs: hungry }, 120_000)
    expect(h.world.calls[0]!.result.ok).toBe(true)
  })

  it('a search at night that leaves the bot hurt ends for a hide, then goes on in the morning', async () => {
    // mp5 2-3 seed 3: armed, walking the night to a desert, the zombies took it from 20 to 6 health in one search
    const longs = [{ type: 'explore' as const, nth: 1, ms: 40_000, health: 8 }]
    const r = await run({ object: 'pig', count: 1 }, { time: 'night', inventory: { wooden_sword: 1 }, longs }, 120_000)
    expect(r.out.ok, r.out.message).toBe(true)
    expect(labels(r.world)).toEqual(['explore pig', 'hide', 'explore pig'])
    expect(r.world.calls[0]!.result.reason).toBe('interrupted')
    // unhurt, the night search runs its course (a short one here)
    const unhurt = await run(
      { object: 'pig', count: 1 },
      { time: 'night', inventory: { wooden_sword: 1 }, longs: [{ ...longs[0]!, ms: 2000, health: 18 }] },
      120_000,
    )
    expect(labels(unhurt.world)).toEqual(['explore pig'])
    expect(unhurt.world.calls[0]!.result.ok).toBe(true)
  })

  it('a find whose search names something the game does not know ends at once with that reason', async () => {
    const why = 'There is no block, creature or biome called "plainz" in Minecraft 1.20.2.'
    const started = Date.now()
    const r = await run(
      { object: 'pig', count: 1, conditions: { biome: 'plainz' } },
      { faults: [{ type: 'explore', nth: 1, reason: 'invalid', message: why }] },
      30_000,
    )
    expect(r.out).toMatchObject({ ok: false, message: why })
    expect(labels(r.world)).toEqual(['explore plainz'])
    expect(Date.now() - started).toBeLessThan(5000)
  })
})
