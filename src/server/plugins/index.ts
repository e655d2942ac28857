/**
 * The list of our server-side plugins, in load order. Each file is one mechanic with the SquidPlugin contract;
 * practice-world issues add their plugins here.
 */
import type { SquidPlugin } from '../squid.js'
import playerVisibility from './player-visibility.js'
import tell from './tell.js'
import playerChat from './player-chat.js'
import commandLog from './command-log.js'
import dropsItems from './drops-items.js'
import drops from './drops.js'
import spawnPoint from './spawn-point.js'
import admin from './admin.js'
import adminEntities from './admin-entities.js'
import adminAck from './admin-ack.js'
import time from './time.js'
import weather from './weather.js'
import health from './health.js'
import hunger from './hunger.js'
import effects from './effects.js'
import death from './death.js'
import respawn from './respawn.js'
import damage from './damage.js'
import combat from './combat.js'
import combatArmor from './combat-armor.js'
import animals from './animals.js'
import mobs from './mobs.js'
import windows from './windows.js'
import placeFix from './place-fix.js'
import crafting from './crafting.js'
import furnace from './furnace.js'
import chest from './chest.js'
import sound from './sound.js'
import light from './light.js'
import notice from './notice.js'
import goneEntities from './gone-entities.js'
import toolWear from './tool-wear.js'
import loginFirst from './login-first.js'

export const plugins: SquidPlugin[] = [
  loginFirst,
  sound,
  light,
  notice,
  goneEntities,
  playerVisibility,
  tell,
  playerChat,
  commandLog,
  dropsItems,
  drops,
  spawnPoint,
  admin,
  adminEntities,
  adminAck,
  time,
  weather,
  health,
  effects,
  hunger,
  death,
  respawn,
  damage,
  combat,
  combatArmor,
  animals,
  mobs,
  windows,
  placeFix,
  crafting,
  furnace,
  chest,
  // after drops: a dig's loot is rolled with the tool as it was before the dig wore (or broke) it, as vanilla
  toolWear,
]
