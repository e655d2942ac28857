/**
 * The practice options a plugin reads (src/server/mobs/practice.ts): natural spawning on unless switched off, and a
 * furnace speed that is vanilla's unless a whole number from 1 to 20 is given.
 */
import { describe, expect, it } from 'vitest'
import { furnaceSpeed, naturalSpawning } from '../../../src/server/mobs/practice.js'
import type { SquidServer } from '../../../src/server/squid.js'

/** A server whose plugin `name` was added with `settings`, as flying-squid's addPlugin keeps them. */
const serverWith = (name: string, settings: Record<string, unknown>): SquidServer =>
  ({ plugins: { [name]: { settings } } }) as unknown as SquidServer

describe('practice options', () => {
  it('spawns mobs unless told not to', () => {
    expect(naturalSpawning(serverWith('mobs', {}), 'mobs')).toBe(true)
    expect(naturalSpawning(serverWith('mobs', { naturalSpawning: false }), 'mobs')).toBe(false)
  })

  it('runs furnaces at vanilla speed unless given a whole number from 1 to 20', () => {
    expect(furnaceSpeed(serverWith('furnace', {}), 'furnace')).toBe(1)
    expect(furnaceSpeed(serverWith('furnace', { furnaceSpeed: 10 }), 'furnace')).toBe(10)
    for (const bad of [0, -3, 1.5, 21, '10', null])
      expect(furnaceSpeed(serverWith('furnace', { furnaceSpeed: bad }), 'furnace')).toBe(1)
    expect(furnaceSpeed(serverWith('other', { furnaceSpeed: 10 }), 'furnace')).toBe(1)
  })
})
