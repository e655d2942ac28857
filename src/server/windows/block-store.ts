/**
 * Per-block-position state for container blocks (chest contents, furnace state): one map per world keyed by
 * "x,y,z", created on first use. When a player digs a position (flying-squid's `dug` event, fired before the
 * block changes), the store re-checks it a moment later: if the block is no longer one of the store's block types
 * the contents are dropped as item entities (vanilla) and the state is forgotten, and anybody looking at that
 * container gets their window closed. When something else replaces the block (`serv.setBlock`: `/setblock`, a plugin)
 * the store forgets its state at once, without a drop, as vanilla's replace mode removes the block entity: a furnace
 * placed there later starts empty, not with the fuel still burning in the one before it.
 */
import type { Vec3 } from 'vec3'
import { spawnItemEntity } from '../items.js'
import type { SquidPlayer, SquidServer } from '../squid.js'
import type { Menu } from './menu.js'
import { log, viewers } from './session.js'
import { countOf, type Stack } from './stack.js'
import { cellKey } from '../../util/vec.js'

const RECHECK_DELAY_MS = 150

/** A menu showing a positioned container. */
export interface PositionedMenu extends Menu {
  world: unknown
  pos: Vec3
}
export function isPositionedAt(menu: Menu, world: unknown, pos: Vec3): boolean {
  const m = menu as Partial<PositionedMenu>
  return m.world === world && !!m.pos && m.pos.equals(pos)
}

type SetBlock = (world: unknown, pos: Vec3, stateId: number) => Promise<void>

interface WorldLike {
  getBlockType(p: Vec3): Promise<number>
}

export class BlockStore<T> {
  private readonly worlds = new WeakMap<object, Map<string, { pos: Vec3; state: T }>>()
  /** Positions a player is digging: their recheck drops the contents, so a replacement meanwhile leaves them to it. */
  private readonly digging = new Set<string>()
  private readonly typeIds: Set<number>

  constructor(
    private readonly serv: SquidServer,
    blockNames: string[],
    private readonly create: () => T,
    private readonly contents: (state: T) => Array<Stack | null>,
  ) {
    this.typeIds = new Set(
      blockNames
        .map((n) => serv.registry.blocksByName[n]?.id as number | undefined)
        .filter((x): x is number => x !== undefined),
    )
    const setBlock = serv.setBlock as SetBlock | undefined
    if (typeof setBlock !== 'function') throw new Error("BlockStore needs flying-squid's world plugin (serv.setBlock)")
    serv.setBlock = (async (world: unknown, pos: Vec3, stateId: number): Promise<void> => {
      await setBlock.call(serv, world, pos, stateId)
      if (!this.digging.has(cellKey(pos)) && this.get(world, pos) !== undefined) await this.check(world, pos, false)
    }) satisfies SetBlock
  }

  isStoreBlock(typeId: number): boolean {
    return this.typeIds.has(typeId)
  }

  private map(world: unknown): Map<string, { pos: Vec3; state: T }> {
    let m = this.worlds.get(world as object)
    if (!m) {
      m = new Map()
      this.worlds.set(world as object, m)
    }
    return m
  }

  get(world: unknown, pos: Vec3): T | undefined {
    return this.map(world).get(cellKey(pos))?.state
  }

  getOrCreate(world: unknown, pos: Vec3): T {
    const m = this.map(world)
    const key = cellKey(pos)
    let e = m.get(key)
    if (!e) {
      e = { pos: pos.clone(), state: this.create() }
      m.set(key, e)
    }
    return e.state
  }

  /** All states of one world (for ticking furnaces). */
  entries(world: unknown): Array<{ pos: Vec3; state: T }> {
    return [...this.map(world).values()]
  }

  /** Forget the state at `pos` if the block there is no longer ours; drop its contents when `drop`. */
  async check(world: unknown, pos: Vec3, drop: boolean): Promise<void> {
    const state = this.get(world, pos)
    if (state === undefined) return
    const type = await (world as WorldLike).getBlockType(pos)
    if (this.typeIds.has(type)) return
    this.map(world).delete(cellKey(pos))
    for (const s of viewers(this.serv, (m) => isPositionedAt(m, world, pos))) s.forceClose()
    if (!drop) return
    for (const it of this.contents(state)) {
      if (it && countOf(it) > 0) spawnItemEntity(this.serv, world, pos.offset(0.5, 0.5, 0.5), it.type, countOf(it))
    }
  }

  /** Watch a player's digging so broken containers drop their contents. */
  watchPlayer(player: SquidPlayer): void {
    player.on('dug', (data: { position?: Vec3 }) => {
      const pos = data?.position
      if (!pos || this.get(player.world, pos) === undefined) return
      const world = player.world
      const key = cellKey(pos)
      this.digging.add(key)
      setTimeout(() => {
        void this.check(world, pos.clone(), true)
          .catch((err: unknown) => log.error('container check failed', { err }))
          .finally(() => this.digging.delete(key))
      }, RECHECK_DELAY_MS)
    })
  }
}
