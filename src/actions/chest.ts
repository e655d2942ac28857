/**
 * `deposit(items, chest)` and `withdraw(items, chest)` (issue 17): walk to a chest (the one at the given position, or
 * the nearest visible chest, trapped chest or barrel), open it, move the items stack by stack, and verify: the window
 * counts right after the moves, then the chest reopened (the server fills a fresh window from its own state) must hold
 * exactly the expected counts and the inventory must have changed by exactly as much. A deposit of no listed items
 * means "everything but my tools". Containers inside a protected box (GHOST_PROTECTED) are never opened: the rule
 * book's sentence, asked here with the chest as the target. Fails with `not_found` (no chest), `no_path`,
 * `missing_materials` (not held / not in the chest), `no_space` (chest or inventory full), `unsafe`, `unverified`.
 */
import type { Bot } from 'mineflayer'
import type { Block } from 'prismarine-block'
import { Vec3 } from 'vec3'
import type { Action, StoreItem } from '../schemas/action.js'
import { protectedProblem } from '../rules/policy.js'
import { nearestVisibleBlock } from '../perception/vision.js'
import { withTimeout } from '../util/async.js'
import { countOf, fail, type Run } from './types.js'
import { goals, goto } from './world.js'

type Chest = Awaited<ReturnType<Bot['openContainer']>>
type StoreAction = Extract<Action, { type: 'deposit' | 'withdraw' }>

export const CHEST_BLOCKS = ['chest', 'trapped_chest', 'barrel'] as const
/** Tools, weapons and armour: what "everything but my tools" keeps. */
export const KEEP =
  /_(pickaxe|axe|shovel|hoe|sword|helmet|chestplate|leggings|boots)$|^(shears|flint_and_steel|fishing_rod|bow|crossbow|shield|trident)$/
export const isTool = (name: string): boolean => KEEP.test(name)
const OPEN_TIMEOUT_MS = 5_000
const CHEST_REACH = 3

/** The chest block to use: at the given position, else the nearest visible one. */
export function findChest(bot: Bot, at: StoreAction['chest']): Block {
  if (at) {
    const b = bot.blockAt(new Vec3(at.x, at.y, at.z))
    if (!b || !(CHEST_BLOCKS as readonly string[]).includes(b.name))
      fail('not_found', `There is no chest at ${at.x} ${at.y} ${at.z}${b ? ` (I see ${b.name})` : ''}.`)
    return b
  }
  const b = findChestNear(bot, 32)
  if (!b) fail('not_found', 'I cannot see a chest from here.')
  return b
}

async function openAt(run: Run, block: Block): Promise<Chest> {
  const { bot } = run
  const p = block.position
  const problem = protectedProblem(
    { protected: run.protected, players: [], position: bot.entity.position, target: p, placedByPlan: () => false },
    'open containers',
  )
  if (problem) fail('unsafe', problem)
  if (bot.entity.position.distanceTo(p.offset(0.5, 0.5, 0.5)) > CHEST_REACH + 1)
    await goto(run, new goals.GoalNear(p.x, p.y, p.z, CHEST_REACH - 1), 'the chest')
  run.check()
  return withTimeout(bot.openContainer(block), OPEN_TIMEOUT_MS, 'opening the chest')
}

const itemId = (bot: Bot, name: string): number => {
  const it = bot.registry.itemsByName[name]
  if (!it) fail('invalid', `${name} is not an item.`)
  return it.id
}

/** What to move: name → count, from the listed items (null = all the source has). */
function plan(bot: Bot, items: StoreItem[], source: (name: string) => number, where: string): Map<string, number> {
  const out = new Map<string, number>()
  for (const it of items) {
    itemId(bot, it.object)
    const have = source(it.object)
    if (have === 0 || (it.count !== null && have < it.count))
      fail(
        'missing_materials',
        `${where} ${have === 0 ? 'no' : `only ${have}`} ${it.object}${it.count !== null ? `, not ${it.count}` : ''}.`,
      )
    out.set(it.object, it.count ?? have)
  }
  return out
}

/** Reopen the chest and compare what the server says with what we expect; fails `unverified` on any difference. */
async function verify(
  run: Run,
  block: Block,
  chestWant: Map<string, number>,
  invWant: Map<string, number>,
): Promise<void> {
  const { bot } = run
  const win = await openAt(run, block)
  try {
    const wrong: string[] = []
    for (const [name, want] of chestWant) {
      const got = win.containerCount(itemId(bot, name), null)
      if (got !== want) wrong.push(`chest ${name} ${got}≠${want}`)
    }
    for (const [name, want] of invWant) {
      const got = countOf(bot, [name])
      if (got !== want) wrong.push(`inventory ${name} ${got}≠${want}`)
    }
    if (wrong.length) fail('unverified', `After moving the items the counts are off: ${wrong.join(', ')}.`)
  } finally {
    win.close()
  }
}

