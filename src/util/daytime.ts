/**
 * Minecraft's day clock: DAY_TICKS ticks to a day, and any tick count (negative, or past a day) brought into the day
 * as vanilla's time of day in [0, DAY_TICKS). One definition for the practice server's `/time`, the percipient's
 * phases and bench:mp5's start times.
 */

/** Ticks in a Minecraft day (20 minutes at 20 ticks a second). */
export const DAY_TICKS = 24000

/** `ticks` as a time of day in [0, DAY_TICKS). */
export function dayTime(ticks: number): number {
  return ((ticks % DAY_TICKS) + DAY_TICKS) % DAY_TICKS
}
