/**
 * Registering the slash commands: one REST `PUT` of every generated command to the guild
 * (DISCORD_APP_ID, DISCORD_GUILD_ID, authorised with DISCORD_TOKEN). Guild commands update at once, unlike global
 * ones. `missingDeploySettings` lists what is unset so the script can fail with a clear message.
 */
import { REST, Routes, type RESTOptions } from 'discord.js'
import type { Config } from '../../config.js'
import type { CommandDefinition } from '../../router/command.js'
import { slashCommands } from './slash.js'

type DeployConfig = Pick<Config, 'DISCORD_TOKEN' | 'DISCORD_APP_ID' | 'DISCORD_GUILD_ID'>

export function missingDeploySettings(config: DeployConfig): string[] {
  return (['DISCORD_TOKEN', 'DISCORD_APP_ID', 'DISCORD_GUILD_ID'] as const).filter((k) => !config[k])
}

export interface DeployOptions {
  token: string
  appId: string
  guildId: string
  commands: CommandDefinition[]
  /** discord.js REST options (tests pass `makeRequest` to answer without the network). */
  rest?: Partial<RESTOptions>
}

/** Replaces the guild's commands with ours; resolves with the registered names. */
export async function deployGuildCommands(o: DeployOptions): Promise<string[]> {
  const body = slashCommands(o.commands)
  const rest = new REST({ ...o.rest }).setToken(o.token)
  await rest.put(Routes.applicationGuildCommands(o.appId, o.guildId), { body })
  return body.map((c) => c.name)
}
