/**
 * Respawn: honours the client's respawn request (`client_command`, whose actionId arrives as the string
 * `perform_respawn` on 1.20.2 — flying-squid compares it with 0 and never respawns) for dead players only, and
 * sends a respawn packet with the 1.20.2 shape (dimension type and world names as strings, previous game mode as
 * an unsigned byte), then the world spawn, position, full health with vanilla's respawn food (20, saturation 5),
 * the chunks again (the client drops its world on respawn) and the entities around, despawning and re-spawning
 * the player for everyone who sees them; movement packets still carrying the death spot are ignored until the
 * client reports a position near the spawn. Works any number of times.
 */
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid.js'
import { isDead, markAlive, MAX_HEALTH } from './health.js'
import { setFood } from './hunger.js'

async function respawn(serv: SquidServer, player: SquidPlayer): Promise<void> {
  if (!isDead(player) || player.practiceRespawning) return
  player.practiceRespawning = true
  try {
    const login = serv.registry.loginPacket as { worldType?: string; dimension?: string } | undefined
    const names = serv.dimensionNames as Record<number, string>
    player._client.write('respawn', {
      dimension: login?.worldType ?? login?.dimension ?? 'minecraft:overworld',
      worldName: names[0] ?? 'minecraft:overworld',
      hashedSeed: serv.hashedSeed,
      gamemode: player.gameMode,
      previousGamemode: player.gameMode,
      isDebug: false,
      isFlat: false,
      death: undefined,
      portalCooldown: 0,
      copyMetadata: false,
    })
    const spawn = ((player.spawnPoint as SquidPlayer['position'] | undefined) ?? player.position).clone()
    player.position = spawn
    player.knownPosition = spawn
    player.onGround = false
    // until the client confirms the teleport, its movement packets still carry the death spot: ignore them
    player.practiceAwaitingSpawn = { pos: spawn, untilMs: Date.now() + 5000 }
    markAlive(player)
    ;(player.sendSpawnPosition as () => void)()
    ;(player.sendSelfPosition as () => void)()
    player.health = MAX_HEALTH
    setFood(player, 20, 5) // also sends update_health, now with full health
    // everyone who saw the corpse gets a fresh player entity
    const watchers = serv.players.filter(
      (p) => p !== player && (p.nearbyEntities as unknown[] | undefined)?.includes(player),
    )
    for (const w of watchers) (w.despawnEntities as (e: unknown[]) => void)([player])
    player.nearbyEntities = []
    ;(player.updateAndSpawn as () => void)()
    ;(player._unloadAllChunks as () => void)()
    await (player.worldSendInitialChunks as () => Promise<void>)()
    ;(player.sendSelfPosition as () => void)()
    serv.emit('practicePlayerRespawned', player)
  } finally {
    player.practiceRespawning = false
  }
  // the rest of the view streams in the background (seconds); a later death must not wait for it
  await (player.worldSendRestOfChunks as () => Promise<void>)()
}

const plugin: SquidPlugin = {
  name: 'respawn',
  player(player, serv) {
    // movement packets carrying the death spot arrive after the respawn (even after the teleport confirm): ignore
    // positions far from the spawn until the client reports one near it (or 5 s passed)
    player.on(
      'move_cancel',
      (
        data: { position: SquidPlayer['position']; teleport?: boolean },
        cancel: (run?: boolean, hide?: boolean) => void,
      ) => {
        if (data.teleport) {
          player.practiceAwaitingSpawn = undefined
          return
        }
        const awaiting = player.practiceAwaitingSpawn as { pos: SquidPlayer['position']; untilMs: number } | undefined
        if (!awaiting) return
        if (Date.now() > awaiting.untilMs || data.position.distanceTo(awaiting.pos) <= 4)
          player.practiceAwaitingSpawn = undefined
        else cancel(false, true)
      },
    )
    player._client.on('client_command', (packet: { actionId?: string | number; payload?: string | number }) => {
      const action = packet.actionId ?? packet.payload
      if (action === 'perform_respawn' || action === 0) {
        respawn(serv, player).catch((err: unknown) =>
          process.stderr.write(`respawn failed: ${err instanceof Error ? err.stack : String(err)}\n`),
        )
      }
    })
  },
}
export default plugin
