/**
 * Typed view of the parts of flying-squid (1.12.0) our server plugins use, and the uniform plugin contract:
 * a plugin is `{ name, server?(serv, options), player?(player, serv) }` (flying-squid's own external-plugin
 * shape), added with `serv.addPlugin`. Types are deliberately partial: flying-squid is untyped JavaScript, so
 * every object keeps an index signature and plugins narrow what they touch.
 */
import type { Vec3 } from 'vec3'

/**
 * flying-squid's `max-entities`: it refuses (throws on) a new entity once the world holds this many, players and mobs
 * included. The mob plugins cap their own spawning; item entities make room (plugins/drops-items.ts `makeRoom`).
 */
export const MAX_ENTITIES = 200

export interface SquidItem {
  type: number
  count: number
  metadata?: number
  nbt?: unknown
  name?: string
}

export interface SquidWorld {
  getBlock(pos: Vec3): Promise<{ type: number; name: string; metadata?: number; stateId?: number }>
  getBlockStateId(pos: Vec3): Promise<number>
  getBiome(pos: Vec3): Promise<number>
  [key: string]: unknown
}

export interface SquidEntity {
  id: number
  type: string
  name?: string
  entityType: number | null
  position: Vec3
  velocity: Vec3
  world: SquidWorld
  health: number
  [key: string]: unknown
}

export interface SquidPlayer extends SquidEntity {
  username: string
  uuid: string
  op: boolean
  gameMode: number
  inventory: { slots: Array<SquidItem | null>; [key: string]: unknown }
  _client: {
    write(name: string, params: Record<string, unknown>): void
    on(ev: string, l: (...a: any[]) => void): void
    [key: string]: unknown
  } // eslint-disable-line @typescript-eslint/no-explicit-any -- packet payloads are untyped
  chat(message: string | Record<string, unknown>): void
  on(ev: string, l: (...a: any[]) => void): void // eslint-disable-line @typescript-eslint/no-explicit-any -- flying-squid events are untyped
  emit(ev: string, ...args: unknown[]): void
  [key: string]: unknown
}

export interface SquidCommandContext {
  player?: SquidPlayer
}
export interface SquidCommand {
  base: string
  aliases?: string[]
  info: string
  usage: string
  op?: boolean
  onlyPlayer?: boolean
  parse?(str: string, ctx: SquidCommandContext): unknown
  action(params: any, ctx: SquidCommandContext): unknown // eslint-disable-line @typescript-eslint/no-explicit-any -- params are whatever parse() returned
}

export interface SquidServer {
  registry: { version: { minecraftVersion: string }; [key: string]: any } // eslint-disable-line @typescript-eslint/no-explicit-any -- prismarine-registry is untyped here
  players: SquidPlayer[]
  entities: Record<number, SquidEntity>
  overworld: SquidWorld
  commands: { add(cmd: SquidCommand): void; [key: string]: unknown }
  supportFeature(name: string): boolean
  addPlugin(name: string, plugin: SquidPlugin, settings?: unknown): void
  getPlayer(username: string): SquidPlayer | null
  on(ev: string, l: (...a: any[]) => void): void // eslint-disable-line @typescript-eslint/no-explicit-any -- untyped events
  emit(ev: string, ...args: unknown[]): void
  info(msg: string): void
  warn(msg: string): void
  err(msg: string): void
  [key: string]: unknown
}

export interface PracticeOptions {
  seed: number
  version: string
  [key: string]: unknown
}

/**
 * The one contract every server plugin file default-exports. flying-squid calls `server(serv, options)` with its
 * *own* createMCServer options; our PracticeOptions (seed, naturalSpawning, …) are stored per plugin by `addPlugin`
 * and read with `practiceOptions(serv, name)` from src/server/mobs/practice.ts.
 */
export interface SquidPlugin {
  name: string
  server?(serv: SquidServer, squidOptions: Record<string, unknown>): void
  player?(player: SquidPlayer, serv: SquidServer): void
}

import squid from 'flying-squid'
/** A UserError makes flying-squid answer the player with the message instead of crashing. */
export const UserError = squid.UserError
