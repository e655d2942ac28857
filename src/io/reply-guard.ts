/**
 * Keeps chat conversations from running away, so two bots (or a bot and an auto-reply plugin) that whisper each
 * other stop after one exchange instead of ping-ponging forever: a whisper that arrives less than `quickMs` after
 * our last whispered reply to its sender went out is an answer to that reply, not a request, and gets no reply
 * (people take longer to read and type; the request itself still runs); never a denial (an error, refusal or "unknown command", i.e. a private
 * reply) right after a denial to the same requester; and, for requesters that are not owners, at most
 * `maxReplies` replies per `windowMs`. Only replies are held back — the request itself still runs. Keyed by requester (the sender's UUID);
 * the table is bounded.
 */
export interface ReplyGuardOptions {
  windowMs?: number
  maxReplies?: number
  /** A second denial to the same requester within this time is not sent. */
  denialGapMs?: number
  maxRequesters?: number
  /** A whisper arriving this soon after our last reply to its sender is an automatic answer. */
  quickMs?: number
}

interface Entry {
  at: number[]
  lastDenialAt: number
  lastSentAt: number
}

export class ReplyGuard {
  private readonly entries = new Map<string, Entry>()
  private readonly windowMs: number
  private readonly maxReplies: number
  private readonly denialGapMs: number
  private readonly maxRequesters: number
  private readonly quickMs: number
  /** Replies held back so far (for status and tests). */
  held = 0

  constructor(opts: ReplyGuardOptions = {}) {
    this.windowMs = opts.windowMs ?? 30_000
    this.maxReplies = opts.maxReplies ?? 10
    this.denialGapMs = opts.denialGapMs ?? 5000
    this.maxRequesters = opts.maxRequesters ?? 1000
    this.quickMs = opts.quickMs ?? 1500
  }

  private entry(requester: string): Entry {
    let e = this.entries.get(requester)
    if (!e) {
      if (this.entries.size >= this.maxRequesters) this.entries.delete(this.entries.keys().next().value!)
      e = { at: [], lastDenialAt: 0, lastSentAt: 0 }
      this.entries.set(requester, e)
    }
    return e
  }

  /** Record that our reply to `requester` has just gone out. */
  sent(requester: string, now = Date.now()): void {
    this.entry(requester).lastSentAt = now
  }

  /** True when a line from `requester` arriving now answers our own last reply too fast to be typed by a person. */
  isQuickAnswer(requester: string, now = Date.now()): boolean {
    const e = this.entries.get(requester)
    return e !== undefined && e.lastSentAt > 0 && now - e.lastSentAt < this.quickMs
  }

  /** Count a reply held back for a reason decided elsewhere (e.g. a quick answer); always true ("held"). */
  hold(): true {
    this.held += 1
    return true
  }

  /**
   * True when a reply (a denial when `denial`) may be sent to `requester` now; records it when so.
   * @param limited whether the per-window reply limit applies (not to owners).
   */
  allow(requester: string, denial: boolean, now = Date.now(), limited = true): boolean {
    const e = this.entry(requester)
    e.at = e.at.filter((t) => now - t < this.windowMs)
    if (
      (limited && e.at.length >= this.maxReplies) ||
      (denial && e.lastDenialAt > 0 && now - e.lastDenialAt < this.denialGapMs)
    ) {
      this.held += 1
      return false
    }
    e.at.push(now)
    e.lastDenialAt = denial ? now : 0
    return true
  }
}
