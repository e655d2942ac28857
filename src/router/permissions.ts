/**
 * Roles: owner > trusted > guest. `roleOf` maps a principal to a role from config: Minecraft players from
 * GHOST_OWNERS/GHOST_TRUSTED, each entry a UUID (matched against the sender UUID the server reported) or a name
 * (matched against the server's name for that UUID and pinned to the first UUID seen with it, so a later player who
 * takes the name does not inherit the role); Discord user or role IDs from DISCORD_OWNERS/DISCORD_TRUSTED; ws clients carry the
 * role of the token they authenticated with. In embedded mode with no owners configured every local player is an
 * owner; on a remote server with no owners the bot fails closed (see `failClosed`).
 */
import type { Config } from '../config.js'
import type { Principal } from './request.js'
import type { Role } from '../schemas/role.js'
import { logger } from '../util/log.js'

const log = logger('permissions')
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i
export const isUuid = (s: string): boolean => UUID.test(s.trim())
const uuidKey = (s: string): string => s.trim().replace(/-/g, '').toLowerCase()

/** Configured players of one role: UUIDs, and names pinned to the first UUID the server reported for them. */
export class PlayerSet {
  private readonly uuids = new Set<string>()
  private readonly names = new Map<string, string | null>()
  constructor(entries: string[]) {
    for (const e of entries)
      if (isUuid(e)) this.uuids.add(uuidKey(e))
      else this.names.set(e.trim().toLowerCase(), null)
  }
  get size(): number {
    return this.uuids.size + this.names.size
  }
  /** Configured entries that are names (not UUIDs). */
  get nameCount(): number {
    return this.names.size
  }
  has(name: string, uuid: string | undefined): boolean {
    if (uuid !== undefined && this.uuids.has(uuidKey(uuid))) return true
    const n = name.toLowerCase()
    if (!this.names.has(n)) return false
    if (uuid === undefined) return true
    const pinned = this.names.get(n)
    if (pinned === null || pinned === undefined) {
      this.names.set(n, uuidKey(uuid))
      return true
    }
    if (pinned === uuidKey(uuid)) return true
    log.warn('a configured name arrived with a different UUID than before; not granting its role', { name })
    return false
  }
}

export interface PermissionPolicy {
  roleOf(p: Principal): Role
  /** True when the bot must answer only `help` because nobody can be an owner. */
  readonly failClosed: boolean
}

export function createPolicy(
  config: Pick<Config, 'GHOST_OWNERS' | 'GHOST_TRUSTED' | 'DISCORD_OWNERS' | 'DISCORD_TRUSTED' | 'MC_HOST'>,
): PermissionPolicy {
  const owners = new PlayerSet(config.GHOST_OWNERS)
  const trusted = new PlayerSet(config.GHOST_TRUSTED)
  const dOwners = new Set(config.DISCORD_OWNERS)
  const dTrusted = new Set(config.DISCORD_TRUSTED)
  const embedded = config.MC_HOST === undefined
  const everyoneOwner = embedded && owners.size === 0
  return {
    failClosed: !embedded && owners.size === 0,
    roleOf(p) {
      switch (p.kind) {
        case 'console':
          return 'owner'
        case 'ws':
          return p.role
        case 'discord': {
          const ids = [p.userId, ...p.roleIds]
          if (ids.some((id) => dOwners.has(id))) return 'owner'
          if (ids.some((id) => dTrusted.has(id))) return 'trusted'
          return 'guest'
        }
        case 'minecraft': {
          if (everyoneOwner || owners.has(p.name, p.uuid)) return 'owner'
          if (trusted.has(p.name, p.uuid)) return 'trusted'
          return 'guest'
        }
      }
    },
  }
}
