/**
 * Effects last in server ticks, as vanilla's do. flying-squid ends an effect with a wall-clock timer, while the
 * effect's work (our hunger plugin's exhaustion, 0.005 × level per tick) happens per tick — so on a loaded server,
 * whose tick loop falls behind, a 6 s `/effect … hunger` ended after far fewer than its 120 ticks and took a fraction
 * of the food it takes on time. This wraps every entity's `addEffect` (players at join, others as they are created,
 * on flying-squid's `newEntity`) to drop the timer and end the effect at the tick its duration runs out instead; each
 * tick looks only at the entities with an effect running.
 */
import type { SquidEntity, SquidPlugin, SquidServer } from '../squid.js'

interface Effect {
  timeout?: ReturnType<typeof setTimeout>
  untilTick?: number
  duration: number
}
type Effects = Record<number, Effect | null | undefined>

/** Per server: the entities with an effect counted in ticks, until it ends or they are gone. */
const running = new WeakMap<SquidServer, Set<SquidEntity>>()

/** Make `entity`'s effects end by the server's tick count (once per entity). */
function countInTicks(entity: SquidEntity, serv: SquidServer): void {
  const add = entity.addEffect as ((id: number, opt?: Record<string, unknown>) => boolean) | undefined
  if (!add || entity.effectsInTicks) return
  entity.effectsInTicks = true
  entity.addEffect = (id: number, opt: Record<string, unknown> = {}): boolean => {
    const added = add.call(entity, id, opt)
    const effect = (entity.effects as Effects)[id]
    if (added && effect) {
      clearTimeout(effect.timeout)
      effect.untilTick = Number(serv.tickCount ?? 0) + effect.duration
      running.get(serv)?.add(entity)
    }
    return added
  }
}

/** End the effects of `entity` whose last tick has come; true while any is still running. */
function endDue(entity: SquidEntity, tick: number): boolean {
  const effects = (entity.effects as Effects | undefined) ?? {}
  let left = false
  for (const [id, effect] of Object.entries(effects)) {
    if (effect?.untilTick === undefined) continue
    if (tick >= effect.untilTick) (entity.removeEffect as (id: number) => void)(Number(id))
    else left = true
  }
  return left
}

const plugin: SquidPlugin = {
  name: 'effects',
  server(serv) {
    const entities = new Set<SquidEntity>()
    running.set(serv, entities)
    serv.on('newEntity', (entity: SquidEntity) => countInTicks(entity, serv))
    serv.on('tick', (_delta: number, tick: number) => {
      for (const entity of entities) {
        const gone = serv.entities[entity.id] !== entity
        if (gone || !endDue(entity, tick)) entities.delete(entity)
      }
    })
  },
  player(player, serv) {
    countInTicks(player, serv)
  },
}
export default plugin
