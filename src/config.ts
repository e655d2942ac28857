/**
 * Configuration: the one zod schema for every setting, read once at start-up from environment variables and,
 * optionally, `ghostcraft.config.json` (same keys; the environment wins). `loadConfig` never throws: it returns
 * either the parsed config or every problem with how to fix it. Secret values are never echoed in problems.
 */
import { existsSync, readFileSync } from 'node:fs'
import { z } from 'zod'
import { BoxList } from './schemas/region.js'
import { PRACTICE_DEFAULT_VERSION, PRACTICE_VERSIONS, SUPPORTED_VERSIONS } from './versions.js'

const names = z
  .string()
  .default('')
  .transform((s) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  )
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .default('false')
  .transform((s) => s === 'true' || s === '1' || s === 'yes')
const int = (min: number, max: number, def: number) => z.coerce.number().int().min(min).max(max).default(def)
const optStr = z
  .string()
  .optional()
  .transform((s) => (s === undefined || s.trim() === '' ? undefined : s.trim()))

export { SUPPORTED_VERSIONS } from './versions.js'

/** GHOST_DB: a file path (no URL scheme), or a PostgreSQL URL with a host. */
function ghostDbOk(v: string): boolean {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(v)) return true
  if (!/^postgres(ql)?:\/\//i.test(v)) return false
  try {
    return new URL(v).hostname.length > 0
  } catch {
    return false
  }
}

export const ConfigSchema = z.object({
  // Minecraft connection
  MC_HOST: optStr,
  MC_PORT: int(0, 65535, 25565),
  MC_USERNAME: z
    .string()
    .regex(/^[A-Za-z0-9_]{3,16}$/)
    .default('Ghost'),
  // 'auto' (the default with MC_HOST): ping the server and use its version; embedded default: PRACTICE_DEFAULT_VERSION
  MC_VERSION: z.enum(['auto', ...SUPPORTED_VERSIONS] as [string, ...string[]]).optional(),
  MC_AUTH: z.enum(['offline', 'microsoft']).default('offline'),
  // Embedded practice world
  GHOST_SEED: int(1, 2 ** 31 - 1, 1), // flying-squid treats 0 as 'pick a random seed'
  // People and roles
  // Each entry a player UUID (safest) or a name; see the README's Security section
  GHOST_OWNERS: names,
  GHOST_TRUSTED: names,
  // Players (other bots) whose lines are never taken as requests
  GHOST_IGNORE_PLAYERS: names,
  // Offline auth on a remote server with owners given by name: refused unless this is true
  GHOST_ALLOW_OFFLINE_OWNERS: bool,
  GHOST_PREFIX: z.string().min(1).max(3).default('!'),
  // Outgoing chat: one line per interval after a burst (vanilla kicks at about one a second sustained)
  GHOST_CHAT_INTERVAL_MS: int(0, 10_000, 1000),
  GHOST_CHAT_BURST: int(1, 10, 3),
  GHOST_AUDIT_LOG: z.string().default('./audit.log'),
  // Protected areas: boxes "x1 y1 z1 x2 y2 z2;…" where the bot never digs, places or opens containers
  GHOST_PROTECTED: BoxList,
  // Reflexes: hit back at a player who attacks the bot (off: the bot never hits players, it only flees)
  GHOST_FIGHT_PLAYERS: bool,
  // Memory: a SQLite file path, or a postgres:// / postgresql:// URL (one memory for several servers; see docs/memory.md)
  GHOST_DB: z
    .string()
    .min(1)
    .default('./memory.db')
    .refine(ghostDbOk, 'is neither a file path nor a postgres:// or postgresql:// URL with a host'),
  // What a bot's plan retrieval reads from a memory several servers share: its own server's plans and summaries
  // (plus unscoped ones from before or from an import), or every server's
  GHOST_MEMORY_SHARE: z.enum(['server', 'network']).default('server'),
  // LLM (any OpenAI-compatible endpoint); all optional: without GHOST_MODEL the bot plans offline
  OPENAI_BASE_URL: optStr.pipe(z.url().optional()),
  OPENAI_API_KEY: optStr,
  GHOST_MODEL: optStr,
  GHOST_EMBED_MODEL: optStr,
  GHOST_LLM_TIMEOUT_MS: int(100, 600_000, 60_000),
  GHOST_LLM_MAX_RETRIES: int(0, 10, 3),
  GHOST_LLM_COOLDOWN_MS: int(0, 3600_000, 60_000),
  GHOST_PLAYER_TOKEN_BUDGET: int(0, 100_000_000, 500_000),
  // Upper bound on the tokens of any one model answer (max_tokens)
  GHOST_LLM_MAX_TOKENS: int(64, 100_000, 4096),
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
  // Web page (same tokens and roles as the WebSocket bridge; none needed on loopback)
  GHOST_WEB_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  GHOST_WEB_HOST: z.string().default('127.0.0.1'),
  // Logging (GHOST_SERVER_LOG: copy the practice server's own log to stderr)
  GHOST_SERVER_LOG: bool,
  LOG_LEVEL: z.enum(['silent', 'error', 'warn', 'info', 'debug']).default('warn'),
})
/** After loadConfig, MC_VERSION is a supported version, or 'auto' (remote server only; createApp resolves it). */
export type Config = Omit<z.output<typeof ConfigSchema>, 'MC_VERSION'> & { MC_VERSION: string }
export type ConfigKey = keyof z.input<typeof ConfigSchema>

