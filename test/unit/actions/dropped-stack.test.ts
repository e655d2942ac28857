/**
 * drops.ts's droppedStack on real prismarine-entity item entities of 1.20.2: the server spawns an item and names its
 * stack in a second packet, and between the two `getDroppedItem()` throws ("reading 'present'"); droppedStack answers
 * null there and the stack once the metadata is in. And droppedItems, what a collect walks to: with the names it
 * wants, it leaves the junk the bot dropped to keep room (bench d41: a furnaces' pick-up walked to that cobblestone
 * until its deadline and left furnaces lying).
 */
import { describe, expect, it } from 'vitest'
import prismarineEntity, { type Entity as EntityT } from 'prismarine-entity'
import prismarineItem, { type Item as ItemT } from 'prismarine-item'
import { Vec3 } from 'vec3'
import { droppedItems, droppedStack } from '../../../src/actions/drops.js'

const VERSION = '1.20.2'
// the packages' typings declare classes where the modules export factories taking the version
const Entity = (prismarineEntity as unknown as (v: string) => new (id: number) => EntityT)(VERSION)
const Item = (
  prismarineItem as unknown as (v: string) => { new (type: number, count: number): ItemT; toNotch(i: ItemT): unknown }
)(VERSION)

function itemEntity(id = 7): EntityT {
  const e = new Entity(id)
  e.name = 'item'
  e.type = 'object'
  return e
}

/** An item entity at `at` holding `count` of item id `type` (its metadata in), or with none yet (`type` null). */
function lying(id: number, type: number | null, at: Vec3): EntityT {
  const e = itemEntity(id)
  e.position = at
  if (type !== null) e.metadata[8] = Item.toNotch(new Item(type, 1)) as EntityT['metadata'][number]
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

describe('droppedItems', () => {
  const stone = new Item(1, 1)
  const here = new Vec3(0, 64, 0)
  it('with the names wanted, leaves other stacks lying; keeps items whose stack is not known yet', () => {
    const cobble = lying(1, 1, here.offset(1, 0, 0))
    const unknown = lying(2, null, here.offset(0, 0, 1))
    const far = lying(3, 1, here.offset(9, 0, 0))
    const entities = { 1: cobble, 2: unknown, 3: far }
    expect(droppedItems(entities, [here], 4).map((e) => e.id)).toEqual([1, 2])
    expect(droppedItems(entities, [here], 4, new Set(['furnace'])).map((e) => e.id)).toEqual([2])
    expect(droppedItems(entities, [here], 4, new Set([stone.name])).map((e) => e.id)).toEqual([1, 2])
  })
})
