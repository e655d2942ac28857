/**
 * Players see players. Two flying-squid 1.12 faults fixed from outside:
 * 1. players are created with `entityType: null`, which on 1.20.2 (unified spawn_entity packet) reaches other
 *    clients as entity type 0 — an allay. We set the registry's `player` type id as soon as the player exists;
 * 2. the tab list is written to everyone *except* the newcomer (`_sendPlayerList` uses `_writeOthers`), so late
 *    joiners cannot name earlier players, and no client ever has its own entry (mineflayer's `bot.player` stayed
 *    unset and `bot.players` lacked the bot). Right before the newcomer's first `updateAndSpawn` we send it the
 *    whole list, its own entry included, as vanilla does on join, so spawned players arrive with their names;
 * 3. on 1.19.3+ a leaving player is announced with a `player_info` "remove" bit that no longer exists, so clients
 *    never learn that the player left: we send the `player_remove` packet to everyone still online;
 * 4. a newcomer is in `serv.players` while it still logs in, and any entity that moves then (a wandering sheep) runs
 *    its own `updateAndSpawn`, which sets the newcomer's `nearbyEntities` to everything near it without spawning
 *    those to it: its own first `updateAndSpawn` then spawns only the difference, and the players and mobs already
 *    standing there never appear (1 rejoin in 25 in a test loop; a restarted bot did not see its owner). The first
 *    `updateAndSpawn` starts from an empty list, so it spawns everything near (what reached the client before its
 *    login packet was dropped by it anyway).
 */
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid.js'

/** The whole tab list (every player online, the newcomer too) to the newcomer. */
function sendTabListTo(player: SquidPlayer, serv: SquidServer): void {
  const everyone = serv.players.filter((p) => p.username)
  if (!everyone.includes(player)) everyone.push(player)
  const client = (p: SquidPlayer) => p._client as unknown as { latency?: number }
  if (serv.supportFeature('playerInfoActionIsBitfield')) {
    player._client.write('player_info', {
      action: { add_player: true, update_listed: true, update_game_mode: true, update_latency: true },
      data: everyone.map((o) => ({
        uuid: o.uuid,
        player: { name: o.username, properties: o.profileProperties ?? [] },
        gamemode: o.gameMode,
        listed: true,
        latency: client(o).latency ?? 0,
      })),
    })
  } else {
    player._client.write('player_info', {
      action: 'add_player',
      data: everyone.map((o) => ({
        uuid: o.uuid,
        name: o.username,
        properties: o.profileProperties ?? [],
        gamemode: o.gameMode,
        ping: client(o).latency ?? 0,
      })),
    })
  }
}

const plugin: SquidPlugin = {
  name: 'player-visibility',
  player(player, serv) {
    const id = serv.registry.entitiesByName?.player?.id as number | undefined
    if (id !== undefined) player.entityType = id
    const original = player.updateAndSpawn as () => void
    let first = true
    player.updateAndSpawn = () => {
      if (first) {
        first = false
        sendTabListTo(player, serv)
        player.nearbyEntities = []
      }
      original()
    }
    if (serv.supportFeature('playerInfoActionIsBitfield')) {
      player.on('disconnected', () => {
        // the same account may already be back (a quick reconnect): then it has not left
        if (serv.players.some((p) => p !== player && p.uuid === player.uuid)) return
        for (const other of serv.players)
          if (other !== player) other._client.write('player_remove', { players: [player.uuid] })
      })
    }
  },
}
export default plugin
