/**
 * Furnaces that smelt: each placed furnace keeps its input, fuel and output slots and its burn/cook counters per
 * block position, and ticks at 20 Hz like vanilla AbstractFurnaceBlockEntity — 200 ticks (10 s) per item, fuel
 * burn times from data/smelting.json (coal 1,600 ticks = 8 items), cooking only while the output has room,
 * progress decaying by 2 a tick when unlit — whether or not anybody has the window open. Right-click opens a
 * vanilla `minecraft:furnace` window (0 input, 1 fuel, 2 output, 3-38 inventory) with the four window properties
 * (0 fuel left, 1 fuel total, 2 cook progress, 3 cook total), so mineflayer's openFurnace / putFuel / putInput /
 * takeOutput and its progress fields work. The block's `lit` state follows the fire. Breaking it drops the items.
 * A test server can run its furnaces faster (`practice: { furnaceSpeed }`, mobs/practice.ts).
 * Not done: experience for smelted items, blast furnaces and smokers.
 */
import { createRequire } from 'node:module'
import type { Vec3 } from 'vec3'
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid.js'
import { BlockStore, isPositionedAt, type PositionedMenu } from '../windows/block-store.js'
import { addPlayerSlots, type InventoryStore } from '../windows/inventory-menu.js'
import { Menu } from '../windows/menu.js'
import { installSession, log, viewers, type Session } from '../windows/session.js'
import { COOK_TICKS, smeltingTable, type SmeltingRegistry, type SmeltingTable } from '../windows/smelting.js'
import { countOf, maxStackOf, sameItem, Stacks, type Stack } from '../windows/stack.js'
import { inReach } from './crafting.js'
import { furnaceSpeed } from '../mobs/practice.js'

const require = createRequire(import.meta.url)

export interface FurnaceState {
  items: Array<Stack | null> // 0 input, 1 fuel, 2 output
  litTime: number
  litDuration: number
  cookingProgress: number
  cookingTotalTime: number
}
const newState = (): FurnaceState => ({
  items: [null, null, null],
  litTime: 0,
  litDuration: 0,
  cookingProgress: 0,
  cookingTotalTime: COOK_TICKS,
})

export class FurnaceMenu extends Menu implements PositionedMenu {
  constructor(
    session: Session,
    private readonly player: SquidPlayer,
    readonly world: unknown,
    readonly pos: Vec3,
    private readonly state: FurnaceState,
    table: SmeltingTable,
    private readonly valid: () => Promise<boolean>,
  ) {
    super(session, 'minecraft:furnace', 'container.furnace')
    const st = state
    this.addSlot({
      get: () => st.items[0] ?? null,
      set: (item) => {
        if (!(item && sameItem(item, st.items[0]))) {
          st.cookingTotalTime = COOK_TICKS
          st.cookingProgress = 0
        }
        st.items[0] = item
      },
    })
    this.addSlot({
      get: () => st.items[1] ?? null,
      set: (item) => {
        st.items[1] = item
      },
      mayPlace: (item) => table.isFuel(item.type) || (item.name === 'bucket' && !st.items[1]),
    })
    this.addSlot({
      get: () => st.items[2] ?? null,
      set: (item) => {
        st.items[2] = item
      },
      mayPlace: () => false,
    })
    addPlayerSlots(this, session.inv as InventoryStore)
    this.isSmeltable = (s) => table.resultFor(s.type) !== undefined
    this.isFuel = (s) => table.isFuel(s.type)
  }

  private readonly isSmeltable: (s: Stack) => boolean
  private readonly isFuel: (s: Stack) => boolean

  override readData(): number[] {
    return [this.state.litTime, this.state.litDuration, this.state.cookingProgress, this.state.cookingTotalTime]
  }

  override quickMoveStack(index: number): Stack | null {
    return this.quickMoveWith(index, (stack) => {
      if (index === 2) return this.moveItemStackTo(stack, 3, 39, true)[1]
      if (index === 0 || index === 1) return this.moveItemStackTo(stack, 3, 39, false)[1]
      if (this.isSmeltable(stack)) return this.moveItemStackTo(stack, 0, 1, false)[1]
      if (this.isFuel(stack)) return this.moveItemStackTo(stack, 1, 2, false)[1]
      if (index >= 3 && index < 30) return this.moveItemStackTo(stack, 30, 39, false)[1]
      return this.moveItemStackTo(stack, 3, 30, false)[1]
    })
  }

  override async stillValid(): Promise<boolean> {
    return inReach(this.player, this.pos) && this.valid()
  }
}

