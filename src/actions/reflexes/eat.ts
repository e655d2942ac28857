/**
 * The eating reflex: when food is at or below `minHunger`, or health is below HEAL_HEALTH with food not full, the bot
 * eats the most nourishing food it carries (minecraft-data's food points), never one in the policy's NOT_EATEN, and
 * takes back into its hand what it held. One meal at a time: use the item and wait for the server's "finished eating"
 * status (entity_status 9) up to MEAL_MS; a meal cut short (a tool or weapon taken into the hand, the food gone) is
 * tried again RETRY_MS later. It never starts while the bot digs: the food in hand would slow the dig to hand speed.
 * Written here rather than with mineflayer-auto-eat, whose `eat()` sets its "eating" flag before it equips the food
 * and clears it only on the paths after the equip (read in its code, 5.0.3): one failed equip would leave it
 * "eating" for good, and the bot would never eat again.
 */
import type { Bot } from 'mineflayer'
import type { Item } from 'prismarine-item'
import { eats } from '../../rules/policy.js'
import { onceEvent } from '../../util/async.js'
import { logger } from '../../util/log.js'
import type { AttachedReflex, ReflexHost, ReflexPlugin } from './index.js'

const log = logger('reflex')

/** Eating takes 1.6 s (32 ticks); the server's confirmation comes well within this. */
const MEAL_MS = 3000
/** After a meal cut short, wait this long before the next: the action that took the hand is using it. */
const RETRY_MS = 1000
/** Below this health the bot eats even when not hungry (food above 17 is what heals). */
const HEAL_HEALTH = 14
const FULL_FOOD = 20
/** entity_status 9: the server says the entity finished using its item (eating done). */
const FINISHED_EATING = 9

/** The carried food with the most food points, never one the policy bans; null when there is none. */
export function bestFood(bot: Bot): Item | null {
  const foods = bot.registry.foodsByName
  let best: Item | null = null
  for (const it of bot.inventory.items()) {
    const f = foods[it.name]
    if (!f || !eats(it.name, f.foodPoints)) continue
    if (!best || f.foodPoints > foods[best.name]!.foodPoints) best = it
  }
  return best
}

/** Eat `food` once; true when the server confirmed it. The hand gets back what it held, unless taken meanwhile. */
async function meal(bot: Bot, food: Item): Promise<boolean> {
  const before = bot.heldItem
  await bot.equip(food, 'hand')
  const done = onceEvent<[{ entityId: number; entityStatus: number }]>(bot._client, 'entity_status', {
    filter: (p) => p.entityId === bot.entity.id && p.entityStatus === FINISHED_EATING,
    timeoutMs: MEAL_MS,
  })
  bot.activateItem()
  try {
    await done
    return true
  } catch {
    bot.deactivateItem()
    return false
  } finally {
    if (before && before.name !== food.name && bot.heldItem?.name === food.name) {
      const back = bot.inventory.items().find((i) => i.name === before.name)
      if (back) await bot.equip(back, 'hand').catch(() => {})
    }
  }
}

function attach(host: ReflexHost): AttachedReflex {
  const { bot } = host
  let eating = false
  let nextTryAt = 0
  const wantsFood = (): boolean =>
    bot.food <= host.options.minHunger || (bot.health < HEAL_HEALTH && bot.food < FULL_FOOD)
  const onTick = (): void => {
    if (eating || Date.now() < nextTryAt || !wantsFood() || bot.targetDigBlock) return
    const food = bestFood(bot)
    if (!food) return
    eating = true
    const food0 = bot.food
    void meal(bot, food)
      .catch(() => false)
      .then((ok) => {
        if (!ok) nextTryAt = Date.now() + RETRY_MS
        log.debug('meal', { food: food.name, ok, before: food0 })
      })
      .finally(() => {
        eating = false
      })
  }
  bot.on('physicsTick', onTick)
  return {
    busy: () => false,
    detach() {
      bot.removeListener('physicsTick', onTick)
    },
  }
}

const plugin: ReflexPlugin = { name: 'eat', attach }
export default plugin
