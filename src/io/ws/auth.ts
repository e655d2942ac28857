/**
 * WebSocket bridge authentication: maps a presented token to the role it was configured for
 * (GHOST_WS_OWNER_TOKEN / _TRUSTED_ / _GUEST_). Tokens are compared as SHA-256 digests with
 * `crypto.timingSafeEqual` (equal lengths by construction), and every configured token is checked on every
 * attempt so the time taken does not reveal which one, or how much of it, matched.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { Config } from '../../config.js'
import { ROLE_RANK, type Role } from '../../schemas/role.js'

export interface WsTokens {
  owner?: string
  trusted?: string
  guest?: string
}

export function tokensFromConfig(
  config: Pick<Config, 'GHOST_WS_OWNER_TOKEN' | 'GHOST_WS_TRUSTED_TOKEN' | 'GHOST_WS_GUEST_TOKEN'>,
): WsTokens {
  return {
    owner: config.GHOST_WS_OWNER_TOKEN,
    trusted: config.GHOST_WS_TRUSTED_TOKEN,
    guest: config.GHOST_WS_GUEST_TOKEN,
  }
}

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest()

export class TokenAuth {
  private readonly entries: Array<{ role: Role; digest: Buffer }>

  constructor(tokens: WsTokens, extra: Array<{ token: string; role: Role }> = []) {
    this.entries = (['owner', 'trusted', 'guest'] as const)
      .filter((r) => typeof tokens[r] === 'string' && tokens[r]!.length > 0)
      .map((r) => ({ role: r, digest: digest(tokens[r]!) }))
    for (const e of extra) if (e.token.length > 0) this.entries.push({ role: e.role, digest: digest(e.token) })
  }

  get configured(): boolean {
    return this.entries.length > 0
  }

  /** The role a token grants (the highest when one token is configured for several roles), or null. */
  check(token: string): Role | null {
    const given = digest(token)
    let best: Role | null = null
    for (const e of this.entries) {
      const ok = timingSafeEqual(given, e.digest)
      if (ok && (best === null || ROLE_RANK[e.role] > ROLE_RANK[best])) best = e.role
    }
    return best
  }
}
