/**
 * The web page's panels that show `view` answers (src/schemas/ws.ts `WsViewData`): the queue, the last requests
 * with their replies, memory (counts, goals, search results, one goal's reference plan as its list of actions and
 * its lessons), LLM usage per player against the budget, and the audit log tail; plus the bot's status line.
 * A view the token's role may not see shows why instead of data.
 */
import type { WsOut, WsViewData } from '../../../schemas/ws.js'
import { byId, el, replaceChildren, setText } from './dom.js'

type Status = Extract<WsOut, { type: 'status' }>
type View<K extends WsViewData['view']> = Extract<WsViewData, { view: K }>

/** Minecraft ticks (0 = 06:00) as a clock time. */
function clock(ticks: number): string {
  const h = (Math.floor(ticks / 1000) + 6) % 24
  const m = Math.floor(((ticks % 1000) / 1000) * 60)
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')} (${ticks})`
}

export function showStatus(s: Status): void {
  setText('s-health', s.health === null ? '—' : `${s.health} / 20`)
  setText('s-food', s.food === null ? '—' : `${s.food} / 20`)
  setText(
    's-pos',
    s.position ? `${s.position.x}, ${s.position.y}, ${s.position.z}` : s.connected ? '—' : 'not connected',
  )
  setText('s-biome', s.biome ?? '—')
  setText('s-time', s.timeOfDay === null || s.timeOfDay === undefined ? '—' : clock(s.timeOfDay))
  setText('s-dim', s.dimension ?? '—')
}

/** The panel (list or element) each view fills; used to show a `forbidden` answer in place. */
export const VIEW_TARGET: Record<WsViewData['view'], string> = {
  queue: 'queue',
  recent: 'recent',
  memory: 'mem-goals',
  memory_search: 'mem-results',
  memory_goal: 'mem-goal',
  usage: 'usage',
  audit: 'audit',
}

export function showForbidden(view: WsViewData['view'], message: string): void {
  const target = byId(VIEW_TARGET[view])
  const item =
    target.tagName === 'TBODY'
      ? el('tr', {}, [el('td', { cls: 'forbidden', text: message, attrs: { colspan: '4' } })])
      : el(target.tagName === 'OL' ? 'li' : 'p', { cls: 'forbidden', text: message })
  replaceChildren(target, [item])
}

export function showView(d: WsViewData, openGoal: (key: string) => void): void {
  switch (d.view) {
    case 'queue':
      showQueue(d)
      return
    case 'recent':
      showRecent(d)
      return
    case 'memory':
      showMemory(d, openGoal)
      return
    case 'memory_search':
      replaceChildren(
        byId('mem-results'),
        d.results.length === 0
          ? [el('li', { cls: 'meta', text: `nothing like “${d.query}”` })]
          : d.results.map((r) =>
              el('li', {}, [
                goalButton(r.goalKey, openGoal),
                el('span', { cls: 'meta', text: `${r.match} ${r.similarity} · ${r.actions.length} actions` }),
              ]),
            ),
      )
      return
    case 'memory_goal':
      showGoal(d)
      return
    case 'usage':
      showUsage(d)
      return
    case 'audit':
      replaceChildren(
        byId('audit'),
        d.entries
          .slice()
          .reverse()
          .map((e) =>
            el('li', { cls: e.allowed ? '' : 'bad' }, [
              el('span', { cls: 'time', text: e.t.slice(11, 19) }),
              ` ${e.player} (${e.source}, ${e.role}) ${e.command} ${e.allowed ? 'allowed' : `denied: ${e.reason ?? ''}`} — ${e.text}`,
            ]),
          ),
      )
      return
  }
}

function showQueue(d: View<'queue'>): void {
  const rows = [
    ...(d.current
      ? [
          el('li', { cls: 'good' }, [
            el('b', { text: 'running ' }),
            `${d.current.command} for ${d.current.player}`,
            el('span', { cls: 'meta', text: d.current.progress }),
          ]),
        ]
      : []),
    ...d.pending.map((t, i) =>
      el('li', {}, [`${i + 1}. ${t.command} for ${t.player}`, el('span', { cls: 'meta', text: t.text })]),
    ),
  ]
  replaceChildren(byId('queue'), rows.length ? rows : [el('li', { cls: 'meta', text: 'nobody is waiting' })])
}