/** How many of item `id` fit into window slots [from, to): empty slots and room on stacks of the same item. */
function room(win: Chest, id: number, from: number, to: number, stackSize: number): number {
  let n = 0
  for (let i = from; i < to; i++) {
    const it = win.slots[i]
    if (!it) n += stackSize
    else if (it.type === id) n += Math.max(0, stackSize - it.count)
  }
  return n
}

interface Moved {
  moved: Map<string, number>
  chestAfter: Map<string, number>
  invAfter: Map<string, number>
  left: string[]
}

/**
 * Move the items; never more than fits (mineflayer's transfer would stop half-way holding a stack on the cursor).
 * `partial` (everything-but-tools and junk): move what fits and report the rest; otherwise `no_space` before moving.
 */
async function move(run: Run, block: Block, action: StoreAction, partial: boolean): Promise<Moved> {
  const { bot } = run
  const win = await openAt(run, block)
  const out: Moved = { moved: new Map(), chestAfter: new Map(), invAfter: new Map(), left: [] }
  try {
    const inChest = (n: string): number => win.containerCount(itemId(bot, n), null)
    let wanted: Map<string, number>
    if (action.type === 'deposit') {
      const items = action.items.length
        ? action.items
        : [...new Set(bot.inventory.items().map((i) => i.name))]
            .filter((n) => !isTool(n))
            .map((object) => ({ object, count: null }))
      if (items.length === 0) fail('missing_materials', 'I have nothing to put away but my tools.')
      wanted = plan(bot, items, (n) => countOf(bot, [n]), 'I have')
    } else wanted = plan(bot, action.items, inChest, 'The chest has')
    const [from, to] = action.type === 'deposit' ? [0, win.inventoryStart] : [win.inventoryStart, win.inventoryEnd]
    for (const [name, want] of wanted) {
      run.check()
      run.step()
      const id = itemId(bot, name)
      const fits = room(win, id, from, to, bot.registry.items[id]?.stackSize ?? 64)
      const n = Math.min(want, fits)
      if (n < want) {
        const where = action.type === 'deposit' ? 'the chest' : 'my inventory'
        if (!partial) fail('no_space', `Only ${fits} of the ${want} ${name} fit into ${where}.`)
        out.left.push(`${want - n} ${name}`)
        if (n === 0) continue
      }
      const c0 = inChest(name)
      const i0 = countOf(bot, [name])
      const sign = action.type === 'deposit' ? 1 : -1
      out.chestAfter.set(name, c0 + sign * n)
      out.invAfter.set(name, i0 - sign * n)
      await (action.type === 'deposit' ? win.deposit(id, null, n) : win.withdraw(id, null, n)).catch((err: Error) =>
        fail('no_space', `I could move only ${Math.abs(inChest(name) - c0)} of ${n} ${name}: ${err.message}.`),
      )
      out.moved.set(name, n)
    }
  } finally {
    win.close()
  }
  if (out.moved.size === 0)
    fail('no_space', `The ${action.type === 'deposit' ? 'chest' : 'inventory'} is full; nothing fit.`)
  return out
}

/** The nearest visible chest within `maxDistance`, or null. */
export function findChestNear(bot: Bot, maxDistance: number): Block | null {
  const ids = new Set(
    CHEST_BLOCKS.map((n) => bot.registry.blocksByName[n]?.id).filter((x): x is number => x !== undefined),
  )
  return nearestVisibleBlock(bot, ids, maxDistance)
}

/** Deposit what fits of these items into this chest, counts verified (the junk store during long tasks). */
export function storeIn(run: Run, block: Block, items: StoreItem[]): Promise<string> {
  const p = block.position
  return storeAt(run, block, { type: 'deposit', items, chest: { x: p.x, y: p.y, z: p.z } }, true)
}

async function store(run: Run, action: StoreAction): Promise<string> {
  return storeAt(run, findChest(run.bot, action.chest), action, action.type === 'deposit' && action.items.length === 0)
}

async function storeAt(run: Run, block: Block, action: StoreAction, partial: boolean): Promise<string> {
  const { moved, chestAfter, invAfter, left } = await move(run, block, action, partial)
  await verify(run, block, chestAfter, invAfter)
  const list = [...moved].map(([n, k]) => `${k} ${n}`).join(', ')
  const p = block.position
  const rest = left.length ? ` The chest is full: ${left.join(', ')} stayed with me.` : ''
  return action.type === 'deposit'
    ? `I put ${list} in the chest at ${p.x} ${p.y} ${p.z} (counts checked).${rest}`
    : `I took ${list} from the chest at ${p.x} ${p.y} ${p.z} (counts checked).`
}

export const deposit = (run: Run, a: Extract<Action, { type: 'deposit' }>): Promise<string> => store(run, a)
export const withdraw = (run: Run, a: Extract<Action, { type: 'withdraw' }>): Promise<string> => store(run, a)
