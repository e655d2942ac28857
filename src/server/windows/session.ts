/**
 * Per-player window session: which menu is open (the inventory menu, window 0, when none), the click handler for
 * `window_click` and `close_window`, and network sync done the vanilla 1.17+ way — each menu keeps a "remote" copy
 * of what the client shows (updated from the click's changedSlots/cursorItem claims) and `broadcastChanges` sends
 * `set_slot` for every slot where server and remote differ, a full `window_items` when the click's stateId is stale
 * or the cursor differs (mineflayer only reads the cursor from window_items), and `craft_progress_bar` for changed
 * window properties. Changes to `player.inventory` made by any plugin are synced through the open menu, so the
 * client's container view and inventory never drift. It replaces flying-squid's own window_click handler and its
 * window-0 `set_slot` writer (both found by their source text) and re-implements the equipment broadcast that
 * writer did.
 */
import { createRequire } from 'node:module'
import { Vec3 } from 'vec3'
import type { SquidPlayer, SquidServer } from '../squid.js'
import { logger } from '../../util/log.js'
import { InventoryMenu, type InventoryStore } from './inventory-menu.js'
import type { Menu, MenuOwner } from './menu.js'
import { countOf, maxStackOf, sameItem, sameStack, Stacks, type Stack } from './stack.js'

const require = createRequire(import.meta.url)
type Listener = (...args: any[]) => void // eslint-disable-line @typescript-eslint/no-explicit-any -- EventEmitter listeners are untyped
interface Emitter {
  listeners(ev: string): Listener[]
  removeListener(ev: string, l: Listener): void
  on(ev: string, l: Listener): void
}
interface ClickPacket {
  windowId: number
  stateId: number
  slot: number
  mouseButton: number
  mode: number
  changedSlots?: Array<{ location: number; item: unknown }>
  cursorItem?: unknown
}

const TOSS_PICKUP_DELAY_MS = 2000
const ITEM_LIFETIME_MS = 5 * 60_000
const VALIDITY_CHECK_TICKS = 10
const PROPERTY_RESEND_DELAY_MS = 100
export const log = logger('server.windows')
const sessions = new WeakMap<SquidPlayer, Session>()
const byServer = new WeakMap<SquidServer, Set<Session>>()

export class Session implements MenuOwner {
  readonly stacks: Stacks
  readonly inv: InventoryStore
  readonly invMenu: InventoryMenu
  menu: Menu
  private suppress = 0
  private counter = 0
  private readonly typeIds: Record<string, { type: number } | null>

  constructor(
    readonly player: SquidPlayer,
    readonly serv: SquidServer,
  ) {
    this.stacks = new Stacks(serv)
    this.inv = player.inventory as unknown as InventoryStore
    this.invMenu = new InventoryMenu(this, this.inv)
    this.invMenu.remoteSlots = this.invMenu.slots.map(() => null)
    this.menu = this.invMenu
    this.typeIds = (
      require('prismarine-windows') as (r: unknown) => { windows: Record<string, { type: number } | null> }
    )(serv.registry).windows
  }

  // --- MenuOwner ---------------------------------------------------------------------------------------------
  creative(): boolean {
    return this.player.gameMode === 1
  }
  private swapIndex(button: number): number {
    return button === 40 ? 45 : 36 + button
  }
  getSwapSlot(button: number): Stack | null {
    return this.inv.slots[this.swapIndex(button)] ?? null
  }
  setSwapSlot(button: number, item: Stack | null): void {
    this.inv.updateSlot(this.swapIndex(button), item)
  }

  /** Vanilla Inventory.add: fill matching stacks (held slot, offhand, hotbar, main), then free slots (hotbar first). */
  addToInventory(item: Stack): Stack | null {
    let left = countOf(item)
    const held = 36 + Number(this.player.heldItemSlot ?? 0)
    const order = [
      held,
      45,
      ...Array.from({ length: 9 }, (_, i) => 36 + i),
      ...Array.from({ length: 27 }, (_, i) => 9 + i),
    ]
    for (const s of order) {
      const cur = this.inv.slots[s]
      if (left <= 0 || !cur || !sameItem(cur, item)) continue
      const add = Math.min(left, maxStackOf(cur) - countOf(cur))
      if (add > 0) {
        this.inv.updateSlot(s, this.stacks.withCount(cur, countOf(cur) + add))
        left -= add
      }
    }
    for (const s of order.slice(2)) {
      if (left <= 0) break
      if (this.inv.slots[s]) continue
      const add = Math.min(left, maxStackOf(item))
      this.inv.updateSlot(s, this.stacks.withCount(item, add))
      left -= add
    }
    return this.stacks.withCount(item, left)
  }

