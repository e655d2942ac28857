/**
 * Paced, safe outgoing chat: every line the bot says goes through one queue. Lines are made safe first
 * (`safeChatLine`: control and formatting characters removed, never starting with `/`, so nothing the bot says —
 * model text, stored lessons, echoed names — can become a server command) and then sent through a token bucket
 * (`burst` lines at once, then one per `intervalMs`; default one a second with a burst of 3, under vanilla's spam
 * kick). Each requester may have at most `maxPerRequester` lines waiting; more are dropped (one "…" marks the cut),
 * and the whole queue is capped at `maxQueued`. Long texts are split to the chat limit (256 characters including a
 * "/tell Name " header). `say` resolves when its last line is sent or dropped.
 */
import { logger } from '../util/log.js'
import { TokenBucket } from '../util/rate.js'
import { splitMessage } from '../util/text.js'

const log = logger('outbox')

export interface ChatSender {
  chat(line: string): void
  whisper(player: string, line: string): void
}

export interface OutboxOptions {
  /** One token is added every `intervalMs` (0 = no pacing). */
  intervalMs: number
  /** Lines that may go out back to back after a quiet spell. */
  burst?: number
  /** Lines one requester may have waiting. */
  maxPerRequester?: number
  /** Lines waiting in all. */
  maxQueued?: number
}

interface Line {
  to: string | null
  requester: string | null
  text: string
  done: () => void
}

export const CHAT_LIMIT = 256
/** What a Minecraft name looks like; whispers go only to such names. */
const PLAYER_NAME = /^[A-Za-z0-9_]{1,16}$/

/**
 * One outgoing line made safe: C0/C1 control characters, DEL, line/paragraph separators, bidi controls and the `§`
 * formatting sign become spaces (vanilla kicks for some of them), runs of spaces collapse, and a line that would
 * start with `/` (a command) gets a leading `.` instead of being sent as one.
 */
export function safeChatLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  const cleaned = text
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point of this line
    .replace(/[\u0000-\u001f\u007f-\u009f\u00a7\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  return cleaned.startsWith('/') ? `.${cleaned}` : cleaned
}

export class Outbox {
  private readonly lines: Line[] = []
  private timer: NodeJS.Timeout | null = null
  private readonly bucket: TokenBucket
  private readonly maxPerRequester: number
  private readonly maxQueued: number
  readonly sent: Array<{ to: string | null; text: string; at: number }> = []
  /** Lines dropped because a backlog cap was reached (for status and tests). */
  dropped = 0

  constructor(
    private readonly sender: () => ChatSender | null,
    opts: OutboxOptions,
  ) {
    this.bucket = new TokenBucket(Math.max(1, opts.burst ?? 3), opts.intervalMs)
    this.maxPerRequester = opts.maxPerRequester ?? 12
    this.maxQueued = opts.maxQueued ?? 60
  }

  /**
   * Queue a message (split and made safe); resolves when its last line is sent or dropped.
   * @param requester whose request this answers (for the per-requester cap); null for the bot's own lines.
   */
  say(text: string, to: string | null = null, requester: string | null = to): Promise<void> {
    if (to !== null && !PLAYER_NAME.test(to)) {
      log.warn('not whispering to an invalid name', { to: to.slice(0, 32) })
      return Promise.resolve()
    }
    const header = to ? `/tell ${to} `.length : 0
    const parts = splitMessage(text, CHAT_LIMIT - header)
      .map(safeChatLine)
      .filter((p) => p.length > 0)
    if (parts.length === 0) return Promise.resolve()
    const key = requester?.toLowerCase() ?? null
    let waiting = key === null ? 0 : this.lines.filter((l) => l.requester === key).length
    const kept: string[] = []
    for (const p of parts) {
      if (this.lines.length + kept.length >= this.maxQueued || (key !== null && waiting >= this.maxPerRequester)) break
      kept.push(p)
      waiting += 1
    }
    if (kept.length < parts.length) {
      this.dropped += parts.length - kept.length
      log.info('chat backlog full; dropping lines', { requester: key, dropped: parts.length - kept.length })
      if (kept.length > 0) kept[kept.length - 1] = `${kept[kept.length - 1]!.slice(0, CHAT_LIMIT - header - 2)} …`
    }
    if (kept.length === 0) return Promise.resolve()
    return new Promise((resolve) => {
      for (const [i, p] of kept.entries()) {
        this.lines.push({ to, requester: key, text: p, done: i === kept.length - 1 ? resolve : () => {} })
      }
      this.schedule()
    })
  }

  private schedule(): void {
    if (this.timer || this.lines.length === 0) return
    this.timer = setTimeout(() => {
      this.timer = null
      this.sendOne()
    }, this.bucket.waitMs())
  }

  private sendOne(): void {
    if (this.lines.length === 0) return
    if (!this.bucket.take()) {
      this.schedule()
      return
    }
    const line = this.lines.shift()!
    const s = this.sender()
    if (s) {
      if (line.to) s.whisper(line.to, line.text)
      else s.chat(line.text)
      this.sent.push({ to: line.to, text: line.text, at: Date.now() })
      if (this.sent.length > 200) this.sent.shift()
    }
    line.done()
    this.schedule()
  }

  pending(): number {
    return this.lines.length
  }
  close(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    for (const l of this.lines.splice(0)) l.done()
  }
}
