/**
 * A destroyed entity sends nothing more. flying-squid's entity tick awaits each entity's physics step and then sends
 * its position; an item picked up (or a mob killed) during that await was already destroyed, and the late move
 * packet made mineflayer create the entity again under the same id (its `fetchEntity`): a ghost that stayed in
 * `bot.entities` for good. The bot's drop collection took the ghost for the drop still lying there and waited out
 * its 1.5 s settle and 3 s pickup waits for a log it already held (6.5 s at every tree in bench:diamond). Every
 * entity's `sendPosition` now answers nothing once the entity is gone from the server.
 */
import type { SquidEntity, SquidPlugin, SquidServer } from '../squid.js'

type SendPosition = (...args: unknown[]) => Promise<unknown> | undefined

const plugin: SquidPlugin = {
  name: 'gone-entities',
  server(serv: SquidServer) {
    serv.on('newEntity', (entity: SquidEntity) => {
      const send = entity.sendPosition as SendPosition | undefined
      if (typeof send !== 'function') return
      entity.sendPosition = (...args: unknown[]) =>
        serv.entities[entity.id] === entity ? send.apply(entity, args) : Promise.resolve()
    })
  },
}
export default plugin