  /** Toss from the player (the drops-items plugin recognises the player's own position object as a toss). */
  drop(item: Stack): void {
    const spawnObject = this.serv.spawnObject as (t: number, w: unknown, p: Vec3, o: Record<string, unknown>) => unknown
    spawnObject(this.serv.registry.entitiesByName.item.id as number, this.player.world, this.player.position, {
      velocity: new Vec3(0, 0, 0),
      itemId: item.type,
      itemCount: countOf(item),
      pickupTime: TOSS_PICKUP_DELAY_MS,
      deathTime: ITEM_LIFETIME_MS,
    })
  }

  // --- sync --------------------------------------------------------------------------------------------------
  private write(name: string, params: Record<string, unknown>): void {
    try {
      this.player._client.write(name, params)
    } catch {
      /* connection closing */
    }
  }

  /** Run `fn` without per-slot syncing, then sync once. */
  batch<T>(fn: () => T): T {
    this.suppress++
    try {
      return fn()
    } finally {
      this.suppress--
      if (this.suppress === 0) this.sync()
    }
  }

  sync(): void {
    if (this.suppress === 0) this.broadcastChanges(this.menu)
  }

  fullState(menu: Menu): void {
    menu.forceSend.clear()
    menu.remoteSlots = menu.slots.map((s) => this.stacks.copy(s.item))
    menu.remoteCarried = this.stacks.copy(menu.carried)
    this.write('window_items', {
      windowId: menu.windowId,
      stateId: menu.incrementStateId(),
      items: menu.slots.map((s) => this.stacks.toNet(s.item)),
      carriedItem: this.stacks.toNet(menu.carried),
    })
    menu.remoteData = []
    this.sendData(menu)
  }

  private sendData(menu: Menu): void {
    menu.readData().forEach((v, i) => {
      if (menu.remoteData[i] === v) return
      menu.remoteData[i] = v
      this.write('craft_progress_bar', { windowId: menu.windowId, property: i, value: v })
    })
  }

  broadcastChanges(menu: Menu): void {
    if (!sameStack(menu.carried, menu.remoteCarried)) {
      this.fullState(menu)
      return
    }
    const forced = [...menu.forceSend].sort((a, b) => a - b)
    menu.forceSend.clear()
    const send = (i: number): void => {
      const cur = menu.slots[i]!.item
      menu.remoteSlots[i] = this.stacks.copy(cur)
      this.write('set_slot', {
        windowId: menu.windowId,
        stateId: menu.incrementStateId(),
        slot: i,
        item: this.stacks.toNet(cur),
      })
    }
    menu.slots.forEach((s, i) => {
      if (!forced.includes(i) && !sameStack(s.item, menu.remoteSlots[i])) send(i)
    })
    // Forced slots (the crafting result) go last: mineflayer continues on that packet, so the others must be in.
    for (const i of forced) send(i)
    this.sendData(menu)
  }

  // --- packets -----------------------------------------------------------------------------------------------
  handleClick(p: ClickPacket): void {
    const menu = this.menu
    if (p.windowId !== menu.windowId) return
    if (this.player.gameMode === 3) {
      this.fullState(menu)
      return
    }
    if (!menu.isValidSlot(p.slot)) return
    const stale = p.stateId !== menu.stateId
    this.suppress++
    try {
      menu.clicked(p.slot, p.mouseButton, p.mode)
    } catch (err) {
      log.error('window click failed', { err, slot: p.slot, mode: p.mode, button: p.mouseButton })
    } finally {
      this.suppress--
    }
    for (const c of p.changedSlots ?? [])
      if (c.location >= 0 && c.location < menu.slots.length) menu.remoteSlots[c.location] = this.stacks.fromNet(c.item)
    menu.remoteCarried = this.stacks.fromNet(p.cursorItem ?? { present: false })
    if (stale) this.fullState(menu)
    else this.broadcastChanges(menu)
    syncAll(this.serv)
  }

  handleClose(windowId: number): void {
    if (this.menu !== this.invMenu && windowId === this.menu.windowId) this.closeContainer(false)
    else if (windowId === 0 && this.menu === this.invMenu)
      this.batch(() => {
        this.invMenu.removed()
        this.returnCarried(this.invMenu)
      })
  }

  private returnCarried(menu: Menu): void {
    const c = menu.carried
    menu.carried = null
    if (!c) return
    const rest = this.addToInventory(c)
    if (rest) this.drop(rest)
  }