// GHOST_DB may be a URL with a password, so its value is never echoed either.
const SECRET_KEYS = new Set<string>([
  'GHOST_DB',
  'OPENAI_API_KEY',
  'DISCORD_TOKEN',
  'GHOST_WS_OWNER_TOKEN',
  'GHOST_WS_TRUSTED_TOKEN',
  'GHOST_WS_GUEST_TOKEN',
])

const FIX: Record<string, string> = {
  MC_HOST: 'leave it unset to start the embedded practice server, or set a host name such as mc.example.org',
  MC_PORT: 'set a TCP port between 1 and 65535 (0 picks a free port for the embedded server), e.g. MC_PORT=25565',
  MC_USERNAME: 'use 3-16 letters, digits or underscores, e.g. MC_USERNAME=Ghost',
  MC_VERSION: `set auto (remote servers: ask the server) or one of the supported versions: ${SUPPORTED_VERSIONS.join(', ')}`,
  MC_AUTH: 'set MC_AUTH=offline (local or offline-mode servers) or MC_AUTH=microsoft',
  GHOST_SEED: 'set a whole number between 1 and 2147483647 (0 would make the world random)',
  GHOST_PREFIX: 'use 1-3 characters, e.g. GHOST_PREFIX=!',
  GHOST_CHAT_INTERVAL_MS:
    'set milliseconds per chat line (0-10000); below 1000 a vanilla server may kick the bot for spam',
  GHOST_CHAT_BURST: 'set how many lines may go out back to back (1-10), e.g. 3',
  GHOST_OWNERS:
    'list player UUIDs (e.g. 069a79f4-44e9-4726-a5be-fca90e38aaf5) or names (3-16 letters, digits or _), comma-separated',
  GHOST_TRUSTED: 'list player UUIDs or names (3-16 letters, digits or _), comma-separated',
  GHOST_IGNORE_PLAYERS: 'list player UUIDs or names (3-16 letters, digits or _), comma-separated',
  GHOST_ALLOW_OFFLINE_OWNERS: 'set true or false',
  GHOST_SERVER_LOG: 'set true or false',
  GHOST_FIGHT_PLAYERS: 'set true or false',
  GHOST_DB:
    'set a file path, e.g. GHOST_DB=./memory.db, or a PostgreSQL URL, e.g. GHOST_DB=postgres://ghost:secret@db.example.org:5432/ghost',
  GHOST_MEMORY_SHARE: "set server (each server reads its own plans) or network (every server's plans are shared)",
  GHOST_PROTECTED:
    'list boxes as six whole numbers each (two opposite corners), separated by ";", e.g. GHOST_PROTECTED="0 60 0 20 80 20;100 0 100 120 90 130"',
  OPENAI_BASE_URL: 'set a full URL such as http://127.0.0.1:11434/v1, or unset it to use api.openai.com',
  GHOST_LLM_TIMEOUT_MS: 'set milliseconds between 100 and 600000',
  GHOST_LLM_MAX_RETRIES: 'set a whole number between 0 and 10',
  GHOST_LLM_COOLDOWN_MS: 'set milliseconds between 0 (never stop asking) and 3600000, e.g. 60000',
  GHOST_PLAYER_TOKEN_BUDGET: 'set a whole number of tokens (0 disables LLM use for players)',
  GHOST_LLM_MAX_TOKENS: 'set a whole number of tokens between 64 and 100000, e.g. 4096',
  GHOST_PLANNER_QUERY_LIMIT: 'set a whole number between 1 and 1000 (GITM used 30)',
  GHOST_GOAL_TIME_BUDGET_MS: 'set milliseconds, at least 1000',
  DISCORD_RELAY_CHAT: 'set true or false',
  GHOST_WS_PORT: 'set a TCP port between 1 and 65535 to enable the WebSocket bridge, or unset it',
  GHOST_WEB_PORT: 'set a TCP port between 1 and 65535 to serve the web page (0 picks a free one), or unset it',
  LOG_LEVEL: 'set one of silent, error, warn, info, debug',
}

