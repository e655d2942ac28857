/**
 * Block placement (`block_place`, vanilla use_item_on) that uses the item the client held when it sent the packet.
 * flying-squid's placeBlock handler reads `player.heldItemSlot` only after awaiting the world (twice), so a
 * `held_item_slot` or `window_click` that follows the block_place in the packet stream — a bot switching back to
 * its tool right after placing — is applied first: the server then places and consumes the newly selected item
 * (cobblestone instead of the dirt the client placed), and its decrement writes the captured stack into whatever
 * slot is selected by then, overwriting that stack. This replaces that handler (found by its source text, like the
 * windows plugin does) with one that snapshots hand, slot and item synchronously in packet order, handles the
 * packets of a player one at a time, and at commit takes one item from that slot only if it still holds the same
 * item (an immutable update, so the windows session syncs the client). Also vanilla: the off hand (hand 1) places
 * from slot 45, a block is only placed into a replaceable position (air, water, grass …), never over a block, a
 * solid one never into a player's box (by the position the server last had), and every packet is answered with the
 * states of the clicked block and of the block across the clicked face, placed or not — so a client whose placement
 * was refused (a bot jump-placing under itself a tick early) learns it at once instead of waiting out mineflayer's
 * 5 s placement timeout. A placement into a block the player has just finished digging waits for that dig to reach
 * the world (`trackDigs`). Interactions (`serv.interactWithBlock`) and item handlers (`serv.onItemPlace`) work as
 * before.
 */
import { Vec3 } from 'vec3'
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid.js'
import { onceEvent } from '../../util/async.js'
import { logger } from '../../util/log.js'
import { countOf, sameItem, Stacks, type Stack } from '../windows/stack.js'
import { cellKey, FACES, overlapsCell } from '../../util/vec.js'

type Listener = (...args: any[]) => void // eslint-disable-line @typescript-eslint/no-explicit-any -- EventEmitter listeners are untyped
interface Emitter {
  listeners(ev: string): Listener[]
  removeListener(ev: string, l: Listener): void
  on(ev: string, l: Listener): void
}
interface PlacePacket {
  location: { x: number; y: number; z: number }
  direction: number
  hand?: number
  cursorY?: number
}
interface WorldBlock {
  type: number
  name: string
  position?: Vec3
  direction?: number
}
interface Inventory {
  slots: Array<Stack | null | undefined>
  updateSlot(slot: number, item: Stack | null): void
}
interface BlockInfo {
  id: number
  name: string
  material?: string
  minStateId: number
  boundingBox?: string
}
/** What the client held when it sent the packet: the slot it used and a copy of the stack in it. */
interface Held {
  slot: number
  item: Stack | null
}

const log = logger('server.place')

/**
 * Longest wait for a dig the client has finished to reach the world (a finished dig of air, which flying-squid ignores,
 * never reports back).
 */
const DIG_WRITE_WAIT_MS = 1000

/**
 * The digs a player has finished (block_dig status 2) that the world does not show yet: mineflayer sets the block to
 * air the moment it sends the packet and may place into it in the same breath, while flying-squid handles the dig
 * after awaiting the world and its plugins — a placement read in between found the block still there and was refused
 * (bench p7 compass seed 2: a pocket dug for a second furnace, "the block is still air"). Vanilla handles a player's
 * packets in order; `settled(pos)` waits until the dig of `pos`, if one is under way, is done (its `dug_done`).
 */
function trackDigs(player: SquidPlayer): (pos: Vec3) => Promise<void> {
  const pending = new Map<string, Promise<void>>()
  ;(player._client as unknown as Emitter).on(
    'block_dig',
    (p: { status: number; location: { x: number; y: number; z: number } }) => {
      if (p.status !== 2) return
      const key = cellKey(p.location)
      if (pending.has(key)) return
      const done = onceEvent<[{ position?: Vec3 }]>(player as unknown as Emitter, 'dug_done', {
        timeoutMs: DIG_WRITE_WAIT_MS,
        filter: (d) => d?.position !== undefined && cellKey(d.position) === key,
      }).then(
        () => undefined,
        () => undefined, // timed out: a finished dig of air, which flying-squid ignores
      )
      pending.set(key, done)
      void done.then(() => pending.delete(key))
    },
  )
  return (pos) => pending.get(cellKey(pos)) ?? Promise.resolve()
}

