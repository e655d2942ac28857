/**
 * The other versions the practice server (flying-squid 1.12) lists besides 1.20.2 (the whole suite) and 1.21.4
 * (version-1.21.4.test.ts): per version, a server child and plain mineflayer clients acting as humans — one player
 * digs a block and picks up its drop, crafts planks in the 2×2 grid and places one, and wears a pickaxe by one use
 * digging; then a second player joins, sees the first as a player, and hears her chat and her whisper. The bot
 * itself is not run at these versions.
 */
import type { Bot } from 'mineflayer'
import { Vec3 } from 'vec3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ServerHandle } from '../../src/server/process.js'
import { PRACTICE_VERSIONS } from '../../src/versions.js'
import { command, countItem, joinPlayer, quit, startServer, waitFor, waitForMessage } from '../helpers/world.js'

/** Proven elsewhere: 1.20.2 by the whole suite, 1.21.4 by version-1.21.4.test.ts. */
const VERSIONS = PRACTICE_VERSIONS.filter((v) => v !== '1.20.2' && v !== '1.21.4')

describe.each(VERSIONS)('practice server at Minecraft %s', (version) => {
  let server: ServerHandle
  let alice: Bot
  let bob: Bot | null = null

  beforeAll(async () => {
    server = await startServer({ version, seed: 1, practice: { naturalSpawning: false } })
    alice = await joinPlayer(server, 'Alice')
  }, 40_000)

  afterAll(async () => {
    quit(alice, bob)
    await server?.stop()
  })

  it('lets a player dig (and pick up), craft in the 2×2 grid and place', async () => {
    await waitFor(() => alice.entity.onGround, 5000, 'Alice on the ground')
    const below = alice.blockAt(alice.entity.position.offset(0, -1, 0))!
    expect(['grass_block', 'dirt']).toContain(below.name)
    await alice.dig(below)
    await waitFor(() => countItem(alice, 'dirt') === 1, 5000, 'Alice picked up the dirt she dug')
    await command(alice, '/give Alice oak_log 1')
    await waitFor(() => countItem(alice, 'oak_log') === 1, 5000, 'Alice got a log')
    const recipe = alice.recipesFor(alice.registry.itemsByName.oak_planks!.id, null, 1, null)[0]
    await alice.craft(recipe!, 1, undefined)
    await waitFor(() => countItem(alice, 'oak_planks') === 4, 5000, 'four planks crafted in the 2×2 grid')
    const ref = alice.findBlock({
      matching: (b) => b.name === 'grass_block' || b.name === 'dirt',
      maxDistance: 4,
      useExtraInfo: (b) =>
        alice.blockAt(b.position.offset(0, 1, 0))?.name === 'air' && b.position.distanceTo(alice.entity.position) > 1.5,
    })
    expect(ref).not.toBeNull()
    await alice.equip(alice.inventory.items().find((i) => i.name === 'oak_planks')!, 'hand')
    await alice.placeBlock(ref!, new Vec3(0, 1, 0))
    expect(alice.blockAt(ref!.position.offset(0, 1, 0))?.name).toBe('oak_planks')
  }, 30_000)

  it('wears a tool by its vanilla uses: a wooden pickaxe that dug a block keeps 58 of its 59', async () => {
    // minecraft-data gives 1.20.5/1.20.6 items a maxDurability of 1: unrepaired, the pickaxe broke on its first block
    await command(alice, '/give Alice wooden_pickaxe 1')
    await waitFor(() => countItem(alice, 'wooden_pickaxe') === 1, 5000, 'Alice got a wooden pickaxe')
    await alice.equip(alice.inventory.items().find((i) => i.name === 'wooden_pickaxe')!, 'hand')
    const soil = alice.findBlock({
      matching: (b) => b.name === 'grass_block' || b.name === 'dirt',
      maxDistance: 4,
      useExtraInfo: (b) => alice.blockAt(b.position.offset(0, 1, 0))?.name === 'air',
    })
    expect(soil).not.toBeNull()
    await alice.dig(soil!)
    await waitFor(() => alice.heldItem?.durabilityUsed === 1, 5000, 'the pickaxe worn by one use, not broken')
    expect(alice.heldItem?.name).toBe('wooden_pickaxe')
  }, 30_000)

  it('shows players as players and carries chat and whispers', async () => {
    bob = await joinPlayer(server, 'Bob')
    await waitFor(() => Object.values(bob!.entities).some((e) => e.username === 'Alice'), 10_000, 'Bob sees Alice')
    expect(Object.values(bob.entities).find((e) => e.username === 'Alice')?.type).toBe('player')
    const heard = waitForMessage(bob, /^hello bob$/, { from: 'Alice' })
    alice.chat('hello bob')
    await heard
    const whispered = recordWhisper(bob)
    alice.chat('/msg Bob psst')
    expect(await whispered).toEqual(['Alice', 'psst'])
  }, 30_000)
})

function recordWhisper(bot: Bot): Promise<[string, string]> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      bot.removeListener('whisper', on)
      reject(new Error('no whisper within 10000 ms'))
    }, 10_000)
    function on(u: string, m: string): void {
      clearTimeout(t)
      bot.removeListener('whisper', on)
      resolve([u, m])
    }
    bot.on('whisper', on)
  })
}
