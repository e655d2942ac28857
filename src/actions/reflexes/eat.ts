/**
 * The eating reflex: mineflayer-auto-eat eats when food drops to `minHunger`, never a food in the policy's NOT_EATEN.
 * Detaching turns it off again.
 */
import { NOT_EATEN } from '../../rules/policy.js'
import { logger } from '../../util/log.js'
import type { AttachedReflex, ReflexHost, ReflexPlugin } from './index.js'

const log = logger('reflex')

function attach(host: ReflexHost): AttachedReflex {
  const { bot } = host
  try {
    bot.autoEat.setOpts({ minHunger: host.options.minHunger, bannedFood: [...NOT_EATEN] })
    bot.autoEat.enableAuto()
  } catch (err) {
    log.warn('auto-eat unavailable', { err: (err as Error).message })
  }
  return {
    busy: () => false,
    detach() {
      try {
        bot.autoEat.disableAuto()
      } catch {
        /* not loaded */
      }
    },
  }
}

const plugin: ReflexPlugin = { name: 'eat', attach }
export default plugin
