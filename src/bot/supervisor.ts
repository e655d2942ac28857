/**
 * Keeps the bot connected: connects, and after a kick, an `end` or an error reconnects with exponential backoff
 * (1 s doubling to 30 s, reset after a stable session), logging why. Emits `spawn(bot)` for every new session so
 * channels and capabilities can attach to the fresh bot, and `disconnect(reason)`. `stop()` quits for good.
 */
import { EventEmitter } from 'node:events'
import { logger } from '../util/log.js'
import { createBot, type Bot, type BotOptions } from './create.js'

const log = logger('bot')

export interface SupervisorOptions extends BotOptions {
  initialBackoffMs?: number
  maxBackoffMs?: number
  /** A session that lasted this long resets the backoff. */
  stableMs?: number
}

export class BotSupervisor extends EventEmitter {
  private bot: Bot | null = null
  private stopped = false
  private backoffMs: number
  private timer: NodeJS.Timeout | null = null
  readonly reconnects: Array<{ reason: string; delayMs: number; at: number }> = []

  constructor(private readonly opts: SupervisorOptions) {
    super()
    this.backoffMs = opts.initialBackoffMs ?? 1000
  }

  /** The connected and spawned bot, or null while reconnecting. */
  get current(): Bot | null {
    return this.bot
  }

  start(): void {
    this.connect()
  }

  private connect(): void {
    if (this.stopped) return
    const bot = createBot(this.opts)
    let spawnedAt = 0
    let ended = false
    const onGone = (reason: string): void => {
      if (ended) return
      ended = true
      if (this.bot === bot) this.bot = null
      this.emit('disconnect', reason)
      if (this.stopped) return
      if (spawnedAt && Date.now() - spawnedAt > (this.opts.stableMs ?? 60_000))
        this.backoffMs = this.opts.initialBackoffMs ?? 1000
      const delayMs = this.backoffMs
      this.backoffMs = Math.min(this.backoffMs * 2, this.opts.maxBackoffMs ?? 30_000)
      this.reconnects.push({ reason, delayMs, at: Date.now() })
      log.warn('disconnected; reconnecting', { reason, delayMs })
      this.timer = setTimeout(() => {
        this.timer = null
        this.connect()
      }, delayMs)
    }
    bot.once('spawn', () => {
      spawnedAt = Date.now()
      this.bot = bot
      log.info('spawned', { username: bot.username })
      this.emit('spawn', bot)
    })
    bot.on('kicked', (reason) => {
      log.warn('kicked', { reason: typeof reason === 'string' ? reason : JSON.stringify(reason) })
      onGone(`kicked: ${typeof reason === 'string' ? reason : JSON.stringify(reason)}`)
    })
    bot.on('error', (err) => {
      log.warn('connection error', { err: err.message })
      bot.end('error')
      onGone(`error: ${err.message}`)
    })
    bot.on('end', (reason) => onGone(`end: ${reason}`))
  }

  /** Reconnect now instead of waiting out the backoff (e.g. the embedded server was just restarted). */
  reconnectNow(): void {
    if (this.stopped || !this.timer) return
    clearTimeout(this.timer)
    this.timer = null
    this.backoffMs = this.opts.initialBackoffMs ?? 1000
    this.connect()
  }

  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    const bot = this.bot
    this.bot = null
    if (bot) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 2000)
        bot.once('end', () => {
          clearTimeout(t)
          resolve()
        })
        bot.quit('shutting down')
      })
    }
  }
}
