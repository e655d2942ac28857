/**
 * Tool wear on a real practice server (src/server/plugins/tool-wear.ts) with real mineflayer clients. A plain player
 * on superflat: `/give` with vanilla's `{Damage:N}` hands over a worn tool; each block of hardness > 0 wears a
 * pickaxe by one use and a sword by two, a block of hardness 0 wears nothing; the last use breaks the tool (slot
 * empty, entity status 47 seen) and the block still drops what that tool harvests; a sword's hit on a creature wears
 * it by one. Our bot digs rock with an iron pickaxe until it is on its last SPARE_USES, then with the stone pickaxe
 * beside it (`equipSparing`, and the pathfinder's own choice); with no other pickaxe, or none at all, it makes a stone
 * one from the bag for the rock (`retoolFor`, `digWith`), and beside a fresh stone pickaxe an iron one worn down is replaced from the spare raw iron
 * it carries, smelted in its own furnaces. Then our bot through the real app (seed 42): given a wooden pickaxe with two uses left
 * and asked for cobblestone, its pickaxe breaks on the way, the bot says it wore out, makes another and finishes.
 */
import type { Bot } from 'mineflayer'
import type { Vec3 } from 'vec3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ServerHandle } from '../../src/server/process.js'
import type { TaskEvent } from '../../src/schemas/task.js'
import { startPracticeApp } from '../helpers/app.js'
import { digWith, retoolFor } from '../../src/actions/retool.js'
import { runHandler } from '../../src/actions/run.js'
import { equipSparing, SPARE_USES } from '../../src/bot/wear.js'
import {
  command,
  countItem,
  giveItem,
  joinGhost,
  joinPlayer,
  quit,
  setBlockSeen,
  startServer,
  syncWithServer,
  waitFor,
  waitForMessage,
} from '../helpers/world.js'

let server: ServerHandle
let bot: Bot
let target: Vec3

const held = (name: string): { used: number } | null => {
  const it = bot.inventory.items().find((i) => i.name === name)
  return it ? { used: it.durabilityUsed ?? 0 } : null
}

async function holdWorn(name: string, damage: number): Promise<void> {
  await command(bot, `/clear ${bot.username}`, { allowError: true })
  await command(bot, `/give ${bot.username} ${name}{Damage:${damage}}`)
  await waitFor(() => held(name)?.used === damage, 5000, `${name} worn by ${damage}`)
  await bot.equip(bot.registry.itemsByName[name]!.id, 'hand')
}

async function dig(block: string): Promise<void> {
  await command(bot, `/setblock ${target.x} ${target.y} ${target.z} ${block}`)
  await waitFor(() => bot.blockAt(target)?.name === block, 5000, `${block} placed`)
  await bot.dig(bot.blockAt(target)!, true)
}

/** Wait until the held `name` shows `used` uses worn (the server wears it after the dig's answer). */
const wornTo = (name: string, used: number): Promise<void> =>
  waitFor(() => held(name)?.used === used, 5000, `${name} worn to ${used}`)

beforeAll(async () => {
  server = await startServer({ generator: 'superflat', seed: 7, practice: { naturalSpawning: false } })
  bot = await joinPlayer(server, 'Wearer')
  await waitFor(() => bot.entity.onGround, 5000, 'on the ground')
  target = bot.entity.position.floored().offset(1, 0, 0)
  await command(bot, `/effect ${bot.username} haste 600 49`)
}, 30_000)

afterAll(async () => {
  quit(bot)
  await server?.stop()
})

