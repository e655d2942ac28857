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
import ask from './ask.js'
import goal from './goal.js'
import memory from './memory.js'
import look from './look.js'
import where from './where.js'
import goto from './goto.js'
import remember from './remember.js'
import forget from './forget.js'
import places from './places.js'

export function all(): CommandDefinition[] {
  return [
    help,
    status,
    inventory,
    come,
    follow,
    stop,
    ask,
    goal,
    memory,
    look,
    where,
    goto,
    remember,
    forget,
    places,
  ] as CommandDefinition[]
}
