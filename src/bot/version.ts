/**
 * Start-up version detection for `MC_VERSION=auto`: pings the server with minecraft-protocol's status ping (no login)
 * and maps what it reports to a supported version through `resolveServerVersion` (src/versions.ts). An unreachable
 * server or an unsupported version is a GhostError('config') whose message names the supported versions.
 */
import mc from 'minecraft-protocol'
import { GhostError } from '../util/errors.js'
import { logger } from '../util/log.js'
import { resolveServerVersion, SUPPORTED_VERSIONS } from '../versions.js'

const log = logger('version')

interface PingAnswer {
  version?: { name?: string; protocol?: number }
}

/** The supported version to use with the server at host:port (it must answer a status ping within `timeoutMs`). */
export async function detectServerVersion(host: string, port: number, timeoutMs = 10_000): Promise<string> {
  let answer: PingAnswer
  try {
    answer = (await mc.ping({ host, port, closeTimeout: timeoutMs })) as PingAnswer
  } catch (err) {
    throw new GhostError(
      'config',
      `MC_VERSION=auto: could not ask ${host}:${port} for its version (${(err as Error).message}); ` +
        `check MC_HOST/MC_PORT, or set MC_VERSION to one of ${SUPPORTED_VERSIONS.join(', ')}`,
    )
  }
  const name = answer.version?.name ?? ''
  const protocol = answer.version?.protocol ?? -1
  const r = resolveServerVersion(name, protocol)
  if (!r.ok) throw new GhostError('config', `MC_VERSION=auto: ${r.reason}`)
  log.info('server version detected', { host, port, reported: name, protocol, version: r.version, note: r.note })
  return r.version
}
