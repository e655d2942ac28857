/**
 * The command contract (after the discord.js guide: one file per command exporting its definition and handler).
 * A command is defined once — name, description, zod args, minimum role, whether it runs as a queued task — and
 * the same definition drives chat parsing, help, Discord slash commands and ws requests.
 */
import type { z } from 'zod'
import type { Role, Request } from './request.js'
import type { Services } from './services.js'
import type { ProgressSink } from './progress.js'

export interface CommandContext<A> {
  request: Request
  args: A
  role: Role
  services: Services
  /** Aborted by `stop` (only for task commands; instant commands get a never-aborted signal). */
  signal: AbortSignal
  /** Report progress of a task (sub-goals, action results); no-op for instant commands. */
  progress: ProgressSink
  taskId: string
}

export interface CommandDefinition<S extends z.ZodType = z.ZodType> {
  name: string
  aliases?: string[]
  description: string
  /** Argument usage shown in help, e.g. "<player>". */
  usage?: string
  /** Parses the words after the command name. Receives `{ rest: string, words: string[] }`. */
  args: S
  minRole: Role
  /** 'task' commands run one at a time through the queue and can be stopped; 'instant' answer at once. */
  mode: 'instant' | 'task'
  /** Returns the final reply text (or nothing when the handler already replied). */
  run(ctx: CommandContext<z.output<S>>): Promise<string | void>
}

/** Identity helper that keeps the args type flowing into `run`. */
export function defineCommand<S extends z.ZodType>(def: CommandDefinition<S>): CommandDefinition<S> { return def }

export interface RawArgs { rest: string; words: string[] }
