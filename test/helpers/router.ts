/**
 * A real Router without a Minecraft server, for the channel tests (ws, Discord): the real command set plus the
 * test's own commands, the permission policy of an embedded server (no Minecraft owners, so the in-game roles are
 * open) with the Discord owner ids and trusted role ids the test names, an audit log kept in memory only, and a body
 * with no bot behind it (`status` answers "Not connected"). Extra services (the agent) are passed through.
 */
import { all } from '../../commands/index.js'
import { createBody } from '../../src/actions/body.js'
import { AuditLog } from '../../src/router/audit.js'
import type { CommandDefinition } from '../../src/router/command.js'
import { createPolicy } from '../../src/router/permissions.js'
import { Router } from '../../src/router/router.js'
import type { Services } from '../../src/router/services.js'

export interface OfflineRouterOptions {
  /** Test-only commands served beside the real ones. */
  extraCommands?: CommandDefinition[]
  /** Discord user ids that are owners (DISCORD_OWNERS). */
  discordOwners?: string[]
  /** Discord role ids that make a member trusted (DISCORD_TRUSTED). */
  discordTrusted?: string[]
  /** Services beside the bot-less body (the queue is the router's own). */
  services?: Omit<Services, 'queue' | 'body'>
}

export function offlineRouter(opts: OfflineRouterOptions = {}): Router {
  return new Router({
    commands: [...all(), ...(opts.extraCommands ?? [])],
    policy: createPolicy({
      GHOST_OWNERS: [],
      GHOST_TRUSTED: [],
      DISCORD_OWNERS: opts.discordOwners ?? [],
      DISCORD_TRUSTED: opts.discordTrusted ?? [],
      MC_HOST: undefined,
    }),
    audit: new AuditLog(null),
    services: { body: createBody(() => null), ...opts.services },
  })
}
