/**
 * `pathTo` (src/bot/path-to.ts) against mineflayer-pathfinder's event contract: the first path update of a long search
 * can be `partial` with an empty path (no node better than the start after one tick); that is waited through, where
 * the library's own `goto` resolved as if arrived. An empty `success` is the goal reached where the bot stands;
 * `noPath`, `timeout`, a stop and another goal reject with the library's error names.
 */
import { EventEmitter } from 'node:events'
import { createRequire } from 'node:module'
import type { Bot } from 'mineflayer'
import { goals } from 'mineflayer-pathfinder'
import { describe, expect, it } from 'vitest'
import { pathTo } from '../../../src/bot/path-to.js'

/** A bot whose pathfinder replays `script` (events after setGoal, one per turn). */
function botWith(script: Array<[string, ...unknown[]]>): Bot {
  const bot = new EventEmitter() as unknown as Bot & EventEmitter
  Object.assign(bot, {
    pathfinder: {
      setGoal(goal: unknown) {
        bot.emit('goal_updated', goal, false)
        let i = 0
        const next = (): void => {
          const e = script[i++]
          if (!e) return
          bot.emit(e[0], ...e.slice(1))
          setTimeout(next, 0)
        }
        setTimeout(next, 0)
      },
    },
  })
  return bot
}

const partialEmpty = ['path_update', { status: 'partial', path: [] }] as [string, unknown]
const settled = async (p: Promise<void>): Promise<string> =>
  p.then(
    () => 'resolved',
    (e: Error) => e.name,
  )

/** Whether the goal was reached when `walk` settled, after an empty partial update, another, then the goal. */
async function reachedWhenSettled(walk: (bot: Bot, goal: goals.Goal) => Promise<void>): Promise<boolean> {
  const goal = new goals.GoalY(19)
  const bot = botWith([partialEmpty, ['path_update', { status: 'partial', path: [{}] }], ['goal_reached', goal]])
  let reached = false
  bot.on('goal_reached', () => {
    reached = true
  })
  await walk(bot, goal)
  return reached
}

describe('pathTo', () => {
  it("is needed: the library's own goto resolves at a first empty partial update, before the goal", async () => {
    const require = createRequire(import.meta.url)
    const libraryGoto = require('mineflayer-pathfinder/lib/goto') as (bot: Bot, goal: goals.Goal) => Promise<void>
    expect(await reachedWhenSettled(libraryGoto)).toBe(false)
  })

  it('waits through a first partial update with an empty path until the goal is reached', async () => {
    expect(await reachedWhenSettled(pathTo)).toBe(true)
  })

  it('rejects with the library names after an empty partial: NoPath, Timeout', async () => {
    expect(
      await settled(
        pathTo(botWith([partialEmpty, ['path_update', { status: 'noPath', path: [] }]]), new goals.GoalY(1)),
      ),
    ).toBe('NoPath')
    expect(
      await settled(
        pathTo(botWith([partialEmpty, ['path_update', { status: 'timeout', path: [] }]]), new goals.GoalY(1)),
      ),
    ).toBe('Timeout')
  })

  it('resolves on an empty success (standing at the goal) and rejects on a stop or another goal', async () => {
    expect(await settled(pathTo(botWith([['path_update', { status: 'success', path: [] }]]), new goals.GoalY(1)))).toBe(
      'resolved',
    )
    expect(await settled(pathTo(botWith([partialEmpty, ['path_stop']]), new goals.GoalY(1)))).toBe('PathStopped')
    expect(await settled(pathTo(botWith([partialEmpty, ['goal_updated', null]]), new goals.GoalY(1)))).toBe(
      'GoalChanged',
    )
  })
})
