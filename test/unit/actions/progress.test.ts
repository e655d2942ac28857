/**
 * Unit tests of the progress signal (src/progress): the shipped rules file parses, bad rules are rejected, and the
 * tracker's dense/sparse parts, stall detection and bounded trace behave as the rules say — fed synthetic
 * observations, no server needed.
 */
import { describe, expect, it } from 'vitest'
import { loadRules, parseRules } from '../../../src/progress/rules.js'
import { ProgressTracker, type Observation } from '../../../src/progress/signal.js'

const rules = loadRules()
const obs = (t: number, x: number, z: number, extra: Partial<Observation> = {}): Observation => ({
  t,
  pos: { x, y: 5, z },
  health: 20,
  wanted: null,
  targetDistance: null,
  lavaInView: false,
  inventoryTotal: 0,
  work: 0,
  dead: false,
  ...extra,
})

describe('progress rules', () => {
  it('ships valid rules and rejects malformed ones', () => {
    expect(rules.stall.windowMs).toBeGreaterThan(0)
    expect(() => parseRules({ ...rules, weights: { ...rules.weights, newCell: 'lots' } })).toThrow()
    expect(() => parseRules({ ...rules, stall: { windowMs: -1, minDense: 0 } })).toThrow()
  })
})

describe('ProgressTracker', () => {
  it('rewards getting closer, new ground, items and work; penalises health lost and lava', () => {
    const t = new ProgressTracker(rules, 'approach', 0)
    t.observe(obs(0, 0, 0, { targetDistance: 10, wanted: 0 }))
    const e = t.observe(obs(500, 8, 0, { targetDistance: 2, wanted: 1, work: 1 }))
    expect(e.parts.closer).toBeCloseTo(8 * rules.weights.closerPerBlock)
    expect(e.parts.newCell).toBe(rules.weights.newCell)
    expect(e.parts.itemGained).toBe(rules.weights.itemGained)
    expect(e.parts.work).toBe(rules.weights.work)
    const bad = t.observe(obs(1000, 8, 0, { targetDistance: 2, health: 17, lavaInView: true }))
    expect(bad.parts.healthLost).toBeCloseTo(3 * rules.weights.healthLostPerPoint)
    expect(bad.parts.lava).toBe(rules.weights.lavaInView)
    expect(bad.dense).toBeLessThan(0)
  })

  it('gives the sparse -1 for death and heavy loss and +1 for the goal', () => {
    const t = new ProgressTracker(rules, 'mine', 0)
    t.observe(obs(0, 0, 0, { inventoryTotal: 20 }))
    expect(t.observe(obs(500, 0, 0, { inventoryTotal: 5 })).sparse).toBe(rules.weights.heavyLoss)
    expect(t.observe(obs(1000, 0, 0, { dead: true })).sparse).toBe(rules.weights.death)
    expect(t.finish(true, 'done', 1500).sparse).toBe(rules.weights.goalReached)
  })

  it('stalls a bot walking in circles but not one making steady progress', () => {
    const window = rules.stall.windowMs
    const circling = new ProgressTracker(rules, 'approach', 0)
    const walking = new ProgressTracker(rules, 'approach', 0)
    for (let t = 0; t <= window * 2; t += rules.sampleEveryMs) {
      const a = (t / 1000) * 2
      circling.observe(obs(t, 3 * Math.cos(a), 3 * Math.sin(a), { targetDistance: 50 + Math.sin(a) }))
      walking.observe(obs(t, t / 250, 0, { targetDistance: 200 - t / 250 }))
    }
    expect(circling.stalled(window * 2)).toBe(true)
    expect(circling.entries().some((e) => (e.parts.revisit ?? 0) < 0)).toBe(true)
    expect(walking.stalled(window * 2)).toBe(false)
    expect(new ProgressTracker(rules, 'approach', 0).stalled(window - 1)).toBe(false)
  })

  it('does not call steady digging with lava in view a stall (the hazard weighs the signal, not the stall)', () => {
    const window = rules.stall.windowMs
    const digging = new ProgressTracker(rules, 'explore', 0)
    const idle = new ProgressTracker(rules, 'explore', 0)
    // one block every 1.5 s, standing in one tunnel cell, lava in sight the whole time: the dense sum is negative
    for (let t = 0; t <= window * 2; t += rules.sampleEveryMs) {
      digging.observe(obs(t, 0, 0, { lavaInView: true, work: t % 1500 === 0 ? 1 : 0 }))
      idle.observe(obs(t, 0, 0, { lavaInView: true }))
    }
    const dense = digging
      .entries()
      .filter((e) => e.t > window)
      .reduce((a, e) => a + e.dense, 0)
    expect(dense).toBeLessThan(0)
    expect(digging.stalled(window * 2)).toBe(false)
    expect(idle.stalled(window * 2)).toBe(true)
  })

  it('keeps only the last traceLength entries and reports each to the listener', () => {
    const small = parseRules({ ...rules, traceLength: 10 })
    const seen: number[] = []
    const t = new ProgressTracker(small, 'explore', 0, (e) => seen.push(e.t))
    for (let i = 0; i < 25; i++) t.observe(obs(i * 500, i, 0))
    expect(t.entries()).toHaveLength(10)
    expect(t.entries()[0]!.t).toBe(15 * 500)
    expect(seen).toHaveLength(25)
    expect(new ProgressTracker(small, 'explore').stallWindowMs).toBe(
      small.stall.perAction.explore ?? small.stall.windowMs,
    )
  })
})
