/**
 * Roles: owner > trusted > guest. `roleOf` maps a principal to a role from config: Minecraft names from
 * GHOST_OWNERS/GHOST_TRUSTED; Discord user or role IDs from DISCORD_OWNERS/DISCORD_TRUSTED; ws clients carry the
 * role of the token they authenticated with. In embedded mode with no owners configured every local player is an
 * owner; on a remote server with no owners the bot fails closed (see `failClosed`).
 */
import type { Config } from '../config.js'
import type { Principal, Role } from './request.js'

export interface PermissionPolicy {
  roleOf(p: Principal): Role
  /** True when the bot must answer only `help` because nobody can be an owner. */
  readonly failClosed: boolean
}

export function createPolicy(config: Pick<Config, 'GHOST_OWNERS' | 'GHOST_TRUSTED' | 'DISCORD_OWNERS' | 'DISCORD_TRUSTED' | 'MC_HOST'>): PermissionPolicy {
  const lower = (xs: string[]): Set<string> => new Set(xs.map((x) => x.toLowerCase()))
  const owners = lower(config.GHOST_OWNERS)
  const trusted = lower(config.GHOST_TRUSTED)
  const dOwners = new Set(config.DISCORD_OWNERS)
  const dTrusted = new Set(config.DISCORD_TRUSTED)
  const embedded = config.MC_HOST === undefined
  const everyoneOwner = embedded && owners.size === 0
  return {
    failClosed: !embedded && owners.size === 0,
    roleOf(p) {
      switch (p.kind) {
        case 'console': return 'owner'
        case 'ws': return p.role
        case 'discord': {
          const ids = [p.userId, ...p.roleIds]
          if (ids.some((id) => dOwners.has(id))) return 'owner'
          if (ids.some((id) => dTrusted.has(id))) return 'trusted'
          return 'guest'
        }
        case 'minecraft': {
          const n = p.name.toLowerCase()
          if (everyoneOwner || owners.has(n)) return 'owner'
          if (trusted.has(n)) return 'trusted'
          return 'guest'
        }
      }
    },
  }
}
