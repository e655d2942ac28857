/**
 * Crafting tables: right-clicking a placed crafting table opens a vanilla crafting window (type
 * `minecraft:crafting`: 0 result, 1-9 the 3×3 grid, 10-36 main inventory, 37-45 hotbar) instead of flying-squid's
 * default of placing the held item against it. Results come from every minecraft-data recipe for the server's
 * version (src/server/windows/recipes.ts); taking the result consumes the ingredients, shift-click crafts
 * repeatedly. The grid belongs to the window: closing it (or walking away, or the table breaking) returns the
 * grid's items to the player, as vanilla does. The 2×2 grid of the player inventory is in windows/inventory-menu.ts.
 */
import type { Vec3 } from 'vec3'
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid.js'
import { CraftingGrid } from '../windows/crafting-grid.js'
import { addPlayerSlots, type InventoryStore } from '../windows/inventory-menu.js'
import { Menu } from '../windows/menu.js'
import { installSession, type Session } from '../windows/session.js'
import type { Stack } from '../windows/stack.js'

/** Vanilla reach check for containers: within 8 blocks of the block centre. */
export const CONTAINER_REACH_SQ = 64

export function inReach(player: SquidPlayer, pos: Vec3): boolean {
  return player.position.distanceSquared(pos.offset(0.5, 0.5, 0.5)) <= CONTAINER_REACH_SQ
}

export class CraftingTableMenu extends Menu {
  readonly grid: CraftingGrid
  private readonly cells: Array<Stack | null> = Array.from({ length: 9 }, () => null)

  constructor(
    private readonly session: Session,
    private readonly serv: SquidServer,
    readonly pos: Vec3,
  ) {
    super(session, 'minecraft:crafting', 'container.crafting')
    this.grid = new CraftingGrid(this, 3, 3, {
      get: (i) => this.cells[i] ?? null,
      set: (i, item) => {
        this.cells[i] = item
      },
    })
    addPlayerSlots(this, session.inv as InventoryStore)
  }

  override quickMoveStack(index: number): Stack | null {
    if (index === 0) return this.grid.quickMoveResult(10, 46)
    return this.quickMoveWith(index, (stack) => {
      if (index >= 10 && index < 46) {
        const [moved, rest] = this.moveItemStackTo(stack, 1, 10, false)
        if (moved) return rest
        return index < 37
          ? this.moveItemStackTo(stack, 37, 46, false)[1]
          : this.moveItemStackTo(stack, 10, 37, false)[1]
      }
      return this.moveItemStackTo(stack, 10, 46, false)[1]
    })
  }

  override removed(): void {
    for (const it of this.grid.takeAll()) {
      const rest = this.session.addToInventory(it)
      if (rest) this.session.drop(rest)
    }
  }

  override async stillValid(): Promise<boolean> {
    const world = this.session.player.world as unknown as { getBlockType(p: Vec3): Promise<number> }
    const type = await world.getBlockType(this.pos)
    return type === this.serv.registry.blocksByName.crafting_table.id && inReach(this.session.player, this.pos)
  }
}

const plugin: SquidPlugin = {
  name: 'crafting',
  server(serv) {
    const onBlockInteraction = serv.onBlockInteraction as (
      name: string,
      h: (d: { block: { position: Vec3 }; player: SquidPlayer }) => Promise<boolean> | boolean,
    ) => void
    onBlockInteraction('crafting_table', ({ block, player }) => {
      const held = player.inventory.slots[36 + Number(player.heldItemSlot ?? 0)]
      if (player.crouching && held) return false // vanilla: sneak-use with an item places it
      const session = installSession(player, serv)
      session.open(new CraftingTableMenu(session, serv, block.position.clone()))
      return true
    })
  },
}
export default plugin
