/**
 * The one list of commands. Chat, Discord slash commands, ws requests and help are all generated from it.
 * Add a command: create commands/<name>.ts exporting a `defineCommand(...)` default, then list it here.
 */
import type { CommandDefinition } from '../src/router/command.js'
import help from './help.js'
import status from './status.js'
import inventory from './inventory.js'
import come from './come.js'
import follow from './follow.js'
import stop from './stop.js'

export function all(): CommandDefinition[] {
  return [help, status, inventory, come, follow, stop] as CommandDefinition[]
}
