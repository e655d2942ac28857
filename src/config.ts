/**
 * Configuration: the one zod schema for every setting, read once at start-up from environment variables and,
 * optionally, `ghostcraft.config.json` (same keys; the environment wins). `loadConfig` never throws: it returns
 * either the parsed config or every problem with how to fix it. Secret values are never echoed in problems.
 */
import { existsSync, readFileSync } from 'node:fs'
import { z } from 'zod'

const names = z.string().default('').transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean))
const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no', '']).default('false').transform((s) => s === 'true' || s === '1' || s === 'yes')
const int = (min: number, max: number, def: number) => z.coerce.number().int().min(min).max(max).default(def)
const optStr = z.string().optional().transform((s) => (s === undefined || s.trim() === '' ? undefined : s.trim()))

export const SUPPORTED_VERSIONS = ['1.20.2'] as const

export const ConfigSchema = z.object({
  // Minecraft connection
  MC_HOST: optStr,
  MC_PORT: int(0, 65535, 25565),
  MC_USERNAME: z.string().regex(/^[A-Za-z0-9_]{3,16}$/).default('Ghost'),
  MC_VERSION: z.enum(SUPPORTED_VERSIONS).default('1.20.2'),
  MC_AUTH: z.enum(['offline', 'microsoft']).default('offline'),
  // Embedded practice world
  GHOST_SEED: int(1, 2 ** 31 - 1, 1), // flying-squid treats 0 as 'pick a random seed'
  // People and roles
  GHOST_OWNERS: names,
  GHOST_TRUSTED: names,
  GHOST_PREFIX: z.string().min(1).max(3).default('!'),
  GHOST_CHAT_INTERVAL_MS: int(0, 10_000, 600),
  GHOST_AUDIT_LOG: z.string().default('./audit.log'),
  // Memory
  GHOST_DB: z.string().min(1).default('./memory.db'),
  // LLM (any OpenAI-compatible endpoint); all optional: without GHOST_MODEL the bot plans offline
  OPENAI_BASE_URL: optStr.pipe(z.url().optional()),
  OPENAI_API_KEY: optStr,
  GHOST_MODEL: optStr,
  GHOST_EMBED_MODEL: optStr,
  GHOST_LLM_TIMEOUT_MS: int(100, 600_000, 60_000),
  GHOST_LLM_MAX_RETRIES: int(0, 10, 3),
  GHOST_LLM_COOLDOWN_MS: int(0, 3600_000, 60_000),
  GHOST_PLAYER_TOKEN_BUDGET: int(0, 100_000_000, 500_000),
  GHOST_PLANNER_QUERY_LIMIT: int(1, 1000, 30),
  GHOST_GOAL_TIME_BUDGET_MS: int(1000, 24 * 3600_000, 10 * 60_000),
  // Discord
  DISCORD_TOKEN: optStr,
  DISCORD_APP_ID: optStr,
  DISCORD_GUILD_ID: optStr,
  DISCORD_CHANNEL_ID: optStr,
  DISCORD_OWNERS: names,
  DISCORD_TRUSTED: names,
  DISCORD_RELAY_CHAT: bool,
  // WebSocket bridge
  GHOST_WS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  GHOST_WS_HOST: z.string().default('127.0.0.1'),
  GHOST_WS_OWNER_TOKEN: optStr,
  GHOST_WS_TRUSTED_TOKEN: optStr,
  GHOST_WS_GUEST_TOKEN: optStr,
  // Logging
  LOG_LEVEL: z.enum(['silent', 'error', 'warn', 'info', 'debug']).default('warn'),
})
export type Config = z.output<typeof ConfigSchema>
export type ConfigKey = keyof z.input<typeof ConfigSchema>

const SECRET_KEYS = new Set<string>(['OPENAI_API_KEY', 'DISCORD_TOKEN', 'GHOST_WS_OWNER_TOKEN', 'GHOST_WS_TRUSTED_TOKEN', 'GHOST_WS_GUEST_TOKEN'])

