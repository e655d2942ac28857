/**
 * Sound effects that 1.20.2 clients can parse. flying-squid's `serv.playSound` writes `sound_effect` with an inline
 * sound holder whose leading 0 byte minecraft-protocol's writer skips without writing (the buffer is unsafe-allocated,
 * so the client reads garbage as a registry id and logs "Chunk size is 43 but only 31 was read"), uses pre-1.9 names
 * (`dig.stone`, `random.pop`) and a 1.8-style pitch (×63). This plugin replaces `serv.playSound`/`serv.playSoundId`
 * (used by flying-squid's placing, pickup, damage and chest code, and by ours) with a writer that sends the registry id,
 * maps the old names to their 1.20 events and drops sounds it cannot name (sent correctly or not at all).
 * `soundEffect` is the one definition of the packet; src/server/mobs/creature.ts calls it too.
 */
import type { Vec3 } from 'vec3'
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid.js'

/** flying-squid's (1.8-era) sound names → the 1.20.2 sound events they stand for. */
const LEGACY: Record<string, string> = {
  'dig.stone': 'block.stone.place',
  'dig.wood': 'block.wood.place',
  'dig.grass': 'block.grass.place',
  'dig.gravel': 'block.gravel.place',
  'dig.sand': 'block.sand.place',
  'dig.cloth': 'block.wool.place',
  'dig.snow': 'block.snow.place',
  'dig.glass': 'block.glass.place',
  'random.pop': 'entity.item.pickup',
  'game.player.hurt': 'entity.player.hurt',
  'random.chestopen': 'block.chest.open',
  'random.chestclosed': 'block.chest.close',
}

const CATEGORIES = ['master', 'music', 'record', 'weather', 'block', 'hostile', 'neutral', 'player', 'ambient', 'voice']

export interface SoundOptions {
  category?: string | number
  volume?: number
  pitch?: number
  radius?: number
  only?: SquidPlayer[]
}

/** The registry id of a sound by 1.20 or legacy name (with or without `minecraft:`), or null. */
export function soundId(serv: SquidServer, name: string): number | null {
  const bare = name.replace(/^minecraft:/, '')
  const sounds = serv.registry.soundsByName as Record<string, { id: number }> | undefined
  const data = sounds?.[LEGACY[bare] ?? bare]
  return data ? data.id : null
}

/**
 * Send one `sound_effect` by registry id to the players within `radius` (or exactly `only`). minecraft-data's
 * 1.20.2 sounds.json numbers sounds from 1 (registry id + 1, PrismarineJS/minecraft-data-generator#76/#91) while the
 * holder codec adds the wire's +1 itself, so the holder's `soundId` is the minecraft-data id − 1 — unless the data
 * is already 0-based (minecraft-data#1316: then `sounds[0]` exists). A vanilla client hears the right sound.
 */
export function soundEffect(serv: SquidServer, id: number, world: unknown, pos: Vec3, opts: SoundOptions = {}): void {
  const category =
    typeof opts.category === 'number' ? (CATEGORIES[opts.category] ?? 'master') : (opts.category ?? 'master')
  const base = (serv.registry.sounds as Record<number, unknown> | undefined)?.[0] ? 0 : 1
  const packet = {
    sound: { soundId: id - base },
    soundCategory: category,
    x: Math.floor(pos.x * 8),
    y: Math.floor(pos.y * 8),
    z: Math.floor(pos.z * 8),
    volume: opts.volume ?? 1,
    pitch: opts.pitch ?? 1,
    seed: [0, 0],
  }
  const radius = opts.radius ?? 16
  const targets = opts.only ?? serv.players.filter((p) => p.world === world && p.position.distanceTo(pos) <= radius)
  for (const p of targets) p._client.write('sound_effect', packet)
}

interface SquidSoundOpts {
  whitelist?: SquidPlayer | SquidPlayer[]
  blacklist?: SquidPlayer[]
  radius?: number
  volume?: number
  pitch?: number
  soundCategory?: number
}

/** flying-squid's playSound/playSoundId signature, answered by `soundEffect`. */
function squidPlay(
  serv: SquidServer,
  id: number | null,
  world: unknown,
  position: Vec3 | null,
  o: SquidSoundOpts = {},
): void {
  if (id === null) return
  const only = o.whitelist === undefined ? undefined : Array.isArray(o.whitelist) ? o.whitelist : [o.whitelist]
  const black = new Set(o.blacklist ?? [])
  const targets = (
    only ??
    serv.players.filter(
      (p) => p.world === world && position !== null && p.position.distanceTo(position) <= (o.radius ?? 32),
    )
  ).filter((p) => !black.has(p))
  for (const p of targets) {
    soundEffect(serv, id, world, position ?? p.position, {
      only: [p],
      volume: o.volume,
      pitch: o.pitch,
      category: o.soundCategory,
    })
  }
}

const plugin: SquidPlugin = {
  name: 'sound',
  server(serv) {
    serv.playSound = (sound: string, world: unknown, position: Vec3 | null, o?: SquidSoundOpts) =>
      squidPlay(serv, soundId(serv, sound), world, position, o)
    serv.playSoundId = (id: number, world: unknown, position: Vec3 | null, o?: SquidSoundOpts) =>
      squidPlay(serv, id, world, position, o)
  },
}
export default plugin