describe('tool wear on the practice server', () => {
  it('a block wears a pickaxe by one use, a block of hardness 0 by none', async () => {
    await holdWorn('iron_pickaxe', 10)
    await dig('stone')
    await wornTo('iron_pickaxe', 11)
    // the torch wears nothing: the next stone takes it to 12, not 13
    await dig('torch')
    await dig('stone')
    await wornTo('iron_pickaxe', 12)
    await syncWithServer(bot)
    expect(held('iron_pickaxe')).toEqual({ used: 12 })
  }, 20_000)

  it('the last use breaks the tool, and the block drops what the tool harvested', async () => {
    const max = bot.registry.itemsByName.stone_pickaxe!.maxDurability!
    await holdWorn('stone_pickaxe', max - 1)
    let status: number | null = null
    const onStatus = (p: { entityId: number; entityStatus: number }): void => {
      if (p.entityId === bot.entity.id) status = p.entityStatus
    }
    bot._client.on('entity_status', onStatus)
    try {
      await dig('iron_ore')
      await waitFor(() => held('stone_pickaxe') === null, 5000, 'the pickaxe gone')
      await waitFor(() => status !== null, 5000, 'the break shown')
    } finally {
      bot._client.removeListener('entity_status', onStatus)
    }
    expect(status).toBe(47)
    await waitFor(() => countItem(bot, 'raw_iron') === 1, 5000, 'raw iron from the breaking dig')
  }, 20_000)

  it('a sword wears by two on a block and by one on a hit', async () => {
    await holdWorn('iron_sword', 0)
    await dig('dirt')
    await wornTo('iron_sword', 2)
    const p = bot.entity.position
    await command(bot, `/summon cow ${Math.floor(p.x) + 2} ${Math.floor(p.y)} ${Math.floor(p.z)}`)
    await waitFor(() => bot.nearestEntity((e) => e.name === 'cow') !== null, 5000, 'a cow beside')
    bot.attack(bot.nearestEntity((e) => e.name === 'cow')!)
    await wornTo('iron_sword', 3)
  }, 20_000)

  it('refuses item data other than Damage, and Damage on an item that does not wear', async () => {
    await expect(command(bot, `/give ${bot.username} iron_pickaxe{Unbreakable:1b}`)).rejects.toThrow(
      /only \{Damage:N\}/,
    )
    await expect(command(bot, `/give ${bot.username} dirt{Damage:3}`)).rejects.toThrow(/does not wear/)
  }, 15_000)
})

