/**
 * Blocks players placed, as far as the bot can tell (issue 20). The vanilla protocol never says who placed a block,
 * so the tracker infers it from what the server shows: a block update that turns an empty block (air, grass, water
 * and other blocks with no collision box) into a solid one, within reach (PLAYER_REACH of the eyes) of another
 * player whose visible held item places that block (when the server has shown what they hold), is recorded as
 * placed by the nearest such player. The bot's own placements are not player-placed: every placement it makes goes
 * through mineflayer's `_genericPlace`, which the tracker wraps to note the destination first. A recorded block
 * that becomes empty or another block is forgotten. Observations are kept per server (the tracker's store is scoped
 * to one) and per dimension, bounded (oldest first), and persisted through a small port into memory.db. Limits (the
 * README's Security section): a player who places while the bot is not near enough to receive the update (outside
 * its loaded chunks), or who stands farther than reach of it, is not recorded; a block a player fills next to the
 * bot with the same item the bot is placing at that very spot is taken as the bot's; falling sand or gravel landing
 * next to a player whose hand is unknown may be recorded as placed.
 */
import type { Bot } from 'mineflayer'
import type { Block } from 'prismarine-block'
import type { Entity } from 'prismarine-entity'
import type { Vec3 } from 'vec3'
import type { PlacedBlock } from '../schemas/placed.js'
import type { Pos } from '../schemas/region.js'
import { logger } from '../util/log.js'
import { EYE_HEIGHT, visibleBlocks } from './vision.js'

const log = logger('perception.placed')

/** Eye-to-block-centre distance within which a player may have placed a block (survival reach 4.5, plus lag). */
export const PLAYER_REACH = 6
/** How long a placement the bot asked for stays its own while the server's update is on its way. */
export const OWN_PLACEMENT_MS = 5000
/** Observations kept in process; the oldest are dropped beyond it. */
export const TRACKED_LIMIT = 10_000

/** The storage the tracker writes through (src/memory/placed.ts, scoped to one server). */
export interface PlacedStorage {
  load(): Promise<PlacedBlock[]>
  save(p: PlacedBlock): Promise<void>
  remove(p: Pick<PlacedBlock, 'dimension' | 'x' | 'y' | 'z'>): Promise<void>
}

/** What the safety policy asks (structurally the rule book's PlacedView). */
export interface PlacedLookup {
  at(p: Pos): { block: string; player: string } | null
  onlyPlaced(blocks: readonly string[]): Array<Pos & { block: string; player: string }>
}

type Placer = (referenceBlock: Block, faceVector: Vec3, options: unknown) => Promise<unknown>

const trackers = new WeakMap<Bot, PlacedBlocks>()

const dimensionOf = (bot: Bot): string => String(bot.game?.dimension ?? 'overworld').replace('minecraft:', '')

/** The player-placed block the tracker attached to `bot` knows at `p`, if any (the hands' last check before digging). */
export function playerPlacedAt(bot: Bot, p: Pos): PlacedBlock | null {
  return trackers.get(bot)?.at(dimensionOf(bot), p) ?? null
}
const keyOf = (dimension: string, p: Pos): string =>
  `${dimension} ${Math.floor(p.x)} ${Math.floor(p.y)} ${Math.floor(p.z)}`
const empty = (b: Block | null): boolean => !b || b.boundingBox === 'empty'

/** Whether holding `item` places `block` (same name, or the wall form of a torch, sign or banner). */
export function itemPlaces(item: string, block: string): boolean {
  return item === block || block.replace('_wall_', '_') === item || block.replace('wall_', '') === item
}

export class PlacedBlocks {
  private readonly blocks = new Map<string, PlacedBlock>()
  private readonly own = new Map<string, number>()
  private storage: PlacedStorage | null = null

  constructor(
    private readonly server: string,
    private readonly limit = TRACKED_LIMIT,
  ) {}

  /** Keep observations in `storage` from now on, after loading what it holds (older than anything seen since). */
  async persist(storage: PlacedStorage): Promise<void> {
    this.storage = storage
    const seen = [...this.blocks.values()]
    this.blocks.clear()
    for (const r of (await storage.load()).reverse()) this.remember(r)
    for (const r of seen) this.remember(r)
  }

  get size(): number {
    return this.blocks.size
  }

