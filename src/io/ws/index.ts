/**
 * Starting the WebSocket bridge from config: returns null (and logs one info line) when GHOST_WS_PORT is unset, so
 * the bridge is off by default; otherwise listens on GHOST_WS_HOST:GHOST_WS_PORT with the configured tokens.
 */
import type { Config } from '../../config.js'
import type { Router } from '../../router/router.js'
import { logger } from '../../util/log.js'
import { tokensFromConfig } from './auth.js'
import { WsBridge, type WsBridgeOptions } from './bridge.js'

export { WsBridge } from './bridge.js'
export type { WsBridgeOptions } from './bridge.js'

const log = logger('ws')

type WsConfig = Pick<
  Config,
  'GHOST_WS_PORT' | 'GHOST_WS_HOST' | 'GHOST_WS_OWNER_TOKEN' | 'GHOST_WS_TRUSTED_TOKEN' | 'GHOST_WS_GUEST_TOKEN'
>

export async function startWsBridge(
  config: WsConfig,
  router: Router,
  overrides: Partial<WsBridgeOptions> = {},
): Promise<WsBridge | null> {
  if (config.GHOST_WS_PORT === undefined) {
    log.info('WebSocket bridge off (set GHOST_WS_PORT to enable it)')
    return null
  }
  return WsBridge.start(router, {
    host: config.GHOST_WS_HOST,
    port: config.GHOST_WS_PORT,
    tokens: tokensFromConfig(config),
    ...overrides,
  })
}