describe('the bot sparing a worn tool', () => {
  it('digs rock with the fastest pickaxe, but not with one on its last uses while another digs it', async () => {
    const ghost = await joinGhost(server, 'Sparer')
    try {
      // away from the other player, who would pick up the drop of the table the bot digs back up
      const away = bot.entity.position.floored().offset(12, 0, 0)
      await command(ghost, `/tp Sparer ${away.x + 0.5} ${away.y} ${away.z + 0.5}`)
      await waitFor(
        () => ghost.entity.position.distanceTo(bot.entity.position) > 10 && ghost.entity.onGround,
        5000,
        'away',
      )
      const pick = (damage: number): Promise<void> =>
        command(ghost, `/give Sparer iron_pickaxe{Damage:${damage}}`).then(() =>
          waitFor(() => ghost.inventory.items().some((i) => i.name === 'iron_pickaxe'), 5000, 'iron pickaxe'),
        )
      await giveItem(ghost, 'stone_pickaxe')
      await pick(0)
      const rock = ghost.entity.position.floored().offset(2, 0, 0)
      await setBlockSeen(ghost, rock.x, rock.y, rock.z, 'deepslate')
      await equipSparing(ghost, ghost.blockAt(rock)!)
      expect(ghost.heldItem?.name).toBe('iron_pickaxe')
      await command(ghost, '/clear Sparer iron_pickaxe')
      await pick(bot.registry.itemsByName.iron_pickaxe!.maxDurability! - SPARE_USES)
      await equipSparing(ghost, ghost.blockAt(rock)!)
      expect(ghost.heldItem?.name).toBe('stone_pickaxe')
      // the pathfinder's digs (walks that tunnel) choose the same way
      expect(ghost.pathfinder.bestHarvestTool(ghost.blockAt(rock)!)?.name).toBe('stone_pickaxe')
      // every pickaxe on its last uses: the bot makes a stone pickaxe from the bag for the rock, its sticks from the
      // last planks first (retoolFor)
      await command(ghost, '/clear Sparer stone_pickaxe')
      await giveItem(ghost, 'cobblestone', 3)
      await giveItem(ghost, 'oak_planks', 2)
      await giveItem(ghost, 'crafting_table', 1)
      let made: boolean | null = null
      const r = await runHandler(
        ghost,
        { signal: new AbortController().signal },
        { name: 'explore', doing: 'exploring', budget: { steps: 20, timeMs: 30_000 }, tracked: false },
        async (run) => {
          made = await retoolFor(run, ghost.blockAt(rock)!)
          return 'retooled'
        },
      )
      expect(r.ok, r.message).toBe(true)
      expect(made).toBe(true)
      expect(countItem(ghost, 'stone_pickaxe')).toBe(1)
      expect(countItem(ghost, 'stick'), '4 sticks made, 2 used').toBe(2)
      expect(countItem(ghost, 'crafting_table'), 'the table picked back up').toBe(1)
      await equipSparing(ghost, ghost.blockAt(rock)!)
      expect(ghost.heldItem?.name).toBe('stone_pickaxe')
      // alone, the worn pickaxe digs on to its last use
      await command(ghost, '/clear Sparer stone_pickaxe')
      await waitFor(() => countItem(ghost, 'stone_pickaxe') === 0, 5000, 'stone pickaxe gone')
      await equipSparing(ghost, ghost.blockAt(rock)!)
      expect(ghost.heldItem?.name).toBe('iron_pickaxe')
      // no pickaxe at all: a dig of rock makes one from the bag first (digWith, as shafts, stairs and climbs dig;
      // bench d70 seed 60 climbed 33 blocks of stone by hand, 7.5 s each, with the makings in its bag)
      await command(ghost, '/clear Sparer')
      await waitFor(() => ghost.inventory.items().length === 0, 5000, 'an empty bag')
      await giveItem(ghost, 'cobblestone', 3)
      await giveItem(ghost, 'stick', 2)
      await giveItem(ghost, 'crafting_table', 1)
      await setBlockSeen(ghost, rock.x, rock.y, rock.z, 'stone')
      const dug = await runHandler(
        ghost,
        { signal: new AbortController().signal },
        { name: 'go_up', doing: 'going up', budget: { steps: 20, timeMs: 30_000 }, tracked: false },
        async (run) => {
          await digWith(run, ghost.blockAt(rock)!, null)
          return 'dug'
        },
      )
      expect(dug.ok, dug.message).toBe(true)
      expect(countItem(ghost, 'stone_pickaxe')).toBe(1)
      expect(ghost.blockAt(rock)?.name).toBe('air')
    } finally {
      quit(ghost)
    }
  }, 40_000)
})

