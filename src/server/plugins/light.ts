/**
 * Light for the practice world: every chunk column gets vanilla-rule sky and block light (src/server/light.ts) just
 * before flying-squid first sends it (`sendChunk`, so superflat and generated worlds alike), and when blocks change
 * (a dug shaft, a placed torch, a new roof) the changed columns are relit at most every 50 ms and sent again as
 * `update_light` to the players who have them loaded. flying-squid itself sends whatever light the column holds —
 * nothing for its superflat world — so without this plugin clients see light 0 everywhere.
 */
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid.js'
import { lightColumn, lightTables, type LightColumn, type LightTables } from '../light.js'

interface LightWorld {
  getLoadedColumn(x: number, z: number): (LightColumn & { dumpLight(): Record<string, unknown> }) | null | undefined
  on(ev: 'blockUpdate', l: (oldBlock: unknown, newBlock: { position: { x: number; z: number } }) => void): void
}

const RELIGHT_DELAY_MS = 50

function relighter(serv: SquidServer, t: LightTables): (world: LightWorld, x: number, z: number) => void {
  const dirty = new Map<LightWorld, Set<string>>()
  let timer: NodeJS.Timeout | undefined
  const flush = (): void => {
    timer = undefined
    for (const [world, keys] of dirty) {
      for (const key of keys) {
        const [x, z] = key.split(',').map(Number) as [number, number]
        const col = world.getLoadedColumn(x, z)
        if (!col) continue
        lightColumn(col, t)
        const packet = { chunkX: x, chunkZ: z, ...col.dumpLight() }
        for (const p of serv.players) {
          if (
            (p.world as unknown) === world &&
            (p.loadedChunks as Record<string, unknown> | undefined)?.[key] !== undefined
          )
            p._client.write('update_light', packet)
        }
      }
    }
    dirty.clear()
  }
  return (world, x, z) => {
    let keys = dirty.get(world)
    if (!keys) {
      keys = new Set()
      dirty.set(world, keys)
    }
    keys.add(`${x},${z}`)
    if (!timer) {
      timer = setTimeout(flush, RELIGHT_DELAY_MS)
      timer.unref()
    }
  }
}

const plugin: SquidPlugin = {
  name: 'light',
  server(serv) {
    const t = lightTables(serv.registry.blocksArray as Parameters<typeof lightTables>[0])
    const lit = new WeakSet<object>()
    const watched = new WeakSet<object>()
    const relight = relighter(serv, t)
    serv.practiceLight = { t, lit }
    const watch = (world: LightWorld): void => {
      if (watched.has(world)) return
      watched.add(world)
      world.on('blockUpdate', (_old, b) => relight(world, Math.floor(b.position.x / 16), Math.floor(b.position.z / 16)))
    }
    serv.practiceLightWatch = watch
  },
  player(player: SquidPlayer, serv) {
    const state = serv.practiceLight as { t: LightTables; lit: WeakSet<object> }
    const watch = serv.practiceLightWatch as (w: LightWorld) => void
    player.on('sendChunk', ({ chunk }: { chunk: LightColumn }) => {
      watch(player.world as unknown as LightWorld)
      if (state.lit.has(chunk)) return
      lightColumn(chunk, state.t)
      state.lit.add(chunk)
    })
  },
}
export default plugin
