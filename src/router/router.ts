/**
 * The router: the single entry point for every request from every channel. It parses the text, checks the
 * requester's role against the command's minimum role before anything happens, writes the audit line, then runs
 * instant commands at once or queues task commands (round-robin, one at a time). It is also the one place that
 * catches every command error and answers the user (privately where the channel can).
 */
import { EventEmitter } from 'node:events'
import { z } from 'zod'
import { logger } from '../util/log.js'
import { isAbort, userMessageOf } from '../util/errors.js'
import type { AuditLog } from './audit.js'
import type { CommandDefinition, Triage } from './command.js'
import { CommandRegistry, parseRequest } from './parse.js'
import type { PermissionPolicy } from './permissions.js'
import { failed, type Outcome, type TaskEvent } from '../schemas/task.js'
import type { Request } from './request.js'
import { atLeast, type Role } from '../schemas/role.js'
import { isPaused, MAX_WAITING_PER_PLAYER, TaskQueue } from './queue.js'
import type { Services } from './services.js'

const log = logger('router')

export interface RouterOptions {
  commands: CommandDefinition[]
  policy: PermissionPolicy
  audit: AuditLog
  /** Services without the queue; the router adds its own queue. */
  services: Omit<Services, 'queue'>
}

export interface HandleOptions {
  strict?: boolean
}
/** One answer the router gave, as published to `onReply` listeners. */
export interface ReplyRecord {
  requestId: string
  player: string
  source: string
  text: string
  private: boolean
  at: number
}

export class Router {
  readonly registry: CommandRegistry
  readonly queue = new TaskQueue()
  readonly events = new EventEmitter()
  readonly services: Services
  private readonly never = new AbortController().signal

  constructor(private readonly opts: RouterOptions) {
    this.registry = new CommandRegistry(opts.commands)
    this.services = { ...opts.services, queue: this.queue }
  }

  get audit(): AuditLog {
    return this.opts.audit
  }

  roleOf(req: Request): Role {
    return this.opts.policy.roleOf(req.principal)
  }

  /** Subscribe to every task event (Discord embeds, ws subscribers, chat progress). */
  onTaskEvent(listener: (e: TaskEvent) => void): () => void {
    this.events.on('task', listener)
    return () => this.events.off('task', listener)
  }

  private publish(e: TaskEvent): void {
    this.events.emit('task', e)
  }

  async handle(req: Request, opts: HandleOptions = {}): Promise<void> {
    const parsed = parseRequest(req.text, this.registry, opts.strict ?? false)
    const role = this.roleOf(req)
    const base = { requestId: req.id, source: req.source, player: req.player, role, text: req.text }
    if (parsed.kind === 'empty') {
      await this.safeReply(req, 'Say `help` to see what I can do.')
      return
    }
    if (parsed.kind === 'unknown') {
      this.opts.audit.record({ ...base, command: parsed.word, allowed: false, reason: 'unknown command' })
      const hint =
        parsed.suggestions.length > 0 ? ` Did you mean ${parsed.suggestions.map((s) => `"${s}"`).join(' or ')}?` : ''
      await this.safeReply(req, `I don't know the command "${parsed.word}".${hint} Say "help" for the list.`, true)
      return
    }
    const def = parsed.def
    if (this.opts.policy.failClosed && def.name !== 'help') {
      this.opts.audit.record({ ...base, command: def.name, allowed: false, reason: 'no owners configured' })
      await this.safeReply(
        req,
        'I have no owners configured on this server, so I only answer "help". The server admin must set GHOST_OWNERS to their player name(s) and restart me.',
        true,
      )
      return
    }
    if (!atLeast(role, def.minRole)) {
      this.opts.audit.record({ ...base, command: def.name, allowed: false, reason: `needs ${def.minRole}` })
      await this.safeReply(
        req,
        `Sorry ${req.player}, "${def.name}" needs the ${def.minRole} role and you are ${role}.`,
        true,
      )
      return
    }
    const args = def.args.safeParse(parsed.raw)
    if (!args.success) {
      this.opts.audit.record({ ...base, command: def.name, allowed: false, reason: 'bad arguments' })
      await this.safeReply(
        req,
        `Usage: ${def.name} ${def.usage ?? ''}`.trim() +
          ` — ${z.prettifyError(args.error).split('\n')[0]?.replace(/^✖\s*/, '') ?? 'bad arguments'}`,
        true,
      )
      return
    }
    this.opts.audit.record({ ...base, command: def.name, allowed: true })
    if (def.mode === 'instant') {
      await this.runCommand(def, req, role, args.data, this.never, `i-${req.id}`)
      return
    }
    // understood at arrival: answered at once, refused, or queued with an acknowledgement
    const triage = def.triage ? await this.triage(def, req, role, args.data) : null
    if (def.triage && !triage) return
    if (triage?.kind === 'answered') {
      await this.safeReply(req, triage.outcome.text, !triage.outcome.ok && triage.audit.some((a) => !a.allowed))
      return
    }
    const interactive = triage ? triage.interactive : (def.interactive ?? false)
    // short interactive requests (come, give, answers) are never turned away: they run first and are over quickly
    if (!interactive && this.queue.waitingFor(req.player) >= MAX_WAITING_PER_PLAYER) {
      this.opts.audit.record({ ...base, command: def.name, allowed: false, reason: 'too many waiting requests' })
      await this.safeReply(
        req,
        `You already have ${MAX_WAITING_PER_PLAYER} requests waiting, the most I keep per player. Wait for one to finish, or say "stop".`,
        true,
      )
      return
    }
    const taskId = `t-${req.id}`
    const runArgs = triage ? triage.args : args.data
    // paused because the bot lost the server: said when it goes, and again when the task carries on after the reconnect
    let offline = false
    const position = this.queue.enqueue({
      id: taskId,
      player: req.player,
      command: def.name,
      text: req.text,
      interactive,
      onPreempt: (by) => {
        void this.safeReply(
          req,
          `Pausing "${def.name}" for ${by.player === req.player ? 'your' : `${by.player}'s`} ${by.command}; I'll carry on right after.`,
        )
      },
      onHold: () => {
        offline = true
        void this.safeReply(req, `I lost my connection to the server; I'll carry on with "${def.name}" once I'm back.`)
      },
      run: async (signal) => {
        const startedAt = Date.now()
        if (offline) {
          offline = false
          await this.safeReply(req, `I'm back on the server; carrying on with "${def.name}".`)
        }
        this.publish({ kind: 'started', taskId, player: req.player, command: def.name, text: req.text })
        const out = await this.runCommand(def, req, role, runArgs, signal, taskId)
        if (!isPaused(signal))
          this.publish({ kind: 'finished', taskId, ok: out.ok, message: out.text, durationMs: Date.now() - startedAt })
      },
    })
    if (position > 0) this.publish({ kind: 'queued', taskId, player: req.player, command: def.name, position })
    if (triage)
      await this.safeReply(
        req,
        `${triage.ack} — ${position === 0 ? 'starting now' : `${position} request${position === 1 ? '' : 's'} ahead`}.`,
      )
    else if (position > 0) await this.safeReply(req, `Queued "${def.name}" — ${position} task(s) ahead of yours.`)
  }

