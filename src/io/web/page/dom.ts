/**
 * DOM helpers for the web page: build elements whose text is always set with textContent (player and bot text is
 * untrusted data and is never parsed as HTML), find required elements by id, and replace a list's children.
 */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const e = document.getElementById(id)
  if (!e) throw new Error(`the page has no #${id}`)
  return e as T
}

export interface ElOptions {
  cls?: string
  text?: string
  attrs?: Record<string, string>
}

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  opts: ElOptions = {},
  children: Array<Node | string> = [],
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag)
  if (opts.cls) e.className = opts.cls
  if (opts.text !== undefined) e.textContent = opts.text
  for (const [k, v] of Object.entries(opts.attrs ?? {})) e.setAttribute(k, v)
  for (const c of children) e.append(typeof c === 'string' ? document.createTextNode(c) : c)
  return e
}

export function replaceChildren(parent: HTMLElement, children: Node[]): void {
  parent.replaceChildren(...children)
}

export function setText(id: string, text: string): void {
  byId(id).textContent = text
}

/** Append to a scrolling log, keeping at most `max` entries and the newest in view. */
export function appendLog(list: HTMLElement, item: HTMLElement, max = 100): void {
  list.append(item)
  while (list.children.length > max) list.firstElementChild?.remove()
  list.scrollTop = list.scrollHeight
}

export function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`
}