  /** All observations, oldest first. */
  all(): PlacedBlock[] {
    return [...this.blocks.values()]
  }

  /** The observation at a position in a dimension, or null. */
  at(dimension: string, p: Pos): PlacedBlock | null {
    return this.blocks.get(keyOf(dimension, p)) ?? null
  }

  /** Watch `bot`'s block updates and its own placements; returns a function that stops watching. */
  attach(bot: Bot): () => void {
    trackers.set(bot, this)
    const b = bot as Bot & { _genericPlace?: Placer }
    const original = b._genericPlace
    if (original) {
      b._genericPlace = (ref, face, options) => {
        const now = Date.now()
        for (const [k, at] of this.own) if (now - at > OWN_PLACEMENT_MS) this.own.delete(k)
        this.own.set(keyOf(dimensionOf(bot), ref.position.plus(face)), now)
        return original.call(bot, ref, face, options)
      }
    }
    const onUpdate = (old: Block | null, now: Block): void => this.observe(bot, old, now)
    bot.on('blockUpdate', onUpdate)
    return () => {
      bot.off('blockUpdate', onUpdate)
      if (original) b._genericPlace = original
      if (trackers.get(bot) === this) trackers.delete(bot)
    }
  }

  /** The policy's questions about `getBot()`'s world (null bot: nothing is known). */
  lookup(getBot: () => Bot | null): PlacedLookup {
    return {
      at: (p) => {
        const bot = getBot()
        const r = bot ? this.at(dimensionOf(bot), p) : null
        return r ? { block: r.block, player: r.player } : null
      },
      onlyPlaced: (names) => {
        const bot = getBot()
        if (!bot?.entity) return []
        const ids = new Set(names.map((n) => bot.registry.blocksByName[n]?.id).filter((id) => id !== undefined))
        const seen = ids.size > 0 ? visibleBlocks(bot, ids, 32, 32) : []
        const dim = dimensionOf(bot)
        const placed = seen.map((s) => this.at(dim, s.position))
        if (placed.length === 0 || placed.some((p) => p === null)) return []
        return placed.map((p) => ({ x: p!.x, y: p!.y, z: p!.z, block: p!.block, player: p!.player }))
      },
    }
  }

  private observe(bot: Bot, old: Block | null, now: Block): void {
    const dim = dimensionOf(bot)
    const key = keyOf(dim, now.position)
    const known = this.blocks.get(key)
    if (known && known.block !== now.name) this.forget(key, known)
    const ownAt = this.own.get(key)
    if (ownAt !== undefined) {
      this.own.delete(key)
      if (Date.now() - ownAt <= OWN_PLACEMENT_MS) return
    }
    if (!empty(old) || now.boundingBox !== 'block' || known?.block === now.name) return
    const player = this.placer(bot, now)
    if (!player) return
    const p = now.position
    this.remember({
      server: this.server,
      dimension: dim,
      x: p.x,
      y: p.y,
      z: p.z,
      block: now.name,
      player,
      createdAt: Date.now(),
    })
    const rec = this.blocks.get(key)!
    void this.storage?.save(rec)
    log.debug('player placed a block', { player, block: now.name, at: `${p.x} ${p.y} ${p.z}` })
  }

  /** The nearest other player within reach whose visible held item places `block`, or null. */
  private placer(bot: Bot, block: Block): string | null {
    const centre = block.position.offset(0.5, 0.5, 0.5)
    let best: { name: string; d: number } | null = null
    for (const e of Object.values(bot.entities) as Entity[]) {
      if (e === bot.entity || e.type !== 'player' || !e.username || e.username === bot.username) continue
      const d = e.position.offset(0, EYE_HEIGHT, 0).distanceTo(centre)
      if (d > PLAYER_REACH) continue
      const held = e.heldItem?.name
      if (held && !itemPlaces(held, block.name)) continue
      if (!best || d < best.d) best = { name: e.username, d }
    }
    return best?.name ?? null
  }

  private remember(p: PlacedBlock): void {
    const key = keyOf(p.dimension, p)
    this.blocks.delete(key)
    this.blocks.set(key, p)
    while (this.blocks.size > this.limit) this.blocks.delete(this.blocks.keys().next().value!)
  }

  private forget(key: string, p: PlacedBlock): void {
    this.blocks.delete(key)
    void this.storage?.remove(p)
  }
}
