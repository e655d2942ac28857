/**
 * Fix: flying-squid 1.12 creates players with `entityType: null`, which on 1.20.2 (unified spawn_entity packet)
 * reaches other clients as entity type 0 — an allay. We give every player the registry's `player` type id as soon
 * as flying-squid creates it, so other clients see players as players.
 */
import type { SquidPlugin } from '../squid.js'

const plugin: SquidPlugin = {
  name: 'player-visibility',
  player(player, serv) {
    const id = serv.registry.entitiesByName?.player?.id as number | undefined
    if (id !== undefined) player.entityType = id
  },
}
export default plugin