  /** Open a container menu (closing the current one first), vanilla openMenu + sendAllDataToRemote. */
  open(menu: Menu): void {
    if (this.menu !== this.invMenu) {
      this.write('close_window', { windowId: this.menu.windowId })
      this.closeContainer(true)
    }
    this.counter = (this.counter % 100) + 1
    menu.windowId = this.counter
    this.menu = menu
    const typeId = this.typeIds[menu.type]?.type
    if (typeId === undefined) throw new Error(`unknown window type ${menu.type}`)
    this.write('open_window', {
      windowId: menu.windowId,
      inventoryType: typeId,
      windowTitle: JSON.stringify({ translate: menu.title }),
    })
    this.fullState(menu)
    // Window properties again a moment later: mineflayer's openFurnace listens for them only after its windowOpen
    // promise settles, so the ones that came with the window items (the only cook-total value) can be missed.
    if (menu.readData().length > 0) {
      setTimeout(() => {
        if (this.menu === menu) {
          menu.remoteData = []
          this.sendData(menu)
        }
      }, PROPERTY_RESEND_DELAY_MS)
    }
  }

  /**
   * Close the open container. When the client closed it, its inventory view is the container's player region
   * (mineflayer copies it back), so that becomes the inventory menu's remote state; after a server-side close
   * mineflayer keeps its old inventory view, which the inventory menu's remote state still describes.
   */
  closeContainer(byServer: boolean): void {
    const old = this.menu
    if (old === this.invMenu) return
    this.suppress++
    try {
      old.removed()
      this.returnCarried(old)
    } catch (err) {
      log.error('closing window failed', { err })
    } finally {
      this.suppress--
    }
    this.menu = this.invMenu
    if (!byServer) {
      const start = old.slots.length - 36
      for (let j = 0; j < 36; j++) this.invMenu.remoteSlots[9 + j] = old.remoteSlots[start + j] ?? null
    }
    this.sync()
    syncAll(this.serv)
  }

  /** Server-side close (block gone, out of reach, player left). */
  forceClose(): void {
    if (this.menu === this.invMenu) return
    this.write('close_window', { windowId: this.menu.windowId })
    this.closeContainer(true)
  }

  async checkValid(): Promise<void> {
    const menu = this.menu
    if (menu === this.invMenu) return
    const ok = await menu.stillValid().catch(() => false)
    if (!ok && this.menu === menu) this.forceClose()
  }

  onInventorySlot(slot: number, item: Stack | null): void {
    const eq =
      slot === 36 + Number(this.player.heldItemSlot ?? 0)
        ? 0
        : slot === 45
          ? 1
          : slot >= 5 && slot <= 8
            ? 10 - slot
            : -1
    if (eq >= 0) {
      const setEquipment = this.player.setEquipment as ((s: number, i: Stack | null) => void) | undefined
      setEquipment?.call(this.player, eq, item)
      const writeOthers = this.player._writeOthersNearby as
        | ((n: string, p: Record<string, unknown>) => void)
        | undefined
      writeOthers?.call(this.player, 'entity_equipment', {
        entityId: this.player.id,
        equipments: [{ slot: eq, item: this.stacks.toNet(item) }],
      })
    }
    this.sync()
  }
}

/** Sync every player's open menu (after a shared container changed). */
export function syncAll(serv: SquidServer): void {
  for (const s of byServer.get(serv) ?? []) s.sync()
}

/** Sessions whose open menu satisfies `pred` (e.g. everyone looking at one furnace). */
export function viewers(serv: SquidServer, pred: (menu: Menu) => boolean): Session[] {
  return [...(byServer.get(serv) ?? [])].filter((s) => s.menu !== s.invMenu && pred(s.menu))
}

/** Take over window handling for a player; call once all of flying-squid's player plugins are loaded. */
export function installSession(player: SquidPlayer, serv: SquidServer): Session {
  const existing = sessions.get(player)
  if (existing) return existing
  const session = new Session(player, serv)
  sessions.set(player, session)
  let set = byServer.get(serv)
  if (!set) {
    const all = new Set<Session>()
    set = all
    byServer.set(serv, all)
    // One validity check for all sessions every few ticks (vanilla checks stillValid every tick).
    let ticks = 0
    serv.on('tick', () => {
      if (++ticks % VALIDITY_CHECK_TICKS === 0) for (const s of all) void s.checkValid()
    })
  }
  set.add(session)
  const client = player._client as unknown as Emitter
  for (const l of client.listeners('window_click'))
    if (l.toString().includes('acceptClick')) client.removeListener('window_click', l)
  const inv = player.inventory as unknown as Emitter
  for (const l of inv.listeners('updateSlot'))
    if (l.toString().includes("'set_slot'")) inv.removeListener('updateSlot', l)
  inv.on('updateSlot', (slot: number, _old: Stack | null, item: Stack | null) => session.onInventorySlot(slot, item))
  client.on('window_click', (p: ClickPacket) => session.handleClick(p))
  client.on('close_window', (p: { windowId: number }) => session.handleClose(p.windowId))
  client.on('end', () => {
    session.forceClose()
    set!.delete(session)
  })
  return session
}
