/**
 * `sound_effect` from the practice server's sound plugin (src/server/plugins/sound.ts): flying-squid's 1.8 names map
 * to 1.20.2 sound events, unknown names send nothing, and every packet written serializes and parses back with
 * minecraft-protocol's own 1.20.2 codec byte for byte (flying-squid's inline holder did not: its first byte was
 * left unwritten). The "server" is a plain object with the real registry and players that record their packets.
 */
import { createRequire } from 'node:module'
import { Vec3 } from 'vec3'
import { describe, expect, it } from 'vitest'
import plugin, { soundId } from '../../../src/server/plugins/sound.js'
import type { SquidServer } from '../../../src/server/squid.js'

const require = createRequire(import.meta.url)
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped CommonJS modules
const mc = require('minecraft-protocol') as any
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped CommonJS modules
const registry = require('minecraft-data')('1.20.2') as any

function server(): { serv: SquidServer; sent: Array<Record<string, unknown>> } {
  const sent: Array<Record<string, unknown>> = []
  const world = {}
  const player = {
    world,
    position: new Vec3(0, 64, 0),
    _client: {
      write: (name: string, p: Record<string, unknown>) => {
        if (name === 'sound_effect') sent.push(p)
      },
    },
  }
  const serv = { registry, players: [player] } as unknown as SquidServer
  plugin.server!(serv, {} as never)
  return { serv, sent }
}

describe('sound plugin', () => {
  it('maps flying-squid names and skips unknown ones', () => {
    const { serv } = server()
    expect(soundId(serv, 'dig.stone')).toBe(registry.soundsByName['block.stone.place'].id)
    expect(soundId(serv, 'minecraft:entity.item.pickup')).toBe(registry.soundsByName['entity.item.pickup'].id)
    expect(soundId(serv, 'no.such.sound')).toBeNull()
  })

  it('writes packets that parse back exactly', () => {
    const { serv, sent } = server()
    const play = serv.playSound as (s: string, w: unknown, p: Vec3 | null, o?: Record<string, unknown>) => void
    const world = serv.players[0]!.world
    play('dig.wood', world, new Vec3(1.5, 64.5, 2.5), { pitch: 0.8 })
    play('random.pop', world, null, { whitelist: serv.players[0] })
    play('no.such.sound', world, new Vec3(0, 64, 0))
    ;(serv.playSoundId as (id: number, w: unknown, p: Vec3) => void)(
      registry.soundsByName['entity.cow.hurt'].id,
      world,
      new Vec3(0, 64, 0),
    )
    expect(sent).toHaveLength(3)
    const ser = mc.createSerializer({ state: 'play', isServer: true, version: '1.20.2' })
    const des = mc.createDeserializer({ state: 'play', isServer: false, version: '1.20.2' })
    for (let i = 0; i < 50; i++)
      ser.createPacketBuffer({
        name: 'system_chat',
        params: { content: '{"text":"dirty the buffer pool"}', isActionBar: false },
      })
    for (const params of sent) {
      const buf = ser.createPacketBuffer({ name: 'sound_effect', params }) as Buffer
      const parsed = des.parsePacketBuffer(buf)
      expect(parsed.metadata.size).toBe(buf.length)
      expect(parsed.data.params.sound).toEqual(params.sound)
    }
    // wire id = minecraft-data id (protocol registry from 0, holder +1)
    expect((sent[0]!.sound as { soundId: number }).soundId).toBe(registry.soundsByName['block.wood.place'].id - 1)
    expect(sent[0]!.pitch).toBeCloseTo(0.8)
  })
})
