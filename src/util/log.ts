/**
 * Structured logging: one JSON line per event on stderr, quiet by default (level `warn`). The level is the config's
 * LOG_LEVEL, set by each entry point (main, scripts, the server child) with `setLogLevel` — this module reads no
 * environment itself. Every module gets a child logger with its own `mod` field; `withLogFields` adds fields to
 * every line logged inside a piece of work and everything it starts (a benchmark tags each run's lines with its
 * seed). Nothing here prints secrets — callers pass data, not whole configs.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

export type LogLevel = 'silent' | 'error' | 'warn' | 'info' | 'debug'
const ORDER: Record<LogLevel, number> = { silent: 0, error: 1, warn: 2, info: 3, debug: 4 }

let current: LogLevel = 'warn'
const fields = new AsyncLocalStorage<Record<string, unknown>>()

/** Run `fn` with `extra` on every line it logs, and every line logged by what it starts (timers, sockets, events). */
export function withLogFields<T>(extra: Record<string, unknown>, fn: () => T): T {
  return fields.run({ ...fields.getStore(), ...extra }, fn)
}

export function setLogLevel(level: LogLevel): void {
  current = level
}
export function logLevel(): LogLevel {
  return current
}

export interface Logger {
  error(msg: string, data?: Record<string, unknown>): void
  warn(msg: string, data?: Record<string, unknown>): void
  info(msg: string, data?: Record<string, unknown>): void
  debug(msg: string, data?: Record<string, unknown>): void
  child(mod: string): Logger
}

function emit(level: Exclude<LogLevel, 'silent'>, mod: string, msg: string, data?: Record<string, unknown>): void {
  if (ORDER[level] > ORDER[current]) return
  const line: Record<string, unknown> = { t: new Date().toISOString(), level, mod, msg, ...fields.getStore() }
  if (data) for (const [k, v] of Object.entries(data)) line[k] = v instanceof Error ? v.message : v
  process.stderr.write(`${JSON.stringify(line)}\n`)
}

export function logger(mod: string): Logger {
  return {
    error: (m, d) => emit('error', mod, m, d),
    warn: (m, d) => emit('warn', mod, m, d),
    info: (m, d) => emit('info', mod, m, d),
    debug: (m, d) => emit('debug', mod, m, d),
    child: (sub) => logger(`${mod}.${sub}`),
  }
}