function showRecent(d: View<'recent'>): void {
  replaceChildren(
    byId('recent'),
    d.entries
      .slice()
      .reverse()
      .map((e) =>
        el('li', { attrs: { 'data-request': e.requestId } }, [
          el('b', { text: e.player }),
          el('span', { cls: 'who', text: e.source }),
          `: ${e.text}`,
          ...e.replies.map((r) => el('div', { cls: r.private ? 'bad' : 'meta', text: `→ ${r.text}` })),
        ]),
      ),
  )
}

function goalButton(key: string, openGoal: (key: string) => void): HTMLElement {
  const b = el('button', { text: key, attrs: { type: 'button', 'data-goal': key } })
  b.addEventListener('click', () => openGoal(key))
  return b
}

function showMemory(d: View<'memory'>, openGoal: (key: string) => void): void {
  const s = d.stats
  setText(
    'mem-stats',
    `${s.goals} goals · ${s.plans} plans (${s.successes} ok, ${s.failures} failed) · ${s.references} reference plans · ${s.lessons} lessons · ${s.knowledge} knowledge chunks`,
  )
  replaceChildren(
    byId('mem-goals'),
    d.goals.length === 0
      ? [el('li', { cls: 'meta', text: 'memory is empty' })]
      : d.goals.map((g) =>
          el('li', {}, [
            goalButton(g.goalKey, openGoal),
            el('span', { cls: 'meta', text: `${g.successes}/${g.plans} ok${g.hasReference ? ', summarised' : ''}` }),
          ]),
        ),
  )
}

function showGoal(d: View<'memory_goal'>): void {
  const parts: HTMLElement[] = [el('h3', { text: d.goalKey })]
  if (!d.found) parts.push(el('p', { cls: 'meta', text: 'memory holds nothing for this goal' }))
  const ref =
    d.reference ??
    (d.plans[0] ? { source: `plan #${d.plans[0].id} (${d.plans[0].outcome})`, actions: d.plans[0].actions } : null)
  if (ref)
    parts.push(
      el('p', { cls: 'meta', text: `Reference plan: ${ref.source}` }),
      el(
        'ol',
        { attrs: { id: 'mem-actions' } },
        ref.actions.map((a) => el('li', { text: a })),
      ),
    )
  if (d.lessons.length)
    parts.push(
      el('p', { cls: 'meta', text: 'Lessons' }),
      el(
        'ul',
        {},
        d.lessons.map((l) => el('li', { text: `${l.cause} ${l.suggestions.join(' ')}` })),
      ),
    )
  replaceChildren(byId('mem-goal'), parts)
}

function showUsage(d: View<'usage'>): void {
  setText(
    'usage-head',
    d.model === null
      ? `offline planner (no LLM configured); budget ${d.budgetPerPlayer} tokens per player`
      : `${d.model}: ${d.total.calls} calls, ${d.total.totalTokens} tokens in all; budget ${d.budgetPerPlayer} tokens per player`,
  )
  replaceChildren(
    byId('usage'),
    d.players.length === 0
      ? [el('tr', {}, [el('td', { cls: 'meta', text: 'no LLM calls yet', attrs: { colspan: '4' } })])]
      : d.players.map((p) =>
          el('tr', {}, [
            el('td', { text: p.player }),
            el('td', { text: String(p.calls) }),
            el('td', { text: String(p.totalTokens) }),
            el('td', {
              cls: p.remaining === 0 ? 'bad' : '',
              text: `${p.remaining} (${d.budgetPerPlayer ? Math.round((100 * p.remaining) / d.budgetPerPlayer) : 0}%)`,
            }),
          ]),
        ),
  )
}