export interface ConfigProblem {
  key: string
  problem: string
  fix: string
}
export type ConfigResult = { ok: true; config: Config } | { ok: false; problems: ConfigProblem[] }

/** Parse settings from an env-like record plus an optional JSON file. Never throws. */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  file = env.GHOST_CONFIG ?? './ghostcraft.config.json',
): ConfigResult {
  const problems: ConfigProblem[] = []
  let fromFile: Record<string, unknown> = {}
  if (file && existsSync(file)) {
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'))
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) fromFile = parsed as Record<string, unknown>
      else
        problems.push({ key: file, problem: 'is not a JSON object', fix: 'write an object such as {"MC_PORT": 25565}' })
    } catch (err) {
      problems.push({
        key: file,
        problem: `is not valid JSON (${(err as Error).message})`,
        fix: 'fix the JSON syntax or delete the file',
      })
    }
  }
  const known = new Set(Object.keys(ConfigSchema.shape))
  for (const k of Object.keys(fromFile)) {
    if (!known.has(k))
      problems.push({
        key: k,
        problem: `is not a known setting (in ${file})`,
        fix: 'remove it or check its spelling against the README',
      })
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
  const parsed = result.data
  const config: Config = {
    ...parsed,
    MC_VERSION: parsed.MC_VERSION ?? (parsed.MC_HOST === undefined ? PRACTICE_DEFAULT_VERSION : 'auto'),
  }
  if (config.MC_HOST === undefined && config.MC_VERSION === 'auto') config.MC_VERSION = PRACTICE_DEFAULT_VERSION
  if (config.MC_HOST === undefined && !PRACTICE_VERSIONS.includes(config.MC_VERSION)) {
    problems.push({
      key: 'MC_VERSION',
      problem: `${config.MC_VERSION} cannot be hosted by the embedded practice server (flying-squid 1.12)`,
      fix: `set MC_HOST to join a real server at that version, or pick one of ${PRACTICE_VERSIONS.join(', ')} (default ${PRACTICE_DEFAULT_VERSION})`,
    })
  }
  if (config.OPENAI_API_KEY && !config.GHOST_MODEL) {
    problems.push({
      key: 'GHOST_MODEL',
      problem: 'is unset although OPENAI_API_KEY is set',
      fix: 'set GHOST_MODEL (e.g. gpt-4o-mini), or unset OPENAI_API_KEY to plan offline',
    })
  }
  if (
    config.GHOST_WS_PORT !== undefined &&
    !config.GHOST_WS_OWNER_TOKEN &&
    !config.GHOST_WS_TRUSTED_TOKEN &&
    !config.GHOST_WS_GUEST_TOKEN
  ) {
    problems.push({
      key: 'GHOST_WS_OWNER_TOKEN',
      problem: 'no WebSocket token is set although GHOST_WS_PORT is',
      fix: 'set GHOST_WS_OWNER_TOKEN (and/or _TRUSTED_/_GUEST_) to a long random string',
    })
  }
  problems.push(...securityProblems(config))
  const webLoopback = ['127.0.0.1', '::1', 'localhost'].includes(config.GHOST_WEB_HOST)
  if (
    config.GHOST_WEB_PORT !== undefined &&
    !webLoopback &&
    !config.GHOST_WS_OWNER_TOKEN &&
    !config.GHOST_WS_TRUSTED_TOKEN &&
    !config.GHOST_WS_GUEST_TOKEN
  ) {
    problems.push({
      key: 'GHOST_WEB_HOST',
      problem: `is ${config.GHOST_WEB_HOST} (beyond loopback) but no WebSocket token is set for the page to ask for`,
      fix: 'set GHOST_WS_OWNER_TOKEN (and/or _TRUSTED_/_GUEST_), or GHOST_WEB_HOST=127.0.0.1',
    })
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, config }
}

export function formatProblems(problems: ConfigProblem[]): string {
  return ['Configuration problems:', ...problems.map((p) => `  - ${p.key} ${p.problem}\n    fix: ${p.fix}`)].join('\n')
}

