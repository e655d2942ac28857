/**
 * drops.ts's droppedStack on real prismarine-entity item entities of 1.20.2: the server spawns an item and names its
 * stack in a second packet, and between the two `getDroppedItem()` throws ("reading 'present'"); droppedStack answers
 * null there and the stack once the metadata is in.
 */
import { describe, expect, it } from 'vitest'
import prismarineEntity, { type Entity as EntityT } from 'prismarine-entity'
import prismarineItem, { type Item as ItemT } from 'prismarine-item'
import { droppedStack } from '../../../src/actions/drops.js'

const VERSION = '1.20.2'
// the packages' typings declare classes where the modules export factories taking the version
const Entity = (prismarineEntity as unknown as (v: string) => new (id: number) => EntityT)(VERSION)
const Item = (
  prismarineItem as unknown as (v: string) => { new (type: number, count: number): ItemT; toNotch(i: ItemT): unknown }
)(VERSION)

function itemEntity(): EntityT {
  const e = new Entity(7)
  e.name = 'item'
  e.type = 'object'
  return e
}

describe('droppedStack', () => {
  it('is null for an item entity whose metadata has not arrived (where getDroppedItem throws)', () => {
    const e = itemEntity()
    expect(() => e.getDroppedItem()).toThrow(/present/)
    expect(droppedStack(e)).toBeNull()
  })

  it('names the stack once the metadata is in', () => {
    const e = itemEntity()
    const stone = new Item(1, 3) // item id 1: stone
    e.metadata[8] = Item.toNotch(stone) as EntityT['metadata'][number]
    expect(droppedStack(e)).toMatchObject({ count: 3, name: stone.name })
  })

  it('is null for no entity and for an entity that is no item', () => {
    expect(droppedStack(undefined)).toBeNull()
    const cow = new Entity(8)
    cow.name = 'cow'
    expect(droppedStack(cow)).toBeNull()
  })
})
