/**
 * `npm run discord:deploy`: registers Ghostcraft's slash commands (generated from commands/index.ts) in one Discord
 * guild. Needs DISCORD_TOKEN, DISCORD_APP_ID and DISCORD_GUILD_ID (environment or ghostcraft.config.json); exits 2
 * with the list of what is missing, 1 when Discord refuses, 0 after printing the registered commands.
 */
import { all } from '../commands/index.js'
import { formatProblems, loadConfig } from '../src/config.js'
import { deployGuildCommands, missingDeploySettings } from '../src/io/discord/deploy.js'
import { setLogLevel } from '../src/util/log.js'

async function main(): Promise<number> {
  const result = loadConfig(process.env)
  if (!result.ok) {
    process.stderr.write(`${formatProblems(result.problems)}\n`)
    return 2
  }
  const c = result.config
  setLogLevel(c.LOG_LEVEL)
  const missing = missingDeploySettings(c)
  if (missing.length > 0) {
    process.stderr.write(
      `Cannot register slash commands: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not set.\n` +
        '  fix: set DISCORD_TOKEN (bot token), DISCORD_APP_ID (application id) and DISCORD_GUILD_ID (server id),\n' +
        '       all from the Discord developer portal / server settings, then run npm run discord:deploy again.\n',
    )
    return 2
  }
  try {
    const names = await deployGuildCommands({
      token: c.DISCORD_TOKEN!,
      appId: c.DISCORD_APP_ID!,
      guildId: c.DISCORD_GUILD_ID!,
      commands: all(),
    })
    process.stdout.write(
      `Registered ${names.length} slash commands in guild ${c.DISCORD_GUILD_ID}: ${names.map((n) => `/${n}`).join(' ')}\n`,
    )
    return 0
  } catch (err) {
    process.stderr.write(`Discord refused the registration: ${err instanceof Error ? err.message : String(err)}\n`)
    return 1
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${String(err)}\n`)
    process.exit(1)
  },
)
