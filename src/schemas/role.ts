/**
 * Roles: the three trust levels a requester can have (guest < trusted < owner), their order, and the one check
 * `atLeast`. Channels, the router, the ws protocol and commands all read them from here.
 */
import { z } from 'zod'

export const Role = z.enum(['guest', 'trusted', 'owner'])
export type Role = z.infer<typeof Role>
export const ROLE_RANK: Record<Role, number> = { guest: 0, trusted: 1, owner: 2 }
export function atLeast(role: Role, min: Role): boolean {
  return ROLE_RANK[role] >= ROLE_RANK[min]
}
