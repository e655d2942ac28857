/**
 * Chests that store items: chests, trapped chests, barrels and shulker boxes keep 27 slots per block position
 * (in memory, for the server's lifetime), ender chests 27 slots per player. Right-click opens a vanilla 9×3
 * window (`minecraft:generic_9x3`, or `minecraft:shulker_box`) whose 27 container slots are followed by the
 * player's 36 inventory slots, with the real inventory contents, so mineflayer's openContainer / deposit /
 * withdraw work unchanged and the client's inventory view stays right. Replaces flying-squid's chest plugin,
 * which opened an empty 27-slot window and stored nothing. A chest, trapped chest or ender chest with a solid
 * block on top does not open (vanilla). Breaking a container drops its contents. Chests never join into double
 * chests here (flying-squid places every chest as "single").
 */
import type { Vec3 } from 'vec3'
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid.js'
import { BlockStore, type PositionedMenu } from '../windows/block-store.js'
import { addPlayerSlots, type InventoryStore } from '../windows/inventory-menu.js'
import { Menu } from '../windows/menu.js'
import { installSession, type Session } from '../windows/session.js'
import type { Stack } from '../windows/stack.js'
import { inReach } from './crafting.js'

export const CHEST_SLOTS = 27
type Contents = Array<Stack | null>
const newContents = (): Contents => Array.from({ length: CHEST_SLOTS }, () => null)

interface Kind {
  type: string
  title: string
  needsRoomAbove: boolean
}

export class ChestMenu extends Menu implements PositionedMenu {
  constructor(
    session: Session,
    private readonly player: SquidPlayer,
    readonly world: unknown,
    readonly pos: Vec3,
    private readonly items: Contents,
    kind: Kind,
    private readonly valid: () => Promise<boolean>,
  ) {
    super(session, kind.type, kind.title)
    const shulker = kind.type === 'minecraft:shulker_box'
    for (let i = 0; i < CHEST_SLOTS; i++) {
      this.addSlot({
        get: () => this.items[i] ?? null,
        set: (item) => {
          this.items[i] = item
        },
        mayPlace: shulker ? (item) => !item.name.endsWith('shulker_box') : undefined,
      })
    }
    addPlayerSlots(this, session.inv as InventoryStore)
  }

  override quickMoveStack(index: number): Stack | null {
    return this.quickMoveWith(index, (stack) =>
      index < CHEST_SLOTS
        ? this.moveItemStackTo(stack, CHEST_SLOTS, this.slots.length, true)[1]
        : this.moveItemStackTo(stack, 0, CHEST_SLOTS, false)[1],
    )
  }

  override async stillValid(): Promise<boolean> {
    return inReach(this.player, this.pos) && this.valid()
  }
}

function kindOf(name: string): Kind {
  if (name === 'barrel') return { type: 'minecraft:generic_9x3', title: 'container.barrel', needsRoomAbove: false }
  if (name === 'ender_chest')
    return { type: 'minecraft:generic_9x3', title: 'container.enderchest', needsRoomAbove: true }
  if (name.endsWith('shulker_box'))
    return { type: 'minecraft:shulker_box', title: 'container.shulkerBox', needsRoomAbove: false }
  return { type: 'minecraft:generic_9x3', title: 'container.chest', needsRoomAbove: true }
}

interface BlockInfo {
  type: number
  name: string
  boundingBox?: string
  transparent?: boolean
}
interface WorldLike {
  getBlock(p: Vec3): Promise<BlockInfo>
  getBlockType(p: Vec3): Promise<number>
}

const stores = new WeakMap<SquidServer, BlockStore<Contents>>()
const enderChests = new WeakMap<SquidServer, Map<string, Contents>>()

function setup(serv: SquidServer): BlockStore<Contents> {
  const names = (serv.registry.blocksArray as Array<{ name: string }>)
    .map((b) => b.name)
    .filter((n) => n === 'chest' || n === 'trapped_chest' || n === 'barrel' || n.endsWith('shulker_box'))
  const s = new BlockStore<Contents>(serv, names, newContents, (c) => c)
  const onBlockInteraction = serv.onBlockInteraction as (
    name: string,
    h: (d: { block: BlockInfo & { position: Vec3 }; player: SquidPlayer }) => Promise<boolean>,
  ) => void
  for (const name of [...names, 'ender_chest']) {
    const kind = kindOf(name)
    const typeId = serv.registry.blocksByName[name].id as number
    onBlockInteraction(name, async ({ block, player }) => {
      const held = player.inventory.slots[36 + Number(player.heldItemSlot ?? 0)]
      if (player.crouching && held) return false
      const world = player.world as unknown as WorldLike
      const pos = block.position.clone()
      if (kind.needsRoomAbove) {
        const above = await world.getBlock(pos.offset(0, 1, 0))
        if (above.boundingBox === 'block' && !above.transparent) return true
      }
      let items: Contents
      if (name === 'ender_chest') {
        const mine = enderChests.get(serv) ?? new Map<string, Contents>()
        enderChests.set(serv, mine)
        items = mine.get(player.uuid) ?? newContents()
        mine.set(player.uuid, items)
      } else items = s.getOrCreate(player.world, pos)
      const session = installSession(player, serv)
      const valid = async (): Promise<boolean> => (await world.getBlockType(pos)) === typeId
      session.open(new ChestMenu(session, player, player.world, pos, items, kind, valid))
      return true
    })
  }
  return s
}

const plugin: SquidPlugin = {
  name: 'chest',
  server(serv) {
    stores.set(serv, setup(serv))
  },
  player(player, serv) {
    stores.get(serv)?.watchPlayer(player)
  },
}
export default plugin
