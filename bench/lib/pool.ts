/**
 * Runs benchmark jobs a few at a time (bench:diamond's DIAMOND_PARALLEL, bench:mp5's MP5_PARALLEL): `parallel`
 * workers take jobs from one queue in the order given, so put the longest first to keep the tail short. Also owns
 * the one check of a `*_PARALLEL` setting (1..4: each run is its own server child and bot; 2 cores keep up with 4).
 */

/** Run `fn` on every job, at most `parallel` at once; results come back in the jobs' order. */
export async function pool<J, R>(jobs: J[], parallel: number, fn: (job: J) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(jobs.length)
  let next = 0
  const worker = async (): Promise<void> => {
    for (let i = next++; i < jobs.length; i = next++) results[i] = await fn(jobs[i]!)
  }
  await Promise.all(Array.from({ length: Math.max(1, parallel) }, worker))
  return results
}

/** Reads a `*_PARALLEL` variable: a whole number 1..4, default 1; throws a message naming the variable. */
export function parallelFrom(name: string, raw: string | undefined): number {
  const n = Number(raw ?? 1)
  if (!Number.isInteger(n) || n < 1 || n > 4) throw new Error(`${name} must be 1..4, got ${raw}`)
  return n
}
