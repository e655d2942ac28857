/**
 * The list of our server-side plugins, in load order. Each file is one mechanic with the SquidPlugin contract;
 * practice-world issues add their plugins here.
 */
import type { SquidPlugin } from '../squid.js'
import playerVisibility from './player-visibility.js'
import tell from './tell.js'

export const plugins: SquidPlugin[] = [
  playerVisibility,
  tell,
]
