/**
 * approach.ts's GoalWithinReach: the cells a walk after an entity may end in, judged from the entity's own position
 * (a player on a 2-high pillar is reached from beside its foot) and, for the cell the body stands in, from the body.
 */
import { Vec3 } from 'vec3'
import { describe, expect, it } from 'vitest'
import type { Entity } from 'prismarine-entity'
import { GoalWithinReach } from '../../../src/actions/approach.js'

const bodyAt = (x: number, y: number, z: number): { entity: Entity } => ({
  entity: { position: new Vec3(x, y, z) } as Entity,
})
const node = (x: number, y: number, z: number): { x: number; y: number; z: number } => ({ x, y, z })

describe('GoalWithinReach', () => {
  // a player standing on a 2-high pillar in column (0, 0): feet at y 2
  const player = new Vec3(0.5, 2, 0.5)

  it('counts the cells beside the foot of a 2-high pillar, none farther', () => {
    const goal = new GoalWithinReach(bodyAt(10.5, 0, 10.5), player, 3)
    expect(goal.isEnd(node(1, 0, 0))).toBe(true) // centre 2.24 from the player
    expect(goal.isEnd(node(-1, 0, 0))).toBe(true)
    expect(goal.isEnd(node(1, 0, 1))).toBe(true) // 2.45, inside reach − 0.5
    expect(goal.isEnd(node(2, 0, 0))).toBe(false) // 2.83
    expect(goal.isEnd(node(0, 2, 0))).toBe(true) // the pillar top itself (the player's cell)
  })

  it('judges the cell the body stands in by the body itself', () => {
    const cow = new Vec3(0.5, 0, 0.5)
    // cell (2, 0, 0): its centre is 2 from the cow, not inside reach − 0.5; the body at its near edge is 1.51 away
    expect(new GoalWithinReach(bodyAt(2.01, 0, 0.5), cow, 2).isEnd(node(2, 0, 0))).toBe(true)
    expect(new GoalWithinReach(bodyAt(10.5, 0, 0.5), cow, 2).isEnd(node(2, 0, 0))).toBe(false)
    // cell (1, 0, 1): its centre is 1.41 away and counts; the body in its far corner is 2.11 away: walk on
    expect(new GoalWithinReach(bodyAt(1.99, 0, 1.99), cow, 2).isEnd(node(1, 0, 1))).toBe(false)
    expect(new GoalWithinReach(bodyAt(10.5, 0, 0.5), cow, 2).isEnd(node(1, 0, 1))).toBe(true)
  })

  it('leads toward the entity', () => {
    const goal = new GoalWithinReach(bodyAt(10.5, 0, 10.5), player, 3)
    expect(goal.heuristic(node(5, 0, 0))).toBeGreaterThan(goal.heuristic(node(2, 0, 0)))
  })
})
