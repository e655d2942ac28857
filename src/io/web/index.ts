/**
 * Starting the web page from config: null (one info line) when GHOST_WEB_PORT is unset, so the page is off by
 * default; otherwise serves it on GHOST_WEB_HOST:GHOST_WEB_PORT with the ws bridge's configured tokens and roles.
 */
import type { Config } from '../../config.js'
import type { Router } from '../../router/router.js'
import { logger } from '../../util/log.js'
import { tokensFromConfig } from '../ws/auth.js'
import type { ViewSources } from '../ws/views.js'
import { startWebServer, type WebServer, type WebViewer } from './server.js'

export { startWebServer, WEB_WS_PATH, type WebServer, type WebServerOptions, type WebViewer } from './server.js'

const log = logger('web')

type WebConfig = Pick<
  Config,
  'GHOST_WEB_PORT' | 'GHOST_WEB_HOST' | 'GHOST_WS_OWNER_TOKEN' | 'GHOST_WS_TRUSTED_TOKEN' | 'GHOST_WS_GUEST_TOKEN'
>

export async function startWeb(
  config: WebConfig,
  router: Router,
  extra: { views?: ViewSources; viewer?: WebViewer | null } = {},
): Promise<WebServer | null> {
  if (config.GHOST_WEB_PORT === undefined) {
    log.info('web page off (set GHOST_WEB_PORT to enable it)')
    return null
  }
  return startWebServer({
    host: config.GHOST_WEB_HOST,
    port: config.GHOST_WEB_PORT,
    router,
    tokens: tokensFromConfig(config),
    ...extra,
  })
}