const DIRECTION_VECTORS = FACES
const DIRECTION_AXIS = ['y', 'y', 'z', 'z', 'x', 'x']
const FACINGS = ['north', 'east', 'south', 'west']
const MATERIAL_SOUND: Record<string, string> = {
  rock: 'stone',
  dirt: 'grass',
  plant: 'grass',
  wool: 'cloth',
  web: 'cloth',
  wood: 'wood',
}
/** Blocks vanilla 1.20.2 lets a placed block replace (`canBeReplaced`; snow layers are left out). */
export const REPLACEABLE = new Set([
  'air',
  'cave_air',
  'void_air',
  'water',
  'lava',
  'grass',
  'short_grass',
  'fern',
  'tall_grass',
  'large_fern',
  'dead_bush',
  'vine',
  'glow_lichen',
  'fire',
  'soul_fire',
  'seagrass',
  'tall_seagrass',
  'structure_void',
  'light',
  'bubble_column',
  'crimson_roots',
  'warped_roots',
  'nether_sprouts',
  'hanging_roots',
])

/** Snapshot of the held stack, taken when the packet arrives (before anything else of the player is handled). */
function heldNow(player: SquidPlayer, inv: Inventory, stacks: Stacks, hand: number | undefined): Held {
  const slot = hand === 1 ? 45 : 36 + Number(player.heldItemSlot ?? 0)
  return { slot, item: stacks.copy(inv.slots[slot]) }
}

async function place(
  serv: SquidServer,
  player: SquidPlayer,
  inv: Inventory,
  stacks: Stacks,
  p: PlacePacket,
  held: Held,
  settled: (pos: Vec3) => Promise<void>,
): Promise<void> {
  const registry = serv.registry
  const blocks = registry.blocks as Record<number, BlockInfo | undefined>
  const world = player.world as unknown as { getBlock(pos: Vec3): Promise<WorldBlock> }
  const referencePosition = new Vec3(p.location.x, p.location.y, p.location.z)
  const block = await world.getBlock(referencePosition)
  block.position = referencePosition
  block.direction = p.direction
  const interact = serv.interactWithBlock as (d: { block: WorldBlock; player: SquidPlayer }) => Promise<boolean>
  if (await interact({ block, player })) return
  if (player.gameMode >= 2) return
  const item = held.item
  if (!item || p.direction < 0 || p.direction > 5) return

  // Clicking a replaceable block (tall grass, water …) places into it, otherwise next to the clicked face.
  const directionVector = REPLACEABLE.has(block.name) ? new Vec3(0, 0, 0) : DIRECTION_VECTORS[p.direction]!
  const placedPosition = referencePosition.plus(directionVector)
  await settled(placedPosition)
  const there = await world.getBlock(placedPosition)
  if (!REPLACEABLE.has(there.name)) {
    log.debug('placement into an occupied position refused', { at: placedPosition, there: there.name })
    return
  }

  const dx = player.position.x - (placedPosition.x + 0.5)
  const dz = player.position.z - (placedPosition.z + 0.5)
  const angle = (Math.atan2(dx, -dz) * 180) / Math.PI + 180 // [0, 360[
  const cursorY = serv.supportFeature('blockPlaceHasIntCursor') ? Number(p.cursorY ?? 0) / 16 : Number(p.cursorY ?? 0)
  const half = p.direction === 0 ? 'top' : p.direction === 1 ? 'bottom' : cursorY > 0.5 ? 'top' : 'bottom'
  const placeItem = serv.placeItem as (
    d: Record<string, unknown>,
  ) => Promise<{ id?: number; data?: number }> | { id?: number; data?: number }
  const { id, data } = await placeItem({
    item,
    angle,
    direction: p.direction,
    player,
    referencePosition,
    placedPosition,
    directionVector,
    properties: {
      rotation: Math.floor(angle / 22.5 + 0.5) & 0xf,
      axis: DIRECTION_AXIS[p.direction],
      facing: FACINGS[Math.floor(angle / 90 + 0.5) & 0x3],
      half,
      waterlogged: there.name === 'water',
    },
  })
  const info = id === undefined ? undefined : blocks[id]
  if (!info) return
  const inTheWay = serv.players.find((o) => o.world === player.world && overlapsCell(o.position, placedPosition))
  if (info.boundingBox === 'block' && inTheWay) {
    log.debug('placement into a player refused', { at: placedPosition, player: inTheWay.username })
    return
  }

  // Commit synchronously: one item from the slot the client used, only if it still holds that item.
  if (player.gameMode === 0) {
    const cur = inv.slots[held.slot] ?? null
    if (!sameItem(cur, item)) {
      log.debug('held stack changed before the placement committed', { slot: held.slot })
      return
    }
    inv.updateSlot(held.slot, stacks.withCount(cur!, countOf(cur) - 1))
  }
  const playSound = serv.playSound as (s: string, w: unknown, pos: Vec3, o: Record<string, unknown>) => void
  playSound(
    `dig.${MATERIAL_SOUND[info.material ?? 'rock'] ?? 'stone'}`,
    player.world,
    placedPosition.offset(0.5, 0.5, 0.5),
    { pitch: 0.8 },
  )
  const stateId = serv.supportFeature('theFlattening')
    ? info.minStateId + Number(data ?? 0)
    : (info.id << 4) | Number(data ?? 0)
  const setBlock = player.setBlock as (pos: Vec3, state: number) => Promise<void> | void
  await setBlock.call(player, placedPosition, stateId)
}

