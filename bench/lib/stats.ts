/**
 * The benchmarks' summary statistics, one definition each: the nearest-rank percentile (first-reply latencies, the
 * event loop's lateness, the memory bench's query times) and the median (milestone times, run durations).
 */

/** The nearest-rank quantile `q` (0–1) of `xs` (NaN when empty). */
export function percentile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN
}

export function median(xs: number[]): number | null {
  if (xs.length === 0) return null
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}
