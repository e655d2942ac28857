/**
 * The small parsers of the companion skills (issue 17): coordinates, where a chest is, goto targets and the
 * `remember` command's phrasing. The skills themselves run against the real server in test/integration/skills-*.
 */
import { describe, expect, it } from 'vitest'
import { chestWhere, parseXyz } from '../../../src/actions/skills.js'
import { gotoTarget } from '../../../commands/goto.js'
import { parseRemember } from '../../../commands/remember.js'

describe('companion skill parsers', () => {
  it('reads coordinates and chest places', () => {
    expect(parseXyz('10 64 -20')).toEqual({ x: 10, y: 64, z: -20 })
    expect(parseXyz('10, 64, -20')).toEqual({ x: 10, y: 64, z: -20 })
    expect(parseXyz('base')).toBeNull()
    expect(chestWhere(null)).toBeNull()
    expect(chestWhere('big chest')).toBeNull()
    expect(chestWhere('chest at base')).toBe('base')
    expect(chestWhere('chest at 1 2 3')).toBe('1 2 3')
    expect(chestWhere('base')).toBe('base')
  })

  it('tells coordinates, players and places apart for goto', () => {
    expect(gotoTarget(['1', '64', '-3'])).toEqual({ kind: 'xyz', x: 1, y: 64, z: -3 })
    expect(gotoTarget(['Alice'])).toEqual({ kind: 'player', name: 'Alice' })
    expect(gotoTarget(['base'])).toEqual({ kind: 'place', name: 'base' })
    expect(gotoTarget(['to', 'the', 'old', 'mill'])).toEqual({ kind: 'place', name: 'the old mill' })
  })

  it('understands "remember" phrasings', () => {
    expect(parseRemember('this place as base')).toEqual({ name: 'base', at: null })
    expect(parseRemember('as home')).toEqual({ name: 'home', at: null })
    expect(parseRemember('farm at 10 64 -20')).toEqual({ name: 'farm', at: { x: 10, y: 64, z: -20 } })
  })
})
