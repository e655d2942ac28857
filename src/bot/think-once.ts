/**
 * The pathfinder thinks once per physics frame, not once per physics tick. mineflayer's physics plugin runs up to 4
 * ticks back to back when its 50 ms timer comes late (catch-up ticks, so the body keeps real time), and
 * mineflayer-pathfinder thinks for up to `tickTimeout` (40 ms) on every tick: a late loop then spends up to 160 ms
 * thinking per frame, which makes it later still, for the whole length of a search. Bench runs share one process:
 * with 4 at a time the event loop ran 150–900 ms late at p99 and up to 1.5 s (mp5 c20, c21), and the longest busy
 * stretches of a CPU profile were the pathfinder on catch-up ticks. After each tick the search under way is given no
 * thinking time until the frame's ticks are done (a microtask, which runs once the physics timer's callback has
 * returned), then its own again; a frame with one tick, the usual case, is unchanged.
 */
import type { Bot } from 'mineflayer'

/** The part of mineflayer-pathfinder's A* search its path updates carry (`context`) that this changes. */
interface Search {
  tickTimeout: number
}

/** Let `bot`'s pathfinder think on the first tick of each physics frame only. */
export function thinkOncePerFrame(bot: Bot): void {
  let search: Search | null = null
  let thinkMs = 0
  // every path update carries the search it came from (lib/astar.js's makeResult)
  const onUpdate = (r: { context?: Search }): void => {
    if (!r.context || r.context === search) return
    search = r.context
    thinkMs = r.context.tickTimeout
  }
  const onTick = (): void => {
    const s = search
    if (!s || s.tickTimeout === 0) return
    const full = thinkMs
    s.tickTimeout = 0
    queueMicrotask(() => {
      s.tickTimeout = full
    })
  }
  // mineflayer-pathfinder's events are not in mineflayer's typed events
  const events = bot as unknown as NodeJS.EventEmitter
  events.on('path_update', onUpdate)
  bot.on('physicsTick', onTick)
}
