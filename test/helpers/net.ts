/**
 * Network helpers for tests: `freePort()` asks the OS for a loopback TCP port that is free right now (listen on port
 * 0, read the port, close), for settings that need a fixed port number up front (GHOST_WS_PORT, a Minecraft port
 * nothing listens on). Another process could take the port in between; tests use it only on loopback.
 */
import { createServer } from 'node:net'

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const a = s.address()
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0))
    })
  })
}