  /**
   * Queue a short task the bot starts on its own for a player (handing over what it set aside for them when they
   * come near, src/agent/courier.ts): interactive like `come` (ahead of long tasks), with task events like any
   * other, no parsing or role check (the request that obtained the items was checked); `say` tells its outcome.
   */
  enqueueOwn(t: {
    player: string
    command: string
    text: string
    say(text: string): Promise<void>
    run(signal: AbortSignal): Promise<Outcome>
  }): void {
    const taskId = `o-${t.command}-${Date.now().toString(36)}`
    this.queue.enqueue({
      id: taskId,
      player: t.player,
      command: t.command,
      text: t.text,
      interactive: true,
      run: async (signal) => {
        const startedAt = Date.now()
        this.publish({ kind: 'started', taskId, player: t.player, command: t.command, text: t.text })
        const out = await t.run(signal).catch((err: unknown) => failed(isAbort(err) ? 'stopped' : userMessageOf(err)))
        if (out.text) await t.say(out.text).catch(() => {})
        this.publish({ kind: 'finished', taskId, ok: out.ok, message: out.text, durationMs: Date.now() - startedAt })
      },
    })
  }

  /** Runs a command's triage, audits every step it checked; null when it failed (the asker has been told). */
  private async triage(def: CommandDefinition, req: Request, role: Role, args: unknown): Promise<Triage | null> {
    try {
      const t = await def.triage!({ request: req, args, role, services: this.services })
      for (const a of t.audit) {
        this.opts.audit.record({
          requestId: req.id,
          source: req.source,
          player: req.player,
          role,
          text: req.text,
          command: `${def.name}:${a.step}`,
          allowed: a.allowed,
          ...(a.reason ? { reason: a.reason } : {}),
        })
      }
      return t
    } catch (err) {
      log.error('triage failed', {
        command: def.name,
        err: err instanceof Error ? (err.stack ?? err.message) : String(err),
      })
      await this.safeReply(req, `"${def.name}" failed: ${userMessageOf(err)}`, true)
      return null
    }
  }

  /** Runs one command and answers the asker; the outcome is the handler's own (never upgraded to success). */
  private async runCommand(
    def: CommandDefinition,
    req: Request,
    role: Role,
    args: unknown,
    signal: AbortSignal,
    taskId: string,
  ): Promise<Outcome> {
    try {
      const out = await def.run({
        request: req,
        args,
        role,
        services: this.services,
        signal,
        taskId,
        commands: this.registry.all,
        progress: (e) => {
          if (e.kind === 'progress') this.queue.setProgress(taskId, `${e.done}/${e.total} ${e.message}`)
          this.publish(e)
        },
      })
      if (isPaused(signal)) return failed('paused')
      if (out.text.length > 0) await this.safeReply(req, out.text)
      return out.text.length > 0 ? out : { ...out, text: out.ok ? 'done' : 'failed' }
    } catch (err) {
      if (isPaused(signal)) return failed('paused') // it runs again after the interactive task or the reconnect
      if (isAbort(err) || signal.aborted) {
        await this.safeReply(req, `Stopped "${def.name}".`)
        return failed('stopped')
      }
      log.error('command failed', {
        command: def.name,
        err: err instanceof Error ? (err.stack ?? err.message) : String(err),
      })
      const msg = userMessageOf(err)
      await this.safeReply(req, `"${def.name}" failed: ${msg}`, true)
      return failed(msg)
    }
  }

  /** Subscribe to every reply the router sends (the web page's "last requests and replies"). */
  onReply(listener: (r: ReplyRecord) => void): () => void {
    this.events.on('reply', listener)
    return () => this.events.off('reply', listener)
  }

  private async safeReply(req: Request, text: string, privately = false): Promise<void> {
    this.events.emit('reply', {
      requestId: req.id,
      player: req.player,
      source: req.source,
      text,
      private: privately,
      at: Date.now(),
    } satisfies ReplyRecord)
    try {
      await req.reply(text, { private: privately })
    } catch (err) {
      log.warn('reply failed', { source: req.source, err: (err as Error).message })
    }
  }
}