describe('the bot replacing a worn tool', () => {
  it('smelts the spare raw iron it carries into a new iron pickaxe once the old one is worn beside a stone one', async () => {
    const ghost = await joinGhost(server, 'Smelter')
    try {
      const away = bot.entity.position.floored().offset(-12, 0, 0)
      await command(ghost, `/tp Smelter ${away.x + 0.5} ${away.y} ${away.z + 0.5}`)
      await waitFor(
        () => ghost.entity.position.distanceTo(bot.entity.position) > 10 && ghost.entity.onGround,
        5000,
        'away',
      )
      const rock = ghost.entity.position.floored().offset(2, 0, 0)
      await setBlockSeen(ghost, rock.x, rock.y, rock.z, 'deepslate')
      const retool = async (reserve: Record<string, number> = {}): Promise<boolean> => {
        let made = false
        const r = await runHandler(
          ghost,
          { signal: new AbortController().signal, reserve },
          // tracked as explore's run is, stall window and all: one furnace cooks its 3 items for 30 s (vanilla speed)
          { name: 'explore', doing: 'exploring', budget: { steps: 40, timeMs: 75_000 }, tracked: true },
          async (run) => {
            made = await retoolFor(run, ghost.blockAt(rock)!)
            return 'retooled'
          },
        )
        expect(r.ok, r.message).toBe(true)
        return made
      }
      await giveItem(ghost, 'stone_pickaxe')
      await giveItem(ghost, 'raw_iron', 3)
      await giveItem(ghost, 'furnace', 2)
      await giveItem(ghost, 'coal', 2)
      await giveItem(ghost, 'stick', 2)
      await giveItem(ghost, 'crafting_table', 1)
      // nothing worn: the raw iron is the plan's, not a spare tool's
      expect(await retool()).toBe(false)
      expect(countItem(ghost, 'raw_iron')).toBe(3)
      const max = bot.registry.itemsByName.iron_pickaxe!.maxDurability!
      await command(ghost, `/give Smelter iron_pickaxe{Damage:${max - SPARE_USES}}`)
      await waitFor(() => countItem(ghost, 'iron_pickaxe') === 1, 5000, 'the worn iron pickaxe')
      // the raw iron the steps ahead use is not spare
      expect(await retool({ raw_iron: 1 })).toBe(false)
      expect(countItem(ghost, 'raw_iron')).toBe(3)
      // a coal the steps ahead use is left too: the other feeds one furnace
      expect(await retool({ coal: 1 })).toBe(true)
      expect(countItem(ghost, 'coal')).toBe(1)
      // the new one, worn only by the furnaces and the table it dug back up
      const picks = ghost.inventory.items().filter((i) => i.name === 'iron_pickaxe')
      expect(picks).toHaveLength(2)
      expect(Math.min(...picks.map((i) => i.durabilityUsed ?? 0))).toBeLessThan(SPARE_USES)
      expect(countItem(ghost, 'raw_iron')).toBe(0)
      expect(countItem(ghost, 'furnace'), 'the furnaces picked back up').toBe(2)
      expect(countItem(ghost, 'crafting_table'), 'the table picked back up').toBe(1)
      await equipSparing(ghost, ghost.blockAt(rock)!)
      expect(ghost.heldItem?.name).toBe('iron_pickaxe')
      expect(ghost.heldItem?.durabilityUsed ?? 0).toBeLessThan(SPARE_USES)
    } finally {
      quit(ghost)
    }
  }, 90_000)
})

describe('the bot when its tool breaks', () => {
  it('says the pickaxe wore out, makes another and finishes the request', async () => {
    const scene = await startPracticeApp({ seed: 42, env: { GHOST_GOAL_TIME_BUDGET_MS: '120000' } })
    const { app, alice, ghost } = scene
    const events: string[] = []
    const failed: string[] = []
    const off = app.router.onTaskEvent((e: TaskEvent) => {
      if (e.kind === 'progress') events.push(...e.subgoals.map((s) => `${s.status} ${s.label}`))
      if (e.kind === 'action' && !e.ok) failed.push(`${e.reason}: ${e.message}`)
    })
    try {
      await command(alice, '/give Ghost wooden_pickaxe{Damage:57}')
      await command(alice, '/give Ghost crafting_table 1')
      await command(alice, '/give Ghost oak_planks 6')
      await command(alice, '/give Ghost stick 4')
      await waitFor(() => countItem(ghost, 'stick') === 4, 5000, 'Ghost holds the kit')
      const reply = waitForMessage(alice, /^(Done|I could|I can't|I gave up)[\s\S]*cobblestone/, {
        from: 'Ghost',
        timeoutMs: 130_000,
      })
      alice.chat('Ghost get 5 cobblestone for yourself')
      const text = await reply
      expect(text).toMatch(/^Done: 5 cobblestone/)
      expect(countItem(ghost, 'cobblestone')).toBeGreaterThanOrEqual(5)
      // the given pickaxe broke on its second use, the action said so, and another was made for the rest
      expect(
        failed.some((m) => /^missing_tool: .*wooden_pickaxe wore out and broke/.test(m)),
        failed.join('\n'),
      ).toBe(true)
      expect(
        events.some((l) => /craft \d+ (wooden|stone)_pickaxe/.test(l)),
        events.join('\n'),
      ).toBe(true)
    } finally {
      off()
      await scene.stop()
    }
  }, 180_000)
})
