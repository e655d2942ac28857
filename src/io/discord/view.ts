/**
 * What the one public Discord message of a request shows: the reply lines so far (content) and, for a task, an
 * embed built from its TaskEvents — state (queued, running, done, failed), the latest progress message, the
 * sub-goal tree with a mark per status, done/total counts and the last action result. Pure: events in, a
 * message payload out; the responder decides when to send or edit it.
 */
import { EmbedBuilder, escapeMarkdown, type APIEmbed } from 'discord.js'
import type { SubGoalProgress, TaskEvent } from '../../schemas/task.js'

/** Discord's limits (content 2000, embed description 4096); we stay below them. */
const CONTENT_LIMIT = 1900
const DESCRIPTION_LIMIT = 3500
const MAX_SUBGOAL_LINES = 25

const MARK: Record<SubGoalProgress['status'], string> = {
  pending: '⬜',
  running: '🔄',
  done: '✅',
  failed: '❌',
  skipped: '⏭️',
}
const COLOUR = { queued: 0x95a5a6, running: 0x3498db, done: 0x2ecc71, failed: 0xe74c3c } as const

export interface MessagePayload {
  content: string
  embeds: APIEmbed[]
}

export class RequestView {
  private readonly lines: string[] = []
  private command: string | null = null
  private state: keyof typeof COLOUR | null = null
  private position = 0
  private message = ''
  private subgoals: SubGoalProgress[] = []
  private done = 0
  private total = 0
  private lastAction: string | null = null
  private durationMs: number | null = null
  private outcome = ''

  /** True once a task event arrived: the view then carries an embed. */
  get isTask(): boolean {
    return this.state !== null
  }
  get finished(): boolean {
    return this.state === 'done' || this.state === 'failed'
  }

  addLine(text: string): void {
    this.lines.push(text)
  }

  apply(e: TaskEvent): void {
    switch (e.kind) {
      case 'queued':
        this.command = e.command
        this.state = 'queued'
        this.position = e.position
        break
      case 'started':
        this.command = e.command
        this.state = 'running'
        break
      case 'progress':
        this.state = 'running'
        this.message = e.message
        this.subgoals = e.subgoals
        this.done = e.done
        this.total = e.total
        break
      case 'action':
        this.state ??= 'running'
        this.lastAction = `${e.ok ? '✅' : '❌'} ${e.action}${e.reason ? ` (${e.reason})` : ''}: ${e.message}`
        break
      case 'finished':
        this.state = e.ok ? 'done' : 'failed'
        this.durationMs = e.durationMs
        this.outcome = e.message
        break
    }
  }

  render(): MessagePayload {
    let content = this.lines.join('\n')
    if (content.length > CONTENT_LIMIT) content = `…${content.slice(content.length - CONTENT_LIMIT)}`
    return { content, embeds: this.state ? [this.embed()] : [] }
  }

  private embed(): APIEmbed {
    const state = this.state!
    const title = `${this.command ?? 'task'} — ${state === 'queued' ? `queued (${this.position} ahead)` : state}`
    const parts: string[] = []
    if (this.message) parts.push(escapeMarkdown(this.message))
    const shown = this.subgoals.slice(0, MAX_SUBGOAL_LINES)
    for (const g of shown)
      parts.push(`${'\u2003'.repeat(Math.min(g.depth, 6))}${MARK[g.status]} ${escapeMarkdown(g.label)}`)
    if (this.subgoals.length > shown.length) parts.push(`… and ${this.subgoals.length - shown.length} more`)
    if (this.finished && this.outcome && this.outcome !== 'done')
      parts.push(`**Result:** ${escapeMarkdown(this.outcome)}`)
    let description = parts.join('\n')
    if (description.length > DESCRIPTION_LIMIT) description = `${description.slice(0, DESCRIPTION_LIMIT)}…`
    const b = new EmbedBuilder().setTitle(title.slice(0, 250)).setColor(COLOUR[state])
    if (description) b.setDescription(description)
    if (this.total > 0) b.addFields({ name: 'Progress', value: `${this.done}/${this.total}`, inline: true })
    if (this.lastAction)
      b.addFields({ name: 'Last action', value: escapeMarkdown(this.lastAction).slice(0, 1000), inline: false })
    if (this.durationMs !== null) b.setFooter({ text: `took ${Math.round(this.durationMs / 100) / 10}s` })
    return b.toJSON()
  }
}
