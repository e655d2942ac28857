/**
 * The command contract (after the discord.js guide: one file per command exporting its definition and handler).
 * A command is defined once — name, description, zod args, minimum role, whether it runs as a queued task — and
 * the same definition drives chat parsing, help, Discord slash commands and ws requests.
 */
import type { z } from 'zod'
import type { Request } from './request.js'
import type { Role } from '../schemas/role.js'
import type { Services } from './services.js'
import type { Outcome, ProgressSink } from '../schemas/task.js'

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
  /** Every command the router knows, in listing order (what `help` shows); passed in so no command imports the list. */
  commands: readonly CommandDefinition[]
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
  /** Returns the outcome: `ok` only for real success, `text` the reply (empty when the handler already replied). */
  run(ctx: CommandContext<z.output<S>>): Promise<Outcome>
  /** Short and interactive (`come`): runs ahead of long tasks, pausing a running one, which resumes afterwards. */
  interactive?: boolean
  /**
   * Task commands only: decide when the request arrives, before it is queued — answer it at once, or queue it with
   * an acknowledgement ("On it: 3 torch for you") and the args `run` receives. Every step it checked is audited.
   */
  triage?(ctx: TriageContext<z.output<S>>): Promise<Triage>
}

export type TriageContext<A> = Pick<CommandContext<A>, 'request' | 'args' | 'role' | 'services'>
/** One checked part of a request, for the audit log (`command` is written as `<command>:<step>`). */
export interface StepAudit {
  step: string
  allowed: boolean
  reason?: string
}
export type Triage =
  | { kind: 'answered'; outcome: Outcome; audit: StepAudit[] }
  | { kind: 'queue'; args: unknown; interactive: boolean; ack: string; audit: StepAudit[] }

/** Identity helper that keeps the args type flowing into `run`. */
export function defineCommand<S extends z.ZodType>(def: CommandDefinition<S>): CommandDefinition<S> {
  return def
}

export interface RawArgs {
  rest: string
  words: string[]
}