const FIX: Record<string, string> = {
  MC_HOST: 'leave it unset to start the embedded practice server, or set a host name such as mc.example.org',
  MC_PORT: 'set a TCP port between 1 and 65535 (0 picks a free port for the embedded server), e.g. MC_PORT=25565',
  MC_USERNAME: 'use 3-16 letters, digits or underscores, e.g. MC_USERNAME=Ghost',
  MC_VERSION: `set one of the supported versions: ${SUPPORTED_VERSIONS.join(', ')}`,
  MC_AUTH: 'set MC_AUTH=offline (local or offline-mode servers) or MC_AUTH=microsoft',
  GHOST_SEED: 'set a whole number between 1 and 2147483647 (0 would make the world random)',
  GHOST_PREFIX: 'use 1-3 characters, e.g. GHOST_PREFIX=!',
  GHOST_CHAT_INTERVAL_MS: 'set milliseconds between chat lines (0-10000), e.g. 600',
  GHOST_DB: 'set a file path, e.g. GHOST_DB=./memory.db',
  OPENAI_BASE_URL: 'set a full URL such as http://127.0.0.1:11434/v1, or unset it to use api.openai.com',
  GHOST_LLM_TIMEOUT_MS: 'set milliseconds between 100 and 600000',
  GHOST_LLM_MAX_RETRIES: 'set a whole number between 0 and 10',
  GHOST_LLM_COOLDOWN_MS: 'set milliseconds between 0 (never stop asking) and 3600000, e.g. 60000',
  GHOST_PLAYER_TOKEN_BUDGET: 'set a whole number of tokens (0 disables LLM use for players)',
  GHOST_PLANNER_QUERY_LIMIT: 'set a whole number between 1 and 1000 (GITM used 30)',
  GHOST_GOAL_TIME_BUDGET_MS: 'set milliseconds, at least 1000',
  DISCORD_RELAY_CHAT: 'set true or false',
  GHOST_WS_PORT: 'set a TCP port between 1 and 65535 to enable the WebSocket bridge, or unset it',
  LOG_LEVEL: 'set one of silent, error, warn, info, debug',
}

export interface ConfigProblem { key: string; problem: string; fix: string }
export type ConfigResult = { ok: true; config: Config } | { ok: false; problems: ConfigProblem[] }

/** Parse settings from an env-like record plus an optional JSON file. Never throws. */
export function loadConfig(env: Record<string, string | undefined> = process.env, file = env.GHOST_CONFIG ?? './ghostcraft.config.json'): ConfigResult {
  const problems: ConfigProblem[] = []
  let fromFile: Record<string, unknown> = {}
  if (file && existsSync(file)) {
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'))
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) fromFile = parsed as Record<string, unknown>
      else problems.push({ key: file, problem: 'is not a JSON object', fix: 'write an object such as {"MC_PORT": 25565}' })
    } catch (err) {
      problems.push({ key: file, problem: `is not valid JSON (${(err as Error).message})`, fix: 'fix the JSON syntax or delete the file' })
    }
  }
  const known = new Set(Object.keys(ConfigSchema.shape))
  for (const k of Object.keys(fromFile)) {
    if (!known.has(k)) problems.push({ key: k, problem: `is not a known setting (in ${file})`, fix: 'remove it or check its spelling against the README' })
  }
  const input: Record<string, unknown> = {}
  for (const k of known) {
    const v = env[k] ?? fromFile[k]
    if (v !== undefined) input[k] = typeof v === 'string' ? v : String(v)
  }
  const result = ConfigSchema.safeParse(input)
  if (!result.success) {
    for (const issue of result.error.issues) {
      const key = String(issue.path[0] ?? '?')
      const got = SECRET_KEYS.has(key) ? '' : ` (got ${JSON.stringify(input[key])})`
      problems.push({ key, problem: `${issue.message}${got}`, fix: FIX[key] ?? 'see the README for allowed values' })
    }
  }
  if (problems.length > 0 || !result.success) return { ok: false, problems }
  const config = result.data
  if (config.OPENAI_API_KEY && !config.GHOST_MODEL) {
    problems.push({ key: 'GHOST_MODEL', problem: 'is unset although OPENAI_API_KEY is set', fix: 'set GHOST_MODEL (e.g. gpt-4o-mini), or unset OPENAI_API_KEY to plan offline' })
  }
  if (config.GHOST_WS_PORT !== undefined && !config.GHOST_WS_OWNER_TOKEN && !config.GHOST_WS_TRUSTED_TOKEN && !config.GHOST_WS_GUEST_TOKEN) {
    problems.push({ key: 'GHOST_WS_OWNER_TOKEN', problem: 'no WebSocket token is set although GHOST_WS_PORT is', fix: 'set GHOST_WS_OWNER_TOKEN (and/or _TRUSTED_/_GUEST_) to a long random string' })
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, config }
}

export function formatProblems(problems: ConfigProblem[]): string {
  return ['Configuration problems:', ...problems.map((p) => `  - ${p.key} ${p.problem}\n    fix: ${p.fix}`)].join('\n')
}

/** The embedded practice server is used when no MC_HOST is configured. */
export function isEmbedded(config: Config): boolean { return config.MC_HOST === undefined }
/** An LLM is configured when a model name is set. */
export function hasLlm(config: Config): boolean { return config.GHOST_MODEL !== undefined }
