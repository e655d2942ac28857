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

/**
 * Furnace ticks per server tick: 1 (vanilla) unless a test passes `practice: { furnaceSpeed: n }` (a whole number
 * from 1 to 20) — as vanilla's `/tick sprint` runs the game faster, for a test whose point is not the 10 s per item.
 * Every ratio stays vanilla (ticks per item, burn time per fuel) and the window reports the same properties.
 */
export function furnaceSpeed(serv: SquidServer, pluginName: string): number {
  const n = practiceOptions(serv, pluginName).furnaceSpeed
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 20 ? n : 1
}
