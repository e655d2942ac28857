/**
 * Text helpers: edit distance and "did you mean" suggestions (used for commands and item names), splitting replies
 * to the chat limit on word boundaries, and parsing JSON word tables safely.
 */
/** Optimal-string-alignment distance: insertions, deletions, substitutions and adjacent transpositions cost 1. */
export function editDistance(a: string, b: string): number {
  const m = a.length,
    n = b.length
  if (m === 0) return n
  if (n === 0) return m
  const d: number[][] = Array.from({ length: m + 1 }, (_, i) =>
    Array.from({ length: n + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  )
  for (let i = 1; i <= m; i++) {
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1)
      d[i]![j] = v
    }
  }
  return d[m]![n]!
}

/** Closest candidates within a distance relative to the word's length, best first. */
export function didYouMean(word: string, candidates: Iterable<string>, max = 3): string[] {
  if (word.length > 64) return [] // no name is this long; edit distance on it would only block the event loop
  const w = word.toLowerCase()
  const limit = Math.max(1, Math.min(3, Math.floor(w.length / 3)))
  const scored: Array<[string, number]> = []
  for (const c of candidates) {
    const d = editDistance(w, c.toLowerCase())
    if (d <= limit || (w.length >= 3 && c.toLowerCase().includes(w))) scored.push([c, d])
  }
  return scored
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
    .slice(0, max)
    .map(([c]) => c)
}

/** Split text into lines of at most `limit` characters, breaking at spaces where possible. */
export function splitMessage(text: string, limit = 256): string[] {
  const out: string[] = []
  for (const para of text.split('\n')) {
    let rest = para.trim()
    while (rest.length > limit) {
      let cut = rest.lastIndexOf(' ', limit)
      if (cut < limit / 2) cut = limit
      out.push(rest.slice(0, cut).trimEnd())
      rest = rest.slice(cut).trimStart()
    }
    if (rest.length > 0) out.push(rest)
  }
  return out
}

/** Parse a JSON table into prototype-less objects, so a key like "constructor" or "__proto__" is never found in it. */
export function parseTable(text: string): unknown {
  return JSON.parse(text, (_k, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.assign(Object.create(null) as object, v) : v,
  )
}
