/**
 * Slash commands generated from the one command list (commands/index.ts `all()`), so Discord offers exactly what
 * chat offers: one slash command per definition (aliases are not registered), with the definition's description.
 * `ask` takes a required `text` option; a command with a `usage` takes one string option `args` (required when the
 * usage starts with `<`); a command without usage takes none. `requestText` turns an interaction back into the
 * same text a chat line would carry ("follow Steve"), which the router then parses, permission-checks and runs.
 */
import {
  InteractionContextType,
  SlashCommandBuilder,
  type ChatInputCommandInteraction,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js'
import type { CommandDefinition } from '../../router/command.js'
import { logger } from '../../util/log.js'

const log = logger('discord')

/** Discord's rule for chat-input command and option names. */
const NAME = /^[-_\p{Ll}\p{Lo}\p{N}]{1,32}$/u

export type SlashOption = { name: 'text' | 'args'; required: boolean; description: string } | null

export function slashOptionOf(def: CommandDefinition): SlashOption {
  if (def.name === 'ask') return { name: 'text', required: true, description: 'what you want, in your own words' }
  if (!def.usage) return null
  return { name: 'args', required: def.usage.trim().startsWith('<'), description: def.usage.slice(0, 100) }
}

/** JSON bodies for `PUT /applications/:app/guilds/:guild/commands`. Skips (and logs) names Discord would reject. */
export function slashCommands(defs: CommandDefinition[]): RESTPostAPIChatInputApplicationCommandsJSONBody[] {
  const out: RESTPostAPIChatInputApplicationCommandsJSONBody[] = []
  const seen = new Set<string>()
  for (const def of defs) {
    if (!NAME.test(def.name)) {
      log.warn('command name is not a valid slash command name; skipped', { command: def.name })
      continue
    }
    if (seen.has(def.name)) continue
    seen.add(def.name)
    const description = (def.description.trim() || def.name).slice(0, 100)
    const b = new SlashCommandBuilder()
      .setName(def.name)
      .setDescription(description)
      .setContexts(InteractionContextType.Guild)
    const opt = slashOptionOf(def)
    if (opt)
      b.addStringOption((o) =>
        o.setName(opt.name).setDescription(opt.description).setRequired(opt.required).setMaxLength(1000),
      )
    out.push(b.toJSON())
  }
  return out.slice(0, 100) // Discord allows 100 chat-input commands per scope
}

/** The request text for a slash command: its name followed by the `text`/`args` option. */
export function requestText(interaction: ChatInputCommandInteraction): string {
  const value = interaction.options.getString('text') ?? interaction.options.getString('args') ?? ''
  return `${interaction.commandName} ${value}`.trim()
}