/**
 * Vanilla's answer to every use_item_on, whatever happened: the clicked block's state, then the state across the
 * clicked face (mineflayer's placeBlock settles on exactly these two updates).
 */
async function echo(player: SquidPlayer, p: PlacePacket): Promise<void> {
  const world = player.world as unknown as { getBlockStateId(pos: Vec3): Promise<number> }
  const send = player.sendBlock as (pos: Vec3, stateId: number) => void
  const ref = new Vec3(p.location.x, p.location.y, p.location.z)
  const face = DIRECTION_VECTORS[p.direction]
  for (const pos of face ? [ref, ref.plus(face)] : [ref]) send.call(player, pos, await world.getBlockStateId(pos))
}

/** Replace flying-squid's block_place listener; call once its player plugins are loaded (the `asap` event). */
export function installPlacement(player: SquidPlayer, serv: SquidServer): void {
  const client = player._client as unknown as Emitter
  const theirs = client.listeners('block_place').filter((l) => l.toString().includes('placeItem'))
  if (theirs.length !== 1) log.warn('expected one flying-squid block_place listener', { found: theirs.length })
  for (const l of theirs) client.removeListener('block_place', l)
  const inv = player.inventory as unknown as Inventory
  const stacks = new Stacks(serv)
  const settled = trackDigs(player)
  let queue: Promise<void> = Promise.resolve()
  client.on('block_place', (p: PlacePacket) => {
    const held = heldNow(player, inv, stacks, p.hand)
    queue = queue
      .then(() => place(serv, player, inv, stacks, p, held, settled))
      .catch((err: unknown) => {
        log.error('block placement failed', { err })
      })
      .then(() => echo(player, p))
      .catch((err: unknown) => {
        log.debug('block placement echo failed', { err })
      })
  })
}

const plugin: SquidPlugin = {
  name: 'place-fix',
  player(player, serv) {
    const p = player as unknown as { once(ev: string, l: () => void): void }
    p.once('asap', () => {
      installPlacement(player, serv)
    })
  },
}
export default plugin