const PLAYER_UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i
const PLAYER_NAME = /^[A-Za-z0-9_]{1,16}$/
/** Configured player entries that are names rather than UUIDs. */
export const playerNames = (entries: string[]): string[] => entries.filter((e) => !PLAYER_UUID.test(e))
export const WS_TOKEN_MIN_LENGTH = 32

/** Checks that need several settings at once: player lists, ws token length, offline auth on a remote server. */
function securityProblems(config: Config): ConfigProblem[] {
  const out: ConfigProblem[] = []
  for (const key of ['GHOST_OWNERS', 'GHOST_TRUSTED', 'GHOST_IGNORE_PLAYERS'] as const) {
    const bad = config[key].filter((e) => !PLAYER_UUID.test(e) && !PLAYER_NAME.test(e))
    if (bad.length > 0)
      out.push({
        key,
        problem: `has entries that are neither a player name nor a UUID: ${bad.map((b) => JSON.stringify(b.slice(0, 40))).join(', ')}`,
        fix: FIX[key]!,
      })
  }
  for (const key of ['GHOST_WS_OWNER_TOKEN', 'GHOST_WS_TRUSTED_TOKEN', 'GHOST_WS_GUEST_TOKEN'] as const) {
    const t = config[key]
    if (t !== undefined && t.length < WS_TOKEN_MIN_LENGTH)
      out.push({
        key,
        problem: `is shorter than ${WS_TOKEN_MIN_LENGTH} characters`,
        fix: 'use a long random string, e.g. the output of `openssl rand -hex 24`',
      })
  }
  const named = [...playerNames(config.GHOST_OWNERS), ...playerNames(config.GHOST_TRUSTED)]
  if (
    config.MC_HOST !== undefined &&
    config.MC_AUTH === 'offline' &&
    named.length > 0 &&
    !config.GHOST_ALLOW_OFFLINE_OWNERS
  ) {
    out.push({
      key: 'GHOST_OWNERS',
      problem: `names roles by player name (${named.join(', ')}) although the bot logs in to ${config.MC_HOST} with offline auth: a server that accepts an offline bot lets anyone log in under those names`,
      fix: 'give owners and trusted players by UUID, or set MC_AUTH=microsoft, or (if you understand the risk, e.g. a LAN server) set GHOST_ALLOW_OFFLINE_OWNERS=true',
    })
  }
  return out
}

/** Warnings to print at start-up (loudly): risky but allowed settings. */
export function securityWarnings(config: Config): string[] {
  const out: string[] = []
  if (config.MC_HOST !== undefined && config.MC_AUTH === 'offline') {
    const named = [...playerNames(config.GHOST_OWNERS), ...playerNames(config.GHOST_TRUSTED)]
    out.push(
      `WARNING: joining ${config.MC_HOST} with offline auth. If that server accepts offline logins, anyone can log in under any name` +
        (named.length > 0
          ? ` — including the owner/trusted names ${named.join(', ')} (GHOST_ALLOW_OFFLINE_OWNERS=true).`
          : '; roles are given by UUID, which an offline-mode server derives from the name, so only a server that verifies accounts (or a proxy that forwards real UUIDs) makes them safe.'),
    )
  }
  if (config.GHOST_CHAT_INTERVAL_MS < 1000 && config.MC_HOST !== undefined)
    out.push(
      `WARNING: GHOST_CHAT_INTERVAL_MS=${config.GHOST_CHAT_INTERVAL_MS} is faster than one line a second; a vanilla server may kick the bot for spam.`,
    )
  return out
}

/** Environment variables a child process (the practice server) may inherit: nothing secret. */
const CHILD_ENV = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TMPDIR',
  'TMP',
  'TEMP',
  'NODE_ENV',
  'NODE_OPTIONS',
  'NODE_PATH',
  'NODE_EXTRA_CA_CERTS',
  'SYSTEMROOT',
  'COMSPEC',
  'PATHEXT',
  'APPDATA',
  'LOCALAPPDATA',
  'USERPROFILE',
])
export function childEnv(env: Record<string, string | undefined> = process.env): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(env))
    if (v !== undefined && (CHILD_ENV.has(k) || k.startsWith('TSX_'))) out[k] = v
  return out
}

/** GHOST_SERVER_LOG from the environment (for starting a practice server without a full config, e.g. in tests). */
export function serverLogRequested(env: Record<string, string | undefined> = process.env): boolean {
  const r = ConfigSchema.shape.GHOST_SERVER_LOG.safeParse(env.GHOST_SERVER_LOG)
  return r.success && r.data
}

/** The embedded practice server is used when no MC_HOST is configured. */
export function isEmbedded(config: Config): boolean {
  return config.MC_HOST === undefined
}
