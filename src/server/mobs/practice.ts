/**
 * Reading the practice options (`EmbeddedServerOptions.practice`) from inside a plugin. flying-squid calls a
 * plugin's `server(serv, options)` added after start-up with *its own* createMCServer options, and keeps the third
 * `addPlugin` argument (our practice options) as `serv.plugins[name].settings` — so we read them from there.
 */
import type { SquidServer } from '../squid.js'

export function practiceOptions(serv: SquidServer, pluginName: string): Record<string, unknown> {
  const plugins = serv.plugins as Record<string, { settings?: Record<string, unknown> }> | undefined
  return plugins?.[pluginName]?.settings ?? {}
}

/** Natural mob spawning is on unless a test passes `practice: { naturalSpawning: false }`. */
export function naturalSpawning(serv: SquidServer, pluginName: string): boolean {
  return practiceOptions(serv, pluginName).naturalSpawning !== false
}
