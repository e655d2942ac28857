/**
 * The web page's entry (served as /app.js, compiled by esbuild at start-up): connects to the ws bridge on the
 * page's own origin (`/ws`), authenticates with the loopback session token from `/session` or a token the person
 * gives (`#token=…` or the form; kept in sessionStorage), subscribes to task events, status, memory and chat, and
 * polls the read-only views. Requests from the box and the Stop button are ordinary bridge `request`s, so they go
 * through the router's permission check and audit log as the token's role. One protocol: the message types are the
 * zod-inferred types of src/schemas/ws.ts (type-only imports; nothing of zod is shipped to the browser).
 */
import type { WsOut, WsViewName } from '../../../schemas/ws.js'
import { appendLog, byId, el, setText } from './dom.js'
import { showForbidden, showStatus, showView } from './panels.js'
import { GoalTree } from './tasks.js'

interface Session {
  tokenRequired: boolean
  token: string | null
  wsPath: string
  viewer: boolean
}

/**
 * Views are polled one at a time, every TICK_MS: first those an event made stale, else the next in turn. The bridge
 * rate-limits each client's requests and views together (5 at once, then 1/s), so this leaves room for the box.
 */
const ROTATION: WsViewName[] = ['queue', 'recent', 'audit', 'usage', 'memory']
const TICK_MS = 2000
const stale = new Set<WsViewName>()
let turn = 0
const tree = new GoalTree()
const pendingViews = new Map<string, WsViewName>()
const forbidden = new Set<WsViewName>()
let ws: WebSocket | null = null
let seq = 0
let authed = false
let refused = false
let ticker: number | null = null
let camera: 'first' | 'follow' = 'first'
let session: Session | null = null

function state(s: 'connecting' | 'open' | 'closed' | 'refused', text: string): void {
  const c = byId('conn')
  c.dataset.state = s
  c.textContent = text
}

function send(msg: Record<string, unknown>): void {
  if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ v: 1, ...msg }))
}

function askView(view: WsViewName, q?: string): void {
  if (!authed || forbidden.has(view)) return
  seq += 1
  const id = `v${seq}`
  pendingViews.set(id, view)
  send({ type: 'view', id, view, ...(q !== undefined ? { q } : {}) })
}

function tick(): void {
  let view = [...stale].find((v) => !forbidden.has(v))
  for (let i = 0; view === undefined && i < ROTATION.length; i++) {
    const v = ROTATION[turn++ % ROTATION.length]!
    if (!forbidden.has(v)) view = v
  }
  if (view === undefined) return
  stale.delete(view)
  askView(view)
}

function request(body: { text: string } | { command: string }, shown: string): void {
  seq += 1
  const id = `p${seq}`
  appendLog(byId('replies'), el('li', { attrs: { 'data-request': id } }, [el('b', { text: 'you: ' }), shown]))
  send({ type: 'request', id, ...body })
  stale.add('recent')
}

function onMessage(m: WsOut, token: string, name: string | undefined): void {
  switch (m.type) {
    case 'welcome':
      send({ type: 'auth', token, ...(name ? { name } : {}) })
      return
    case 'auth':
      authed = true
      state('open', 'connected')
      setText('role', m.role)
      setText('player', m.player)
      setText('auth-error', '')
      byId('token-form').hidden = true
      if (session?.tokenRequired)
        // biome-ignore lint/suspicious/noDocumentCookie: the viewer's iframe can only carry the token as a cookie
        document.cookie = `ghost_viewer=${encodeURIComponent(token)}; path=/viewer; SameSite=Strict`
      if (token !== session?.token) sessionStorage.setItem('ghost-token', token)
      send({ type: 'subscribe', topics: ['tasks', 'status', 'memory', 'chat'] })
      for (const v of ROTATION) stale.add(v)
      tick()
      ticker = window.setInterval(tick, TICK_MS)
      showViewer()
      return
    case 'error': {
      const view = m.requestId ? pendingViews.get(m.requestId) : undefined
      if (view) {
        pendingViews.delete(m.requestId!)
        if (m.code === 'forbidden') {
          forbidden.add(view)
          showForbidden(view, m.message)
        } else if (view !== 'memory_goal' && view !== 'memory_search') stale.add(view)
        return
      }
      if (m.code === 'auth_failed') {
        refused = true
        state('refused', 'refused')
        setText('auth-error', `Token refused: ${m.message}`)
        sessionStorage.removeItem('ghost-token')
        byId('token-form').hidden = false
        return
      }
      if (m.requestId)
        appendLog(
          byId('replies'),
          el('li', { cls: 'bad', attrs: { 'data-reply-to': m.requestId } }, [`error: ${m.message}`]),
        )
      return
    }
    case 'reply':
      appendLog(
        byId('replies'),
        el('li', { cls: m.private ? 'bad' : '', attrs: { 'data-reply-to': m.requestId } }, [
          el('b', { text: 'bot: ' }),
          m.text,
        ]),
      )
      return
    case 'task':
      tree.apply(m.event)
      if (m.event.kind !== 'progress' && m.event.kind !== 'action') stale.add('queue')
      if (m.event.kind === 'finished') {
        stale.add('recent')
        stale.add('audit')
        stale.add('usage')
      }
      return
    case 'status':
      showStatus(m)
      return
    case 'memory':
      stale.add('memory')
      return
    case 'view': {
      pendingViews.delete(m.requestId)
      showView(m.data, (key) => askView('memory_goal', key))
      return
    }
    case 'chat':
      appendLog(byId('events'), el('li', { cls: 'meta' }, [`<${m.username}> ${m.message}`]))
      return
    default:
      return
  }
}

