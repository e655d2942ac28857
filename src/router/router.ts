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
import { AuditLog } from './audit.js'
import type { CommandDefinition } from './command.js'
import { CommandRegistry, parseRequest } from './parse.js'
import type { PermissionPolicy } from './permissions.js'
import type { TaskEvent } from './progress.js'
import { atLeast, type Request, type Role } from './request.js'
import { TaskQueue } from './queue.js'
import type { Services } from './services.js'

const log = logger('router')

export interface RouterOptions {
  commands: CommandDefinition[]
  policy: PermissionPolicy
  audit: AuditLog
  /** Services without the queue; the router adds its own queue. */
  services: Omit<Services, 'queue'>
}

export interface HandleOptions { strict?: boolean }

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

  get audit(): AuditLog { return this.opts.audit }

  roleOf(req: Request): Role { return this.opts.policy.roleOf(req.principal) }

  /** Subscribe to every task event (Discord embeds, ws subscribers, chat progress). */
  onTaskEvent(listener: (e: TaskEvent) => void): () => void {
    this.events.on('task', listener)
    return () => this.events.off('task', listener)
  }

  private publish(e: TaskEvent): void { this.events.emit('task', e) }

  async handle(req: Request, opts: HandleOptions = {}): Promise<void> {
    const parsed = parseRequest(req.text, this.registry, opts.strict ?? false)
    const role = this.roleOf(req)
    const base = { requestId: req.id, source: req.source, player: req.player, role, text: req.text }
    if (parsed.kind === 'empty') { await this.safeReply(req, 'Say `help` to see what I can do.'); return }
    if (parsed.kind === 'unknown') {
      this.opts.audit.record({ ...base, command: parsed.word, allowed: false, reason: 'unknown command' })
      const hint = parsed.suggestions.length > 0 ? ` Did you mean ${parsed.suggestions.map((s) => `"${s}"`).join(' or ')}?` : ''
      await this.safeReply(req, `I don't know the command "${parsed.word}".${hint} Say "help" for the list.`, true)
      return
    }
    const def = parsed.def
    if (this.opts.policy.failClosed && def.name !== 'help') {
      this.opts.audit.record({ ...base, command: def.name, allowed: false, reason: 'no owners configured' })
      await this.safeReply(req, 'I have no owners configured on this server, so I only answer "help". The server admin must set GHOST_OWNERS to their player name(s) and restart me.', true)
      return
    }
    if (!atLeast(role, def.minRole)) {
      this.opts.audit.record({ ...base, command: def.name, allowed: false, reason: `needs ${def.minRole}` })
      await this.safeReply(req, `Sorry ${req.player}, "${def.name}" needs the ${def.minRole} role and you are ${role}.`, true)
      return
    }
    const args = def.args.safeParse(parsed.raw)
    if (!args.success) {
      this.opts.audit.record({ ...base, command: def.name, allowed: false, reason: 'bad arguments' })
      await this.safeReply(req, `Usage: ${def.name} ${def.usage ?? ''}`.trim() + ` — ${z.prettifyError(args.error).split('\n')[0]?.replace(/^✖\s*/, '') ?? 'bad arguments'}`, true)
      return
    }
    this.opts.audit.record({ ...base, command: def.name, allowed: true })
    if (def.mode === 'instant') {
      await this.runCommand(def, req, role, args.data, this.never, `i-${req.id}`)
      return
    }
    const taskId = `t-${req.id}`
    const position = this.queue.enqueue({
      id: taskId, player: req.player, command: def.name, text: req.text,
      run: async (signal) => {
        const startedAt = Date.now()
        this.publish({ kind: 'started', taskId, player: req.player, command: def.name, text: req.text })
        const ok = await this.runCommand(def, req, role, args.data, signal, taskId)
        this.publish({ kind: 'finished', taskId, ok: ok.ok, message: ok.message, durationMs: Date.now() - startedAt })
      },
    })
    if (position > 0) {
      this.publish({ kind: 'queued', taskId, player: req.player, command: def.name, position })
      await this.safeReply(req, `Queued "${def.name}" — ${position} task(s) ahead of yours.`)
    }
  }

  private async runCommand(def: CommandDefinition, req: Request, role: Role, args: unknown, signal: AbortSignal, taskId: string): Promise<{ ok: boolean; message: string }> {
    try {
      const out = await def.run({
        request: req, args, role, services: this.services, signal, taskId,
        progress: (e) => {
          if (e.kind === 'progress') this.queue.setProgress(taskId, `${e.done}/${e.total} ${e.message}`)
          this.publish(e)
        },
      })
      if (typeof out === 'string' && out.length > 0) await this.safeReply(req, out)
      return { ok: true, message: typeof out === 'string' ? out : 'done' }
    } catch (err) {
      if (isAbort(err) || signal.aborted) {
        await this.safeReply(req, `Stopped "${def.name}".`)
        return { ok: false, message: 'stopped' }
      }
      log.error('command failed', { command: def.name, err: err instanceof Error ? (err.stack ?? err.message) : String(err) })
      const msg = userMessageOf(err)
      await this.safeReply(req, `"${def.name}" failed: ${msg}`, true)
      return { ok: false, message: msg }
    }
  }

  private async safeReply(req: Request, text: string, privately = false): Promise<void> {
    try { await req.reply(text, { private: privately }) } catch (err) { log.warn('reply failed', { source: req.source, err: (err as Error).message }) }
  }
}
