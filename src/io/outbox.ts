/**
 * Paced outgoing chat: every line the bot says goes through one queue that sends at most one line per
 * `intervalMs` (default 600 ms) so server spam protection never kicks the bot. Long texts are split to the chat
 * limit (256 characters including any command header such as "/tell Name "). `flush()` resolves when all is sent.
 */
import { splitMessage } from '../util/text.js'

export interface ChatSender {
  chat(line: string): void
  whisper(player: string, line: string): void
}

interface Line { to: string | null; text: string; done: () => void }

export const CHAT_LIMIT = 256

export class Outbox {
  private readonly lines: Line[] = []
  private timer: NodeJS.Timeout | null = null
  private lastSentAt = 0
  readonly sent: Array<{ to: string | null; text: string; at: number }> = []

  constructor(private readonly sender: () => ChatSender | null, private readonly intervalMs: number) {}

  /** Queue a message (split as needed); resolves when its last line is sent. */
  say(text: string, to: string | null = null): Promise<void> {
    const header = to ? `/tell ${to} `.length : 0
    const parts = splitMessage(text, CHAT_LIMIT - header)
    if (parts.length === 0) return Promise.resolve()
    return new Promise((resolve) => {
      parts.forEach((p, i) => this.lines.push({ to, text: p, done: i === parts.length - 1 ? resolve : () => {} }))
      this.schedule()
    })
  }

  private schedule(): void {
    if (this.timer || this.lines.length === 0) return
    const waitMs = Math.max(0, this.lastSentAt + this.intervalMs - Date.now())
    this.timer = setTimeout(() => { this.timer = null; this.sendOne() }, waitMs)
  }

  private sendOne(): void {
    const line = this.lines.shift()
    if (!line) return
    const s = this.sender()
    if (s) {
      if (line.to) s.whisper(line.to, line.text)
      else s.chat(line.text)
      this.sent.push({ to: line.to, text: line.text, at: Date.now() })
      if (this.sent.length > 200) this.sent.shift()
    }
    this.lastSentAt = Date.now()
    line.done()
    this.schedule()
  }

  pending(): number { return this.lines.length }
  close(): void { if (this.timer) clearTimeout(this.timer); this.timer = null; for (const l of this.lines.splice(0)) l.done() }
}
