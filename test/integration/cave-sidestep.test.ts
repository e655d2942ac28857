/**
 * dig_down over a cave too wide to step round within 6 blocks, on a real practice server (superflat, 24 blocks of
 * stone) with our real bot: a one-block air layer 13×13 under the shaft's level leaves no column near it solid, and a
 * deep drop opens under the shaft itself, so no staircase fits either. The bot tunnels at its own level, straight, to
 * the nearest column beyond the layer that is solid to the target (src/actions/dig_down.ts `sidestep`, through the
 * ore search's own corridor, src/actions/tunnel.ts) and digs down from there to the level it was asked for.
 */
import type { Bot } from 'mineflayer'
import minecraftData from 'minecraft-data'
import { Vec3 } from 'vec3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execute } from '../../src/actions/index.js'
import type { ServerHandle } from '../../src/server/process.js'
import { command, giveItem, joinGhost, startServer, VERSION, waitFor } from '../helpers/world.js'

const STONE_TOP = 24
/** The air layer's level and half-width, and how deep the drop under the shaft goes. */
const LAYER_Y = 19
const HALF = 6
const DROP_BOTTOM = 14

let server: ServerHandle
let bot: Bot
const never = new AbortController().signal

beforeAll(async () => {
  const stone = minecraftData(VERSION).blocksByName.stone!.id
  server = await startServer({
    generator: 'superflat',
    generatorOptions: { middleId: stone, middleThickness: STONE_TOP },
    practice: { naturalSpawning: false },
  })
  bot = await joinGhost(server, 'Caver')
}, 40_000)

afterAll(async () => {
  bot?.quit()
  await server?.stop()
})

describe('dig_down round a wide cave', () => {
  it('tunnels to the nearest solid column beyond the cave and digs on from there', async () => {
    const c = bot.entity.position.floored()
    expect(c.y).toBe(STONE_TOP + 2)
    const cells: Array<[number, number, number]> = []
    for (let dx = -HALF; dx <= HALF; dx++)
      for (let dz = -HALF; dz <= HALF; dz++) cells.push([c.x + dx, LAYER_Y, c.z + dz])
    for (let y = LAYER_Y - 1; y >= DROP_BOTTOM; y--) cells.push([c.x, y, c.z])
    for (const [x, y, z] of cells) await command(bot, `/setblock ${x} ${y} ${z} air`)
    const carved = (): boolean => cells.every(([x, y, z]) => bot.blockAt(new Vec3(x, y, z))?.name === 'air')
    await waitFor(carved, 10_000, 'the cave carved')
    await giveItem(bot, 'iron_pickaxe')
    const r = await execute(bot, { type: 'dig_down', ylevel: 5, tool: null }, { signal: never })
    expect(r.ok, r.message).toBe(true)
    const end = bot.entity.position.floored()
    expect(end.y).toBe(5)
    const off = { x: end.x - c.x, z: end.z - c.z }
    // beyond the layer, and the nearest such column: HALF + 1 cells along one axis
    expect(Math.max(Math.abs(off.x), Math.abs(off.z))).toBe(HALF + 1)
    expect(Math.min(Math.abs(off.x), Math.abs(off.z))).toBe(0)
    // the tunnel it dug at the level where the drop stopped the shaft: every cell from the shaft to the column is open
    const level = LAYER_Y + 2
    const step = { x: Math.sign(off.x), z: Math.sign(off.z) }
    for (let k = 1; k <= HALF + 1; k++) {
      const at = c.offset(step.x * k, level - c.y, step.z * k)
      expect(bot.blockAt(at)?.name, `tunnel cell ${at}`).toBe('air')
      expect(bot.blockAt(at.offset(0, 1, 0))?.name, `tunnel head ${at}`).toBe('air')
    }
  }, 90_000)
})