function connect(token: string, name?: string): void {
  refused = false
  state('connecting', 'connecting…')
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws'
  const socket = new WebSocket(`${scheme}://${location.host}${session?.wsPath ?? '/ws'}`)
  ws = socket
  socket.addEventListener('message', (ev) => {
    try {
      onMessage(JSON.parse(String(ev.data)) as WsOut, token, name)
    } catch (err) {
      console.error(err)
    }
  })
  socket.addEventListener('close', () => {
    if (ws !== socket) return
    authed = false
    if (ticker !== null) clearInterval(ticker)
    ticker = null
    if (refused) return
    state('closed', 'disconnected — retrying')
    window.setTimeout(() => connect(token, name), 2000)
  })
}

function showViewer(): void {
  if (!session?.viewer) {
    byId('viewer').hidden = true
    setText('s-dim', 'the bot’s view is not available in this process')
    return
  }
  const frame = byId<HTMLIFrameElement>('viewer')
  const src = `/viewer/${camera}/`
  if (frame.getAttribute('src') !== src) frame.setAttribute('src', src)
  for (const b of document.querySelectorAll<HTMLButtonElement>('[data-cam]'))
    b.setAttribute('aria-selected', String(b.dataset.cam === camera))
}

function wire(): void {
  byId<HTMLFormElement>('request-form').addEventListener('submit', (ev) => {
    ev.preventDefault()
    const input = byId<HTMLInputElement>('request-text')
    const text = input.value.trim()
    if (text) request({ text }, text)
    input.value = ''
  })
  byId('stop').addEventListener('click', () => request({ command: 'stop' }, 'stop'))
  byId<HTMLFormElement>('mem-search-form').addEventListener('submit', (ev) => {
    ev.preventDefault()
    const q = byId<HTMLInputElement>('mem-search').value.trim()
    if (q) askView('memory_search', q)
  })
  byId<HTMLFormElement>('token-form').addEventListener('submit', (ev) => {
    ev.preventDefault()
    const t = byId<HTMLInputElement>('token').value.trim()
    if (t) {
      ws?.close()
      connect(t)
    }
  })
  for (const b of document.querySelectorAll<HTMLButtonElement>('[data-cam]')) {
    b.addEventListener('click', () => {
      camera = b.dataset.cam === 'follow' ? 'follow' : 'first'
      if (authed) showViewer()
    })
  }
}

async function main(): Promise<void> {
  wire()
  session = (await (await fetch('/session', { cache: 'no-store' })).json()) as Session
  const fromHash = new URLSearchParams(location.hash.slice(1)).get('token')
  if (fromHash) history.replaceState(null, '', location.pathname) // keep the token out of the address bar
  const token = fromHash ?? sessionStorage.getItem('ghost-token') ?? session.token
  if (!token) {
    state('refused', 'needs a token')
    byId('token-form').hidden = false
    return
  }
  connect(token, token === session.token ? 'web' : undefined)
}

void main()