/** One vanilla furnace tick. */
export function tickFurnace(st: FurnaceState, table: SmeltingTable, stacks: Stacks): void {
  if (st.litTime > 0) st.litTime--
  const [input, fuel] = st.items
  const recipe = input ? table.resultFor(input.type) : undefined
  const result = recipe ? stacks.make(recipe.id, recipe.count) : null
  const canBurn = (): boolean => {
    const out = st.items[2]
    if (!st.items[0] || !result) return false
    if (!out) return true
    return sameItem(out, result) && countOf(out) + countOf(result) <= Math.min(64, maxStackOf(out))
  }
  if (st.litTime > 0 || (fuel && input)) {
    if (st.litTime <= 0 && canBurn() && fuel) {
      st.litTime = table.burnTime(fuel.type)
      st.litDuration = st.litTime
      if (st.litTime > 0)
        st.items[1] = fuel.name === 'lava_bucket' ? stacks.make('bucket', 1) : stacks.withCount(fuel, countOf(fuel) - 1)
    }
    if (st.litTime > 0 && canBurn()) {
      st.cookingProgress++
      if (st.cookingProgress >= st.cookingTotalTime) {
        st.cookingProgress = 0
        st.cookingTotalTime = COOK_TICKS
        const out = st.items[2]
        st.items[2] = out ? stacks.withCount(out, countOf(out) + countOf(result)) : result
        st.items[0] = stacks.withCount(st.items[0]!, countOf(st.items[0]) - 1)
      }
    } else st.cookingProgress = 0
  } else if (st.litTime <= 0 && st.cookingProgress > 0) {
    st.cookingProgress = Math.max(0, Math.min(st.cookingProgress - 2, st.cookingTotalTime))
  }
}

interface WorldLike {
  getBlockType(p: Vec3): Promise<number>
  getBlockStateId(p: Vec3): Promise<number>
}
type BlockApi = {
  fromStateId(id: number, biome: number): { getProperties(): Record<string, unknown> }
  fromProperties(name: string, props: Record<string, unknown>, biome: number): { stateId: number }
}

async function setLit(
  serv: SquidServer,
  world: WorldLike,
  pos: Vec3,
  lit: boolean,
  Block: BlockApi,
  furnaceId: number,
): Promise<void> {
  if ((await world.getBlockType(pos)) !== furnaceId) return
  const props = Block.fromStateId(await world.getBlockStateId(pos), 0).getProperties()
  const stateId = Block.fromProperties('furnace', { ...props, lit }, 0).stateId
  await (serv.setBlock as (w: unknown, p: Vec3, s: number) => Promise<void>)(world, pos, stateId)
}

const plugin: SquidPlugin = {
  name: 'furnace',
  server(serv) {
    const table = smeltingTable(serv.registry as unknown as SmeltingRegistry)
    const stacks = new Stacks(serv)
    const Block = (require('prismarine-block') as (r: unknown) => BlockApi)(serv.registry)
    const furnaceId = serv.registry.blocksByName.furnace.id as number
    const store = new BlockStore<FurnaceState>(serv, ['furnace'], newState, (s) => s.items)
    const worlds = new Set<unknown>()
    const speed = furnaceSpeed(serv, plugin.name)

    const onBlockInteraction = serv.onBlockInteraction as (
      name: string,
      h: (d: { block: { position: Vec3 }; player: SquidPlayer }) => boolean,
    ) => void
    onBlockInteraction('furnace', ({ block, player }) => {
      const held = player.inventory.slots[36 + Number(player.heldItemSlot ?? 0)]
      if (player.crouching && held) return false
      const pos = block.position.clone()
      const world = player.world as unknown as WorldLike
      worlds.add(player.world)
      const state = store.getOrCreate(player.world, pos)
      const session = installSession(player, serv)
      const valid = async (): Promise<boolean> => (await world.getBlockType(pos)) === furnaceId
      session.open(new FurnaceMenu(session, player, player.world, pos, state, table, valid))
      return true
    })

    serv.on('tick', () => {
      for (const world of worlds) {
        for (const { pos, state } of store.entries(world)) {
          const idle = state.litTime <= 0 && state.cookingProgress <= 0 && !(state.items[0] && state.items[1])
          if (idle) continue
          const wasLit = state.litTime > 0
          for (let i = 0; i < speed; i++) tickFurnace(state, table, stacks)
          if (wasLit !== state.litTime > 0)
            void setLit(serv, world as WorldLike, pos, state.litTime > 0, Block, furnaceId).catch((err: unknown) =>
              log.error('furnace lit state failed', { err }),
            )
          for (const s of viewers(serv, (m) => isPositionedAt(m, world, pos))) s.sync()
        }
      }
    })
    serv.on('newPlayer', (player: SquidPlayer) => store.watchPlayer(player))
  },
}
export default plugin
